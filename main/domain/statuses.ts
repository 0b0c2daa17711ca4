import { LIVE_STATUSES } from '../contract/enums';

export { BOOKING_STATUSES, LIVE_STATUSES, type BookingStatus } from '../contract/enums';
export const isLive = (status: string) => (LIVE_STATUSES as readonly string[]).includes(status);
