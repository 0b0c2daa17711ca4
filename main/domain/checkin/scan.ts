import type { Kysely } from 'kysely';
import type { BookingItemsTable, CheckinEventsTable, Database, RevokedCodesTable } from '../../../db/schema';
import { apiKeyNames, loadBookingRows, netPaid } from '../../../db/queries/manifest';
import { eventsOfParticipants, findEventAnswer } from '../../../db/queries/checkinEvents';
import { getBooking, itemIdsOfOrder, itemsOfOrder, participantsOfItems, productCodeOfItem } from '../../../db/queries/checkinBookings';
import { findOrderBarcode, findParticipantByBarcode, findRevokedCode } from '../../../db/queries/scans';
import type { Actor, EngineContext, Tx } from '../context';
import { blankEvent, insertEvent, type NewEventRow } from './events';
import { deriveCheckinState, stateOf } from './state';
import { DomainError } from '../errors';
import { actorLabel, bookingView, historyView, parseFields, participantName, participantView, toEvent, type ViewContext } from './manifestView';
import { attentionOf, isSessionClosed, missingFieldsOf, opensAt, requiredParticipantLabels, type OverridableRule, type ScanResult } from './scanRules';
import type { ManifestsService } from './manifests';
import { isLive } from '../statuses';
import { fromIso, toLocal } from '../time';

export { SCAN_RESULTS, type ScanResult } from './scanRules';

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
  /** Set when the code was replaced by a reissue: the scan answers CODE_REVOKED. */
  revoked: RevokedCodesTable | null;
}

async function resolveCode(db: Kysely<Database>, code: string): Promise<Resolved | null> {
  const participant = await findParticipantByBarcode(db, code);
  if (participant) return { orderNumber: participant.order_number, participantId: participant.id, itemId: participant.item_id, revoked: null };
  const order = await findOrderBarcode(db, code);
  if (order) return { orderNumber: order.order_number, participantId: null, itemId: order.item_id, revoked: null };
  const revoked = await findRevokedCode(db, code);
  if (revoked) return { orderNumber: revoked.order_number, participantId: revoked.participant_id, itemId: revoked.item_id, revoked };
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
  /** A code whose item has no session (a NO_DATE or enquiry product): the booking's context without a session. */
  async function unscheduled(tx: Tx, resolved: Resolved, store: (answer: Record<string, unknown>) => Promise<Record<string, unknown>>, base: Record<string, unknown>, scanRow: NewEventRow) {
    const booking = await getBooking(tx.db, resolved.orderNumber);
    const itemIds = resolved.itemId !== null ? [resolved.itemId] : await itemIdsOfOrder(tx.db, resolved.orderNumber);
    let participants = await participantsOfItems(tx.db, itemIds);
    if (resolved.participantId !== null) participants = participants.filter((p) => p.id === resolved.participantId);
    const reasons: string[] = [];
    if (booking.internal_notes || booking.comments || booking.reseller_comments) reasons.push('NOTE');
    if ((await netPaid(tx.db, booking.order_number)) < booking.total_amount_minor) reasons.push('UNPAID');
    if (parseFields(booking.fields_json).some((f) => f.value !== undefined && f.value !== null && String(f.value).trim() !== '')) reasons.push('SPECIAL_FIELD');
    const stored = await eventsOfParticipants(tx.db, participants.map((p) => p.id));
    // This scan is part of the history it answers (as in a scheduled scan's answer).
    const events = [...stored, { ...scanRow, result: String(base.result), api_key_id: tx.actor.keyId, recorded_at: tx.now }];
    const productCode = itemIds.length ? await productCodeOfItem(tx.db, itemIds[0]) : undefined;
    const view: ViewContext = { timezone: productCode !== undefined ? await deps.manifests.timezoneOf(tx.db, productCode) : 'UTC', keyNames: await apiKeyNames(tx.db) };
    return store({
      ...base,
      ...attentionOf(reasons, participants, []),
      participants: participants.map((p) => ({ id: p.id, position: p.position, name: participantName(parseFields(p.fields_json)), fields: parseFields(p.fields_json), barcode: p.barcode, history: historyView(events.filter((e) => e.participant_id === p.id || e.event_id === scanRow.event_id), view) })),
    });
  }

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
    const items = await itemsOfOrder(tx.db, resolved.orderNumber);
    const item = pickItem(items, resolved, input.sessionId, occurredAt);
    if (!item || item.session_id === null) {
      scanRow.order_number = resolved.orderNumber;
      const result = resolved.revoked ? 'CODE_REVOKED' : 'WRONG_SESSION';
      const message = resolved.revoked ? `Code revoked: booking ${resolved.orderNumber} has a new code` : `Booking ${resolved.orderNumber} is not for a scheduled session`;
      scanRow.participant_id = resolved.participantId;
      return unscheduled(tx, resolved, store, { eventId, result, checkedIn: false, code: input.code, orderNumber: resolved.orderNumber, belongsTo: null, overrides: [], message }, scanRow);
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
    const before = deriveCheckinState(rows.events.map(toEvent));
    const context = bookingView(resolved.orderNumber, rows, rows.items.map((i) => i.id));
    const due = context.payment;
    const fresh = targets.filter((p) => stateOf(before, p.id).status !== 'CHECKED_IN');
    const required = requiredParticipantLabels(own.product);
    const opens = opensAt(own.product, own.session.start_at);
    let belongsTo = null;

    // Rules in order; the first that applies names the result. An overridable one refuses unless
    // `override: true`, which records it; a refusal stops the evaluation.
    const overrides: OverridableRule[] = [];
    const notes: string[] = [];
    let result: ScanResult = 'CHECKED_IN';
    let refusal: string | null = null;
    let readmit = false;
    const rule = (name: ScanResult, message: string, overridable: boolean, note?: string) => {
      if (refusal) return;
      if (result === 'CHECKED_IN') result = name;
      if (overridable && input.override) {
        overrides.push(name as OverridableRule);
        if (note) notes.push(note);
      } else refusal = message;
    };

    if (resolved.revoked) {
      const at = toLocal(resolved.revoked.revoked_at, zone).slice(0, 16);
      rule('CODE_REVOKED', `Code revoked: booking ${booking.order_number} was given a new code at ${at}; scan the new code or search by name`, false);
    }
    if (!isLive(booking.status)) {
      const at = booking.cancelled_at ?? booking.updated_at;
      rule('BOOKING_CANCELLED', `Do not admit: booking ${booking.order_number} was cancelled at ${toLocal(at, zone).slice(0, 16)}`, false);
    }
    if (input.sessionId !== undefined && input.sessionId !== item.session_id) {
      belongsTo = { sessionId: own.session.id, productCode: own.product.product_code, productName: own.product.name, startTime: new Date(own.session.start_at).toISOString(), startTimeLocal: toLocal(own.session.start_at, zone) };
      rule('WRONG_SESSION', `Wrong session: this booking is for ${own.product.name} at ${belongsTo.startTimeLocal.slice(0, 16)}`, true, `override: booked for ${belongsTo.startTimeLocal.slice(0, 16)}`);
    }
    if (!refusal && (await isSessionClosed(tx.db, own.session.id))) {
      rule('CHECKIN_CLOSED', `Check-in is closed for ${own.product.name} at ${hhmm(own.session.start_at, zone)}`, true, 'override: check-in was closed');
    }
    if (opens !== null && occurredAt < opens) {
      rule('NOT_YET_OPEN', `Too early: check-in opens at ${hhmm(opens, zone)}`, true, `override: check-in opens at ${hhmm(opens, zone)}`);
    }
    if (!refusal && fresh.length === 0) {
      const first = targets.length > 0 ? stateOf(before, targets[0].id).event : undefined;
      result = 'ALREADY_CHECKED_IN';
      if (!first) refusal = `Booking ${booking.order_number} has nobody to check in`;
      else {
        const already = `Already checked in at ${hhmm(first.occurredAt, zone)} by ${actorLabel(first, view.keyNames)}`;
        rule('ALREADY_CHECKED_IN', already, true, `first checked in at ${hhmm(first.occurredAt, zone)} by ${actorLabel(first, view.keyNames)}`);
        readmit = !refusal;
      }
    }
    const admitting = readmit ? targets : fresh;
    if (!refusal && !due.paid) {
      const owed = `${due.totalDue} ${due.totalCurrency}`;
      if (own.product.checkin_requires_payment) rule('NOT_PAID', `Not checked in: ${owed} still to pay before boarding`, true, `${owed} still to pay`);
      else {
        if (result === 'CHECKED_IN') result = 'NOT_PAID';
        notes.push(`${owed} still to pay`);
      }
    }
    const missingLabels = [...new Set(admitting.flatMap((p) => missingFieldsOf(p, required)))];
    if (!refusal && missingLabels.length > 0) {
      const missing = `missing ${missingLabels.join(', ')}`;
      if (own.product.enforce_required_fields === 1) rule('INCOMPLETE', `Not checked in: ${missing}`, true, missing);
      else {
        if (result === 'CHECKED_IN') result = 'INCOMPLETE';
        notes.push(missing);
      }
    }

    const checkedIn = !refusal;
    const overrideJson = checkedIn && overrides.length ? JSON.stringify({ rules: overrides, by: tx.actor.name, apiKeyId: tx.actor.keyId, device: input.device ?? null, scannedSessionId: input.sessionId ?? null }) : null;
    scanRow.override_json = overrideJson;
    const children: CheckinEventsTable[] = refusal
      ? []
      : admitting.map((p) => ({
          ...blankEvent(`${eventId}.${p.id}`, 'CHECK_IN', occurredAt),
          session_id: item.session_id,
          order_number: resolved.orderNumber,
          participant_id: p.id,
          parent_event_id: eventId,
          device: input.device ?? null,
          result: readmit ? 'READMITTED' : 'CHECKED_IN',
          note: readmit ? 're-admission' : null,
          override_json: overrideJson,
          api_key_id: tx.actor.keyId,
          recorded_at: tx.now,
        }));
    const scanStored: CheckinEventsTable = { ...scanRow, result, api_key_id: tx.actor.keyId, recorded_at: tx.now };
    const after = deriveCheckinState([...rows.events, ...children].map(toEvent));
    const verb = readmit ? 'Re-admitted' : 'Checked in';
    let message = refusal ?? `${verb} at ${hhmm(occurredAt, zone)} by ${who}`;
    if (checkedIn && admitting.length > 1) message = `${admitting.length} ${verb.toLowerCase()} at ${hhmm(occurredAt, zone)} by ${who}`;
    if (checkedIn && notes.length) message += ` (${notes.join('; ')})`;
    const historyRows = [...rows.events, ...children, scanStored];
    const answer = {
      eventId,
      result,
      checkedIn,
      message,
      code: input.code,
      overrides: checkedIn ? overrides : [],
      belongsTo,
      ...attentionOf(context.attentionReasons, targets, required),
      missingFields: missingLabels,
      checkinOpensAtLocal: opens !== null ? toLocal(opens, zone) : null,
      revokedCode: resolved.revoked ? { code: resolved.revoked.code, revokedAtLocal: toLocal(resolved.revoked.revoked_at, zone), orderNumber: booking.order_number } : null,
      session: { id: own.session.id, productCode: own.product.product_code, productName: own.product.name, startTimeLocal: toLocal(own.session.start_at, zone) },
      booking: context,
      participants: targets.map((p) => ({
        ...participantView(p, after, view),
        missingFields: missingFieldsOf(p, required),
        history: historyView(historyRows.filter((e) => e.participant_id === p.id || e.event_id === eventId), view),
      })),
      checkedInParticipantIds: checkedIn ? admitting.map((p) => p.id) : [],
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
          const existing = await findEventAnswer(tx.db, input.eventId);
          if (existing?.kind === 'SCAN' && existing.answer_json) return JSON.parse(existing.answer_json);
          if (existing) throw new DomainError('DUPLICATE', `eventId ${input.eventId} was already used for a ${existing.kind} event`);
        }
        return scanIn(tx, input, input.eventId ?? `td-${ctx.ids.nextId()}`);
      });
    },
  };
}

export type ScannerService = ReturnType<typeof createScanner>;
