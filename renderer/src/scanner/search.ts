import type { DeviceParticipant, DeviceSession } from '../api/types';
import { searchBookings } from '../model/deskManifest';
import type { WindowCopy } from './copies';

/**
 * The scanner's search, offline too: a guest who lost their ticket found by name, phone or order
 * number in the device's window copy. The matching is the desk's own (searchBookings: accents and
 * case folded, "0400 123 757" finds "+61 400 123 757"); this adds which departure each booking is on.
 */

/** A booking of the copy as a result shows it (live or cancelled: the copy holds both, with their codes). */
export interface FoundBooking {
  orderNumber: string;
  cancelled: boolean;
  cancelledAtLocal: string | null;
  customerName: string | null;
  phone: string | null;
  participants: DeviceParticipant[];
}

/** A booking the device holds, with the departure it is on. */
export interface Searchable {
  session: DeviceSession;
  booking: FoundBooking;
  /** The code that names the whole booking, when the device knows one (checks in several at once). */
  orderCode: string | null;
}

export interface SearchResult {
  found: Searchable[];
  /** How many more matched than are listed: type more to narrow. */
  more: number;
}

/** A search starts at two characters, as the engine's does. */
export const MIN_QUERY = 2;

export function searchablesOf(copy: WindowCopy): Searchable[] {
  const rows: Searchable[] = [];
  for (const b of Object.values(copy.bookings)) {
    const session = copy.sessions[b.sessionId];
    if (!session) continue;
    const { orderNumber, customer } = b.context;
    const booking = { orderNumber, cancelled: !b.live, cancelledAtLocal: b.cancelledAtLocal, customerName: customer?.name ?? null, phone: customer?.phone ?? null, participants: b.participants };
    rows.push({ session, booking, orderCode: b.orderCodes[0] ?? null });
  }
  return rows;
}

/** Matches, soonest departure first (then by order number); live bookings before cancelled ones of the same departure. */
export function searchHeld(rows: readonly Searchable[], query: string, limit = 20): SearchResult {
  if (query.trim().length < MIN_QUERY) return { found: [], more: 0 };
  const matching = new Set(searchBookings(rows.map((r) => r.booking), query));
  const found = rows
    .filter((r) => matching.has(r.booking))
    .sort((a, b) => a.session.startTimeLocal.localeCompare(b.session.startTimeLocal) || a.session.id - b.session.id || Number(a.booking.cancelled) - Number(b.booking.cancelled) || a.booking.orderNumber.localeCompare(b.booking.orderNumber));
  return { found: found.slice(0, limit), more: Math.max(0, found.length - limit) };
}

/** A person's state as a result shows it, in words. */
export function stateOf(booking: FoundBooking, p: DeviceParticipant): { word: string; in: boolean } {
  if (p.checkin.state === 'CHECKED_IN') return { word: 'In', in: true };
  if (booking.cancelled) return { word: 'Booking cancelled', in: false };
  if (p.checkin.state === 'NO_SHOW') return { word: 'No-show', in: false };
  return { word: 'Expected', in: false };
}
