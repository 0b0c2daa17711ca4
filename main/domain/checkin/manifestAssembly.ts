import type { BookingItemsTable, BookingsTable, ParticipantsTable, ProductsTable, SessionsTable } from '../../../db/schema';
import type { EventRow, SessionRows } from '../../../db/queries/manifest';
import type { SessionResourceRow } from '../../../db/queries/departures';
import type { CancelledBooking, Manifest, ManifestBooking, ManifestConflict, ManifestSession, PickupTotals, SessionOversold } from '../../contract/manifest';
import { countStates, stateOf, type DerivedState } from './state';
import { bookingView, historyView, participantView, pickupView, type ViewContext } from './manifestView';
import { isLive } from '../statuses';
import { toIso, toLocal } from '../time';
import { formatsFor, type Formats } from '../format';

/** Pure assembly of a session's manifest from the rows the manifest loaders read. */

/** A session the manifest operations found, with its product and the timezone its times are shown in. */
export interface ResolvedSession {
  session: SessionsTable;
  product: ProductsTable;
  timezone: string;
}

/** Seats a booking's items hold, as availability counts them: Σ quantity × seatsUsed (a Family 2+2 ticket is 4). */
export const seatsOfItems = (rows: SessionRows, itemIds: readonly number[]) =>
  itemIds.reduce((sum, id) => sum + (rows.quantitiesByItem.get(id) ?? []).reduce((n, q) => n + q.value * q.seats_used, 0), 0);

export function sessionView(resolved: ResolvedSession, seatsHeld: number, closed: boolean, oversold: SessionOversold | null = null): ManifestSession {
  const { session, product, timezone } = resolved;
  return {
    id: session.id,
    productCode: session.product_code,
    productName: product.name,
    startTime: toIso(session.start_at),
    endTime: toIso(session.end_at),
    startTimeLocal: toLocal(session.start_at, timezone),
    endTimeLocal: toLocal(session.end_at, timezone),
    seats: session.seats,
    seatsAvailable: session.seats - seatsHeld,
    seatsBooked: seatsHeld,
    checkinClosed: closed,
    ticketCodes: product.qr_code_type ? (product.barcode_output_type === 'ORDER' ? 'ORDER' : 'PARTICIPANT') : null,
    oversold,
  };
}

/** Each order's item ids, orders in the rows' order (order number, then item position). */
export function itemIdsByOrder(rows: SessionRows): Map<string, number[]> {
  const itemsByOrder = new Map<string, number[]>();
  for (const item of rows.items) itemsByOrder.set(item.order_number, [...(itemsByOrder.get(item.order_number) ?? []), item.id]);
  return itemsByOrder;
}

/** Each participant's own events (check-ins, undos, no-shows, with any override), in the rows' order. */
function eventsByParticipant(events: readonly EventRow[]): Map<number, EventRow[]> {
  const byParticipant = new Map<number, EventRow[]>();
  for (const event of events) {
    if (event.participant_id === null) continue;
    const list = byParticipant.get(event.participant_id);
    if (list) list.push(event);
    else byParticipant.set(event.participant_id, [event]);
  }
  return byParticipant;
}

export interface ManifestInputs {
  resolved: ResolvedSession;
  rows: SessionRows;
  derived: DerivedState;
  view: ViewContext;
  seatsHeld: number;
  resources: SessionResourceRow[];
  /** The sync conflict on the session, if it is oversold. */
  oversold?: SessionOversold | null;
}

export function assembleManifest({ resolved, rows, derived, view, seatsHeld, resources, oversold = null }: ManifestInputs): Omit<Manifest, 'version'> {
  const historyOf = eventsByParticipant(rows.events);
  const itemById = new Map(rows.items.map((i) => [i.id, i]));
  const bookings: ManifestBooking[] = [];
  const cancelled: CancelledBooking[] = [];
  const conflicts: ManifestConflict[] = [];
  const liveParticipantIds: number[] = [];
  const pickupParticipants = new Map<string | null, number[]>();
  for (const [orderNumber, itemIds] of itemIdsByOrder(rows)) {
    const booking = rows.bookings.get(orderNumber)!;
    const participants = itemIds.flatMap((id) => rows.participantsByItem.get(id) ?? []);
    if (isLive(booking.status)) {
      bookings.push({
        ...bookingView(orderNumber, rows, itemIds),
        orderCodes: rows.orderCodesByOrder.get(orderNumber) ?? [],
        seats: seatsOfItems(rows, itemIds),
        participants: participants.map((p) => ({ ...participantView(p, derived, view), history: historyView(historyOf.get(p.id) ?? [], view) })),
      });
      liveParticipantIds.push(...participants.map((p) => p.id));
      addToPickups(pickupParticipants, rows, itemIds.map((id) => itemById.get(id)!));
    } else if (booking.status === 'CANCELLED') {
      // ABANDONED_CART never became a booking a guide expects; only CANCELLED is listed apart.
      cancelled.push({ ...cancelledEntry(booking, rows, itemIds, participants.length, resolved.timezone), participants: participants.map((p) => { const { id, position, name, checkin } = participantView(p, derived, view); return { id, position, name, checkin }; }) });
      conflicts.push(...checkedInButCancelled(booking, participants, derived, formatsFor({ locale: view.locale, timezone: resolved.timezone })));
    }
  }
  bookings.sort((a, b) => a.orderNumber.localeCompare(b.orderNumber));
  return {
    session: sessionView(resolved, seatsHeld, derived.closed, oversold),
    bookings,
    cancelled,
    conflicts,
    totals: countStates(derived, liveParticipantIds),
    pickupTotals: [...pickupParticipants].map(([locationName, ids]): PickupTotals => ({ locationName, ...countStates(derived, ids) })),
    resources: resources.map((r) => ({ id: r.id, name: r.name, resourceType: r.resource_type, seats: r.seats, resourceOrder: r.resource_order })),
  };
}

/** Each participant counts at their own item's pickup (two items of one order may start from different points). */
function addToPickups(pickupParticipants: Map<string | null, number[]>, rows: SessionRows, items: readonly BookingItemsTable[]): void {
  for (const item of items) {
    const pickupName = pickupView(item.pickup_json)?.locationName ?? null;
    const ids = (rows.participantsByItem.get(item.id) ?? []).map((p) => p.id);
    const list = pickupParticipants.get(pickupName);
    if (list) list.push(...ids);
    else pickupParticipants.set(pickupName, ids);
  }
}

const cancelledAtOf = (booking: BookingsTable) => booking.cancelled_at ?? booking.updated_at;

function cancelledEntry(booking: BookingsTable, rows: SessionRows, itemIds: number[], participantCount: number, timezone: string): Omit<CancelledBooking, 'participants'> {
  const cancelledAt = cancelledAtOf(booking);
  return {
    orderNumber: booking.order_number,
    status: booking.status,
    customer: bookingView(booking.order_number, rows, itemIds).customer,
    participantCount,
    cancelledAt: toIso(cancelledAt),
    cancelledAtLocal: toLocal(cancelledAt, timezone),
  };
}

/** Check-ins that stand on a cancelled booking: raised for the office, never dropped. */
function checkedInButCancelled(booking: BookingsTable, participants: readonly ParticipantsTable[], derived: DerivedState, formats: Formats): ManifestConflict[] {
  const cancelledAt = formats.dateTime(cancelledAtOf(booking));
  const conflicts: ManifestConflict[] = [];
  for (const p of participants) {
    const state = stateOf(derived, p.id);
    if (state.status !== 'CHECKED_IN' || !state.event) continue;
    const checkedAt = formats.time(state.event.occurredAt);
    conflicts.push({
      kind: 'CHECKED_IN_BUT_CANCELLED',
      orderNumber: booking.order_number,
      participantId: p.id,
      eventId: state.event.eventId,
      message: `Checked in at ${checkedAt}, but the booking was cancelled at ${cancelledAt}`,
    });
  }
  return conflicts;
}
