/** Booking statuses (api-facts.md's list). Live ones hold seats; CANCELLED and ABANDONED_CART do not. */
export const BOOKING_STATUSES = ['PROCESSING', 'NEW', 'ON_HOLD', 'PENDING_SUPPLIER', 'PENDING_CUSTOMER', 'CONFIRMED', 'CANCELLED', 'ABANDONED_CART'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export const LIVE_STATUSES = ['PROCESSING', 'NEW', 'ON_HOLD', 'PENDING_SUPPLIER', 'PENDING_CUSTOMER', 'CONFIRMED'] as const satisfies readonly BookingStatus[];
export const isLive = (status: string) => (LIVE_STATUSES as readonly string[]).includes(status);
