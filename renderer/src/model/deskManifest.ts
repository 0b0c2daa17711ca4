import type { CheckinEventBody, Counts, EventOverridableRule, Manifest, ManifestBooking, ManifestParticipant, ParticipantCheckin } from '../api/types';
import { buildIndex, decide, nameOf } from '../scanner/verdict';
import { localStamp } from '../scanner/pending';
import { bookingKey, emptyCopy } from '../scanner/copies';
import { recordedCheckin, type RecordedCheckin } from '../api/answers';
import { formats } from '../lib/formats';

/**
 * The desk manifest's pure logic: the engine's copy with this desk's own events laid over it
 * (queued or just answered), the rule a tap would break, the rows the list shows and the search.
 */

/** A person as the desk lists them: a live booking's participant, or a cancelled booking's (who has no code). */
export type DeskParticipant = Pick<ManifestParticipant, 'id' | 'position' | 'name' | 'barcode' | 'checkin'>;

/** A booking as the desk lists it: live ones from `bookings`, cancelled ones marked, with their people. */
export interface DeskBooking {
  orderNumber: string;
  cancelled: boolean;
  cancelledAtLocal: string | null;
  customerName: string | null;
  phone: string | null;
  live: ManifestBooking | null;
  participants: DeskParticipant[];
}

export function deskBookings(manifest: Manifest): DeskBooking[] {
  const live = manifest.bookings.map((b) => ({ orderNumber: b.orderNumber, cancelled: false, cancelledAtLocal: null, customerName: b.customer?.name ?? null, phone: b.customer?.phone ?? null, live: b, participants: b.participants }));
  const cancelled = manifest.cancelled.map((c) => ({
    orderNumber: c.orderNumber,
    cancelled: true,
    cancelledAtLocal: c.cancelledAtLocal,
    customerName: c.customer?.name ?? null,
    phone: c.customer?.phone ?? null,
    live: null,
    participants: (c.participants ?? []).map((p) => ({ ...p, barcode: null })),
  }));
  return [...live, ...cancelled];
}

/** A rule a check-in by hand would break, named for the deliberate second action ("Admit anyway …"). */
export interface Refusal {
  rule: EventOverridableRule;
  /** Why, in words a desk clerk reads ("Booking T1-00012 is cancelled"). */
  reason: string;
  /** The second action's label. */
  action: string;
}

/**
 * Why checking these people in by hand needs an override, or null: the scanner's own verdict
 * (one rule set: check-in closed, unpaid), plus a cancelled booking, which the scanner never sees.
 */
export function refusalOf(manifest: Manifest, booking: DeskBooking, participantIds: readonly number[]): Refusal | null {
  if (booking.cancelled) return { rule: 'BOOKING_CANCELLED', reason: `Booking ${booking.orderNumber} was cancelled${booking.cancelledAtLocal ? ` at ${formats().dateTime(booking.cancelledAtLocal)}` : ''}`, action: 'Admit anyway (booking cancelled)' };
  if (!booking.live || participantIds.length === 0) return null;
  // The scanner decides a code; here each person is a "code" of their own, decided against this one session.
  // The manifest names no product settings: the copy holds none, and the rules weigh them the strict way (the engine's answer corrects).
  const { participants, orderCodes: _codes, seats, ...context } = booking.live;
  const entry = { sessionId: manifest.session.id, context, seats, live: true, cancelledAtLocal: null, orderCodes: [], revokedCodes: [], participants: participants.map((p) => ({ id: p.id, position: p.position, name: p.name, checkin: p.checkin, missing: [], barcode: participantIds.includes(p.id) ? `#desk-${p.id}` : null })) };
  const copy = { ...emptyCopy('', ''), sessions: { [manifest.session.id]: manifest.session }, bookings: { [bookingKey(entry)]: entry } };
  const code = `#desk-${participantIds[0]}`;
  const verdict = decide({ code, copy, index: buildIndex(copy), sessionFilter: manifest.session.id, now: 0 });
  if (!verdict.override || verdict.kind === 'ALREADY_CHECKED_IN') return null;
  return { rule: verdict.override.rule, reason: verdict.message, action: verdict.override.label };
}

const implied = (closed: boolean): ParticipantCheckin => ({ state: closed ? 'NO_SHOW' : 'EXPECTED' });
/** Whether an undo of `eventId` takes back this check-in: its own event, or one of a scan's per-person events (`<scan>.<participant>`). */
const undoes = (eventId: string, checkin: RecordedCheckin | null) => checkin !== null && (checkin.eventId === eventId || checkin.eventId.startsWith(`${eventId}.`));

/**
 * The manifest after events this desk made (queued, or answered and not yet in a fetched copy):
 * the same derivation the engine makes, for the participants and totals the desk shows.
 */
export function applyEvents(manifest: Manifest, events: readonly CheckinEventBody[]): Manifest {
  const mine = events.filter((e) => e.sessionId === manifest.session.id);
  if (!mine.length) return manifest;
  let closed = manifest.session.checkinClosed;
  for (const e of mine) if (e.kind === 'CLOSE') closed = true;
  else if (e.kind === 'REOPEN') closed = false;
  // The session's own offset from UTC (its local start minus its instant), so times read as the engine writes them.
  const offsetMs = Date.parse(`${manifest.session.startTimeLocal.replace(' ', 'T')}Z`) - Date.parse(manifest.session.startTime);
  const localOf = (iso: string) => (Number.isFinite(offsetMs) ? new Date(Date.parse(iso) + offsetMs).toISOString().replace('T', ' ').slice(0, 19) : localStamp(new Date(iso)));
  const stamp = (e: CheckinEventBody): RecordedCheckin => ({ state: e.kind === 'NO_SHOW' ? 'NO_SHOW' : 'CHECKED_IN', at: e.occurredAt, atLocal: localOf(e.occurredAt), by: null, device: e.device ?? null, eventId: e.eventId });
  const update = <P extends DeskParticipant>(p: P): P => {
    let checkin = p.checkin;
    // A no-show only implied by closing follows the session's state.
    if (!recordedCheckin(checkin) && checkin.state !== 'CHECKED_IN') checkin = implied(closed);
    for (const e of mine) {
      if (e.kind === 'CHECK_IN' && e.participantId === p.id && checkin.state !== 'CHECKED_IN') checkin = stamp(e);
      else if (e.kind === 'NO_SHOW' && e.participantId === p.id && checkin.state === 'EXPECTED') checkin = stamp(e);
      else if (e.kind === 'UNDO' && e.undoesEventId && undoes(e.undoesEventId, recordedCheckin(checkin))) checkin = implied(closed);
    }
    return checkin === p.checkin ? p : { ...p, checkin };
  };
  const bookings = manifest.bookings.map((b) => ({ ...b, participants: b.participants.map(update) }));
  const cancelled = manifest.cancelled.map((c) => (c.participants ? { ...c, participants: c.participants.map((p) => update({ ...p, barcode: null })) } : c));
  return { ...manifest, session: { ...manifest.session, checkinClosed: closed }, bookings, cancelled, totals: totalsOf(bookings) };
}

function totalsOf(bookings: readonly ManifestBooking[]): Counts {
  let booked = 0;
  let checkedIn = 0;
  let noShow = 0;
  for (const b of bookings)
    for (const p of b.participants) {
      booked++;
      if (p.checkin.state === 'CHECKED_IN') checkedIn++;
      else if (p.checkin.state === 'NO_SHOW') noShow++;
    }
  return { booked, checkedIn, noShow, remaining: booked - checkedIn - noShow };
}

/** Lower case without accents, for search as you type. */
const fold = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
const digits = (text: string) => text.replace(/\D/g, '');

/** Bookings matching a name (customer or participant), an order number or a phone (digits compared). */
export function searchBookings<B extends Pick<DeskBooking, 'orderNumber' | 'customerName' | 'phone'> & { participants: readonly { name: string | null }[] }>(bookings: readonly B[], query: string): B[] {
  const q = fold(query.trim());
  if (!q) return [...bookings];
  // A national number (0400 …) matches its international form (+61 400 …): leading zeros are dropped.
  const qDigits = digits(q).replace(/^0+/, '');
  return bookings.filter(
    (b) =>
      fold(b.orderNumber).includes(q) ||
      (b.customerName !== null && fold(b.customerName).includes(q)) ||
      (qDigits.length >= 3 && b.phone !== null && digits(b.phone).includes(qDigits)) ||
      b.participants.some((p) => p.name !== null && fold(p.name).includes(q)),
  );
}

/** One line of the virtualised list: a booking's header, one of its people, or a pickup stop's heading. */
export type ManifestRow =
  | { kind: 'booking'; key: string; booking: DeskBooking }
  | { kind: 'person'; key: string; booking: DeskBooking; participant: DeskParticipant }
  | { kind: 'stop'; key: string; title: string; counts: string };

export function rowsOf(bookings: readonly DeskBooking[]): ManifestRow[] {
  const rows: ManifestRow[] = [];
  for (const booking of bookings) {
    rows.push({ kind: 'booking', key: `b-${booking.orderNumber}`, booking });
    for (const participant of booking.participants) rows.push({ kind: 'person', key: `p-${participant.id}`, booking, participant });
  }
  return rows;
}

export const personName = (p: { name: string | null; position: number }) => nameOf(p);
