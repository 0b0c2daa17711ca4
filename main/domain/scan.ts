import type { Kysely } from 'kysely';
import type { BookingItemsTable, CheckinEventsTable, Database } from '../../db/schema';
import { apiKeyNames, loadBookingRows } from '../../db/queries/manifest';
import type { Actor, EngineContext, Tx } from './context';
import { blankEvent, insertEvent, type NewEventRow } from './checkin';
import { deriveCheckinState, stateOf } from './checkinState';
import { DomainError } from './errors';
import { actorLabel, bookingView, historyView, participantView, toEvent, type ViewContext } from './manifestView';
import type { ManifestsService } from './manifests';
import { isLive } from './statuses';
import { fromIso, toLocal } from './time';

export const SCAN_RESULTS = ['CHECKED_IN', 'ALREADY_CHECKED_IN', 'WRONG_SESSION', 'BOOKING_CANCELLED', 'NOT_PAID', 'UNKNOWN_CODE'] as const;
export type ScanResult = (typeof SCAN_RESULTS)[number];

export interface ScanInput {
  code: string;
  sessionId?: number;
  eventId?: string;
  occurredAt?: string;
  device?: string;
  override?: boolean;
  participantIds?: number[];
}

interface Resolved {
  orderNumber: string;
  participantId: number | null;
  itemId: number | null;
}

async function resolveCode(db: Kysely<Database>, code: string): Promise<Resolved | null> {
  const participant = await db
    .selectFrom('participants')
    .innerJoin('booking_items', 'booking_items.id', 'participants.item_id')
    .select(['participants.id', 'participants.item_id', 'booking_items.order_number'])
    .where('participants.barcode', '=', code)
    .executeTakeFirst();
  if (participant) return { orderNumber: participant.order_number, participantId: participant.id, itemId: participant.item_id };
  const order = await db.selectFrom('order_barcodes').selectAll().where('code', '=', code).executeTakeFirst();
  if (order) return { orderNumber: order.order_number, participantId: null, itemId: order.item_id };
  return null;
}

/** For an order code: the item in the scanned session, else the one the code names, else the one starting nearest the scan. */
function pickItem(items: BookingItemsTable[], resolved: Resolved, sessionId: number | undefined, at: number): BookingItemsTable | undefined {
  // A participant's code belongs to its own item, scheduled or not.
  if (resolved.participantId !== null) return items.find((i) => i.id === resolved.itemId);
  const scheduled = items.filter((i) => i.session_id !== null);
  return (
    scheduled.find((i) => sessionId !== undefined && i.session_id === sessionId) ??
    scheduled.find((i) => i.id === resolved.itemId) ??
    [...scheduled].sort((a, b) => Math.abs(a.start_at - at) - Math.abs(b.start_at - at))[0]
  );
}

const hhmm = (ms: number, zone: string) => toLocal(ms, zone).slice(11, 16);

export function createScanner(ctx: EngineContext, deps: { manifests: ManifestsService }) {
  async function scanIn(tx: Tx, input: ScanInput, eventId: string) {
    const occurredAt = input.occurredAt ? fromIso(input.occurredAt, 'occurredAt') : tx.now;
    const scanRow: NewEventRow = { ...blankEvent(eventId, 'SCAN', occurredAt), code: input.code, device: input.device ?? null, session_id: input.sessionId ?? null };
    const store = async (answer: Record<string, unknown>, children: NewEventRow[] = []) => {
      await insertEvent(tx, { ...scanRow, result: String(answer.result), answer_json: JSON.stringify(answer) });
      for (const child of children) await insertEvent(tx, child);
      return answer;
    };

    const resolved = await resolveCode(tx.db, input.code);
    if (!resolved) {
      return store({ eventId, result: 'UNKNOWN_CODE', checkedIn: false, code: input.code, message: 'Unknown code: no booking has this code. Search by name or order number.' });
    }
    const items = await tx.db.selectFrom('booking_items').selectAll().where('order_number', '=', resolved.orderNumber).execute();
    const item = pickItem(items, resolved, input.sessionId, occurredAt);
    if (!item || item.session_id === null) {
      return store({ eventId, result: 'WRONG_SESSION', checkedIn: false, code: input.code, orderNumber: resolved.orderNumber, belongsTo: null, message: `Booking ${resolved.orderNumber} is not for a scheduled session` });
    }
    const own = await deps.manifests.resolveSession(tx.db, { sessionId: item.session_id });
    const zone = own.timezone;
    const rows = await loadBookingRows(tx.db, resolved.orderNumber, item.session_id);
    const booking = rows.bookings.get(resolved.orderNumber)!;
    const allParticipants = rows.items.flatMap((i) => rows.participantsByItem.get(i.id) ?? []);
    let targets = resolved.participantId !== null ? allParticipants.filter((p) => p.id === resolved.participantId) : allParticipants;
    if (resolved.participantId === null && input.participantIds?.length) {
      const unknown = input.participantIds.filter((id) => !allParticipants.some((p) => p.id === id));
      if (unknown.length) throw new DomainError('VALIDATION_ERROR', `participantIds ${unknown.join(', ')} are not participants of ${resolved.orderNumber} in this session`);
      targets = allParticipants.filter((p) => input.participantIds!.includes(p.id));
    }
    scanRow.session_id = item.session_id;
    scanRow.order_number = resolved.orderNumber;
    scanRow.participant_id = resolved.participantId;

    const view: ViewContext = { timezone: zone, keyNames: await apiKeyNames(tx.db) };
    const who = input.device ?? tx.actor.name;
    const overrides: string[] = [];
    let result: ScanResult = 'CHECKED_IN';
    let refusal: string | null = null;
    const before = deriveCheckinState(rows.events.map(toEvent));
    const due = bookingView(resolved.orderNumber, rows, rows.items.map((i) => i.id)).payment;
    const fresh = targets.filter((p) => stateOf(before, p.id).status !== 'CHECKED_IN');
    let belongsTo = null;

    if (!isLive(booking.status)) {
      result = 'BOOKING_CANCELLED';
      const at = booking.cancelled_at ?? booking.updated_at;
      refusal = `Do not admit: booking ${booking.order_number} was cancelled at ${toLocal(at, zone).slice(0, 16)}`;
    } else if (input.sessionId !== undefined && input.sessionId !== item.session_id) {
      result = 'WRONG_SESSION';
      belongsTo = { sessionId: own.session.id, productCode: own.product.product_code, productName: own.product.name, startTime: new Date(own.session.start_at).toISOString(), startTimeLocal: toLocal(own.session.start_at, zone) };
      if (input.override) overrides.push('WRONG_SESSION');
      else refusal = `Wrong session: this booking is for ${own.product.name} at ${belongsTo.startTimeLocal.slice(0, 16)}`;
    }
    if (!refusal && fresh.length === 0) {
      result = 'ALREADY_CHECKED_IN';
      const first = targets.length > 0 ? stateOf(before, targets[0].id).event : undefined;
      refusal = first ? `Already checked in at ${hhmm(first.occurredAt, zone)} by ${actorLabel(first, view.keyNames)}` : `Booking ${booking.order_number} has nobody to check in`;
    }
    if (!refusal && !due.paid) {
      if (result === 'CHECKED_IN') result = 'NOT_PAID';
      const owed = `${due.totalDue} ${due.totalCurrency}`;
      if (own.product.checkin_requires_payment && !input.override) refusal = `Not checked in: ${owed} still to pay before boarding`;
      else if (own.product.checkin_requires_payment) overrides.push('NOT_PAID');
    }

    const overrideJson = overrides.length ? JSON.stringify({ rules: overrides, by: tx.actor.name, apiKeyId: tx.actor.keyId, scannedSessionId: input.sessionId ?? null }) : null;
    scanRow.override_json = overrideJson;
    const children: CheckinEventsTable[] = refusal
      ? []
      : fresh.map((p) => ({
          ...blankEvent(`${eventId}.${p.id}`, 'CHECK_IN', occurredAt),
          session_id: item.session_id,
          order_number: resolved.orderNumber,
          participant_id: p.id,
          parent_event_id: eventId,
          device: input.device ?? null,
          result: 'CHECKED_IN',
          override_json: overrideJson,
          api_key_id: tx.actor.keyId,
          recorded_at: tx.now,
        }));
    const scanStored: CheckinEventsTable = { ...scanRow, result, api_key_id: tx.actor.keyId, recorded_at: tx.now };
    const after = deriveCheckinState([...rows.events, ...children].map(toEvent));
    const checkedIn = !refusal;
    let message = refusal ?? `Checked in at ${hhmm(occurredAt, zone)} by ${who}`;
    if (checkedIn && fresh.length > 1) message = `${fresh.length} checked in at ${hhmm(occurredAt, zone)} by ${who}`;
    if (checkedIn && result === 'NOT_PAID') message += `; ${due.totalDue} ${due.totalCurrency} still to pay`;
    if (checkedIn && overrides.includes('WRONG_SESSION')) message += ` (override: booked for ${belongsTo!.startTimeLocal.slice(0, 16)})`;
    const historyRows = [...rows.events, ...children, scanStored];
    const answer = {
      eventId,
      result,
      checkedIn,
      message,
      code: input.code,
      overrides,
      belongsTo,
      session: { id: own.session.id, productCode: own.product.product_code, productName: own.product.name, startTimeLocal: toLocal(own.session.start_at, zone) },
      booking: bookingView(resolved.orderNumber, rows, rows.items.map((i) => i.id)),
      participants: targets.map((p) => ({
        ...participantView(p, after, view),
        history: historyView(historyRows.filter((e) => e.participant_id === p.id || e.event_id === eventId), view),
      })),
      checkedInParticipantIds: checkedIn ? fresh.map((p) => p.id) : [],
    };
    return store(answer, children.map(({ api_key_id: _k, recorded_at: _r, ...child }) => child));
  }

  return {
    /**
     * Resolves a participant or order code and checks it in, answering the decision, a sentence
     * to read aloud and the booking context. Every scan is stored as a SCAN event (refused ones
     * too); a resent eventId answers its first answer and changes nothing.
     */
    async scan(actor: Actor, input: ScanInput) {
      return ctx.write(actor, async (tx) => {
        if (input.eventId) {
          const existing = await tx.db.selectFrom('checkin_events').select(['kind', 'answer_json']).where('event_id', '=', input.eventId).executeTakeFirst();
          if (existing?.kind === 'SCAN' && existing.answer_json) return JSON.parse(existing.answer_json);
          if (existing) throw new DomainError('DUPLICATE', `eventId ${input.eventId} was already used for a ${existing.kind} event`);
        }
        return scanIn(tx, input, input.eventId ?? `td-${ctx.ids.nextId()}`);
      });
    },
  };
}

export type ScannerService = ReturnType<typeof createScanner>;
