import type { ManifestBooking, ParticipantCheckin } from './types';
import { formats } from '../lib/formats';

/** Small readers of the contract's answers where a union or a loosely typed field needs narrowing. */

/** A check-in an event made: when, on which device, by whom, and the event (what an undo names). */
export type RecordedCheckin = Extract<ParticipantCheckin, { eventId: string }>;

/** The event behind a participant's state, or null when none made it (expected, or a no-show only because check-in closed). */
export const recordedCheckin = (checkin: ParticipantCheckin): RecordedCheckin | null => ('eventId' in checkin ? checkin : null);

/**
 * " · Pickup: Pier 3 07:40" for a booking with a pickup, else "". A manifest's pickup is the item's as
 * stored, so its time is read only when it is text.
 */
export function pickupLine(pickup: ManifestBooking['pickup']): string {
  if (!pickup?.locationName) return '';
  const time = typeof pickup.pickupTime === 'string' ? ` ${formats().time(pickup.pickupTime)}` : '';
  return ` · Pickup: ${pickup.locationName}${time}`;
}
