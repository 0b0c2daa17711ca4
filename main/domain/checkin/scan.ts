import type { Kysely } from 'kysely';
import type { BookingItemsTable, CheckinEventsTable, Database, ParticipantsTable, RevokedCodesTable } from '../../../db/schema';
import { loadBookingRows, netPaid, type SessionRows } from '../../../db/queries/manifest';
import { eventsOfParticipants, findEventAnswer } from '../../../db/queries/checkinEvents';
import { getBooking, itemIdsOfOrder, itemsOfOrder, participantsOfItems, productCodeOfItem } from '../../../db/queries/checkinBookings';
import { findOrderBarcode, findParticipantByBarcode, findRevokedCode } from '../../../db/queries/scans';
import type { AttentionReason, ScanAnswer, SessionScan, UnknownCodeScan, UnscheduledScan } from '../../contract/manifest';
import type { Actor, EngineContext, Tx } from '../context';
import { blankEvent, insertEvent, type NewEventRow } from './events';
import { deriveCheckinState, stateOf } from './state';
import { DomainError } from '../errors';
import { bookingView, historyView, parseFields, participantName, participantView, toEvent, type ViewContext } from './manifestView';
import { attentionOf, isSessionClosed, missingFieldsOf, opensAt, requiredParticipantLabels } from './scanRules';
import { decideScan, type ScanDecision } from './scanDecision';
import { codeCandidates } from './scanOutcome';
import type { ManifestsService, ResolvedSession } from './manifests';
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
  /** The day (YYYY-MM-DD, local) whose departures the scan is for: another day's booking is a wrong session. */
  day?: string;
}

interface Resolved {
  orderNumber: string;
  participantId: number | null;
  itemId: number | null;
  /** Set when the code was replaced by a reissue: the scan answers CODE_REVOKED. */
  revoked: RevokedCodesTable | null;
}

/**
 * A participant's code first, then an order's, then a code a reissue revoked. A code typed by hand
 * from a ticket in lower case finds the upper-case code it spells (TourDesk's codes are upper case;
 * an imported code that differs from another only in case is still found exactly).
 */
async function resolveCode(db: Kysely<Database>, code: string): Promise<Resolved | null> {
  for (const candidate of codeCandidates(code)) {
    const resolved = await resolveExactCode(db, candidate);
    if (resolved) return resolved;
  }
  return null;
}

async function resolveExactCode(db: Kysely<Database>, code: string): Promise<Resolved | null> {
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

/** Whom the scan is about, by id: the code's participant, or those the guide picked of the order's; undefined: all of the order's. */
function targetIds(resolved: Resolved, picked: number[] | undefined): number[] | undefined {
  if (resolved.participantId !== null) return [resolved.participantId];
  return picked?.length ? picked : undefined;
}

/** Whom the scan is about: the code's participant, or the order's (all, or those the guide picked). */
function scanTargets(rows: SessionRows, resolved: Resolved, picked: number[] | undefined): ParticipantsTable[] {
  const all = rows.items.flatMap((i) => rows.participantsByItem.get(i.id) ?? []);
  const ids = targetIds(resolved, picked);
  if (ids === undefined) return all;
  const unknown = ids.filter((id) => !all.some((p) => p.id === id));
  if (resolved.participantId === null && unknown.length) throw new DomainError('VALIDATION_ERROR', `participantIds ${unknown.join(', ')} are not participants of ${resolved.orderNumber} in this session`);
  return all.filter((p) => ids.includes(p.id));
}

const hhmm = (ms: number, zone: string) => toLocal(ms, zone).slice(11, 16);

/** The sentence a guide reads aloud: the refusal, or who was admitted when and by whom, with any notes. */
function scanMessage(decision: ScanDecision, occurredAt: number, zone: string, who: string): string {
  if (decision.refusal) return decision.refusal;
  const verb = decision.readmit ? 'Re-admitted' : 'Checked in';
  const when = `at ${hhmm(occurredAt, zone)} by ${who}`;
  let message = decision.admitting.length > 1 ? `${decision.admitting.length} ${verb.toLowerCase()} ${when}` : `${verb} ${when}`;
  if (decision.notes.length) message += ` (${decision.notes.join('; ')})`;
  return message;
}

/** The booking's own attention reasons, for an item without a session (no manifest rows to read them from). */
async function unscheduledAttention(db: Kysely<Database>, orderNumber: string) {
  const booking = await getBooking(db, orderNumber);
  const reasons: AttentionReason[] = [];
  if (booking.internal_notes || booking.comments || booking.reseller_comments) reasons.push('NOTE');
  if ((await netPaid(db, booking.order_number)) < booking.total_amount_minor) reasons.push('UNPAID');
  if (parseFields(booking.fields_json).some((f) => f.value !== undefined && f.value !== null && String(f.value).trim() !== '')) reasons.push('SPECIAL_FIELD');
  return reasons;
}

/** One scan being answered: its SCAN row (filled in as the code resolves) and how it is stored with its answer. */
class ScanRecord {
  readonly row: NewEventRow;

  constructor(
    private readonly tx: Tx,
    readonly input: ScanInput,
    readonly eventId: string,
    readonly occurredAt: number,
  ) {
    this.row = { ...blankEvent(eventId, 'SCAN', occurredAt), code: input.code, device: input.device ?? null, session_id: input.sessionId ?? null };
  }

  /** The SCAN row as it will be stored with `result`: part of the history its own answer shows. */
  stored(result: string): CheckinEventsTable {
    return { ...this.row, result, api_key_id: this.tx.actor.keyId, recorded_at: this.tx.now };
  }

  /** Stores the SCAN row with its answer (a resend answers it again), then the check-ins it made. */
  async store<A extends ScanAnswer>(answer: A, children: NewEventRow[] = []): Promise<A> {
    await insertEvent(this.tx, { ...this.row, result: String(answer.result), answer_json: JSON.stringify(answer) });
    for (const child of children) await insertEvent(this.tx, child);
    return answer;
  }
}

export function createScanner(ctx: EngineContext, deps: { manifests: ManifestsService }) {
  async function scanIn(tx: Tx, input: ScanInput, eventId: string): Promise<ScanAnswer> {
    const occurredAt = input.occurredAt ? fromIso(input.occurredAt, 'occurredAt') : tx.now;
    const scan = new ScanRecord(tx, input, eventId, occurredAt);
    const resolved = await resolveCode(tx.db, input.code);
    if (!resolved) {
      const answer: UnknownCodeScan = { eventId, result: 'UNKNOWN_CODE', checkedIn: false, code: input.code, message: 'Unknown code: no booking has this code. Check the code, or find the booking by name or order number on the manifest.' };
      return scan.store(answer);
    }
    const item = pickItem(await itemsOfOrder(tx.db, resolved.orderNumber), resolved, input.sessionId, occurredAt);
    if (!item || item.session_id === null) return scanUnscheduled(tx, scan, resolved);
    return scanScheduled(tx, scan, resolved, item.session_id);
  }

  /** A code whose item has no session (a NO_DATE or enquiry product), or a revoked one: the booking's context without a session. */
  async function scanUnscheduled(tx: Tx, scan: ScanRecord, resolved: Resolved): Promise<UnscheduledScan> {
    scan.row.order_number = resolved.orderNumber;
    scan.row.participant_id = resolved.participantId;
    const result = resolved.revoked ? 'CODE_REVOKED' : 'WRONG_SESSION';
    const message = resolved.revoked ? `Code revoked: booking ${resolved.orderNumber} has a new code` : `Booking ${resolved.orderNumber} is not for a scheduled session`;
    const reasons = await unscheduledAttention(tx.db, resolved.orderNumber);
    const itemIds = resolved.itemId !== null ? [resolved.itemId] : await itemIdsOfOrder(tx.db, resolved.orderNumber);
    let participants = await participantsOfItems(tx.db, itemIds);
    if (resolved.participantId !== null) participants = participants.filter((p) => p.id === resolved.participantId);
    const stored = await eventsOfParticipants(tx.db, participants.map((p) => p.id));
    // This scan is part of the history it answers (as in a scheduled scan's answer).
    const events = [...stored, scan.stored(result)];
    const productCode = itemIds.length ? await productCodeOfItem(tx.db, itemIds[0]) : undefined;
    const view: ViewContext = { timezone: productCode !== undefined ? await deps.manifests.timezoneOf(tx.db, productCode) : 'UTC', keyNames: await deps.manifests.keyNames(tx.db) };
    return scan.store({
      eventId: scan.eventId,
      result,
      checkedIn: false,
      code: scan.input.code,
      orderNumber: resolved.orderNumber,
      belongsTo: null,
      overrides: [],
      message,
      ...attentionOf(reasons, participants, []),
      participants: participants.map((p) => ({
        id: p.id,
        position: p.position,
        name: participantName(parseFields(p.fields_json)),
        fields: parseFields(p.fields_json),
        barcode: p.barcode,
        history: historyView(events.filter((e) => e.participant_id === p.id || e.event_id === scan.eventId), view),
      })),
    });
  }

  /** A code of a scheduled booking: read its session's rows, decide, store the scan and the check-ins it made. */
  async function scanScheduled(tx: Tx, scan: ScanRecord, resolved: Resolved, sessionId: number): Promise<SessionScan> {
    const { input, eventId, occurredAt } = scan;
    const own = await deps.manifests.resolveSession(tx.db, { sessionId });
    // Only the targets' events: the decision and the answer are about them alone.
    const rows = await loadBookingRows(tx.db, resolved.orderNumber, sessionId, targetIds(resolved, input.participantIds));
    const booking = rows.bookings.get(resolved.orderNumber)!;
    const targets = scanTargets(rows, resolved, input.participantIds);
    scan.row.session_id = sessionId;
    scan.row.order_number = resolved.orderNumber;
    scan.row.participant_id = resolved.participantId;

    const view: ViewContext = { timezone: own.timezone, keyNames: await deps.manifests.keyNames(tx.db) };
    const before = deriveCheckinState(rows.events.map(toEvent));
    const context = bookingView(resolved.orderNumber, rows, rows.items.map((i) => i.id));
    const required = requiredParticipantLabels(own.product);
    const opens = opensAt(own.product, own.session.start_at);
    const decision = await decideScan({
      override: input.override === true,
      scannedSessionId: input.sessionId,
      scannedDay: input.day,
      own,
      booking,
      revoked: resolved.revoked,
      occurredAt,
      opens,
      targets,
      fresh: targets.filter((p) => stateOf(before, p.id).status !== 'CHECKED_IN'),
      before,
      keyNames: view.keyNames,
      payment: context.payment,
      required,
      isClosed: () => isSessionClosed(tx.db, own.session.id),
    });

    const checkedIn = !decision.refusal;
    scan.row.override_json = checkedIn && decision.overrides.length ? JSON.stringify({ rules: decision.overrides, by: tx.actor.name, apiKeyId: tx.actor.keyId, device: input.device ?? null, scannedSessionId: input.sessionId ?? null }) : null;
    const children = checkedIn ? checkInEvents(tx, scan, resolved, sessionId, decision) : [];
    const after = deriveCheckinState([...rows.events, ...children].map(toEvent));
    const historyRows = [...rows.events, ...children, scan.stored(decision.result)];
    const answer: SessionScan = {
      eventId,
      result: decision.result,
      checkedIn,
      message: scanMessage(decision, occurredAt, own.timezone, input.device ?? tx.actor.name),
      code: input.code,
      overrides: checkedIn ? decision.overrides : [],
      belongsTo: decision.belongsTo,
      ...attentionOf(context.attentionReasons, targets, required),
      missingFields: decision.missingLabels,
      checkinOpensAtLocal: opens !== null ? toLocal(opens, own.timezone) : null,
      revokedCode: resolved.revoked ? { code: resolved.revoked.code, revokedAtLocal: toLocal(resolved.revoked.revoked_at, own.timezone), orderNumber: booking.order_number } : null,
      session: sessionSummary(own),
      booking: context,
      participants: targets.map((p) => ({
        ...participantView(p, after, view),
        missingFields: missingFieldsOf(p, required),
        history: historyView(historyRows.filter((e) => e.participant_id === p.id || e.event_id === eventId), view),
      })),
      checkedInParticipantIds: checkedIn ? decision.admitting.map((p) => p.id) : [],
    };
    return scan.store(answer, children.map(({ api_key_id: _k, recorded_at: _r, ...child }) => child));
  }

  /** One CHECK_IN per admitted participant, children of the scan (an UNDO of the scan undoes them all). */
  function checkInEvents(tx: Tx, scan: ScanRecord, resolved: Resolved, sessionId: number, decision: ScanDecision): CheckinEventsTable[] {
    return decision.admitting.map((p) => ({
      ...blankEvent(`${scan.eventId}.${p.id}`, 'CHECK_IN', scan.occurredAt),
      session_id: sessionId,
      order_number: resolved.orderNumber,
      participant_id: p.id,
      parent_event_id: scan.eventId,
      device: scan.input.device ?? null,
      result: decision.readmit ? 'READMITTED' : 'CHECKED_IN',
      note: decision.readmit ? 're-admission' : null,
      override_json: scan.row.override_json,
      api_key_id: tx.actor.keyId,
      recorded_at: tx.now,
    }));
  }

  return {
    /**
     * Resolves a participant or order code and checks it in, answering the decision, a sentence
     * to read aloud and the booking context. Every scan is stored as a SCAN event (refused ones
     * too); a resent eventId answers its first answer and changes nothing.
     */
    async scan(actor: Actor, input: ScanInput): Promise<ScanAnswer> {
      // Read before the write lock, where it can be kept for the next scans (answered from memory inside).
      await deps.manifests.keyNames(ctx.db);
      return ctx.write(actor, async (tx) => {
        if (input.eventId) {
          const existing = await findEventAnswer(tx.db, input.eventId);
          if (existing?.kind === 'SCAN' && existing.answer_json) return JSON.parse(existing.answer_json) as ScanAnswer;
          if (existing) throw new DomainError('DUPLICATE', `eventId ${input.eventId} was already used for a ${existing.kind} event`);
        }
        return scanIn(tx, input, input.eventId ?? `td-${ctx.ids.nextId()}`);
      });
    },
  };
}

const sessionSummary = ({ session, product, timezone }: ResolvedSession): SessionScan['session'] => ({
  id: session.id,
  productCode: product.product_code,
  productName: product.name,
  startTimeLocal: toLocal(session.start_at, timezone),
});

export type ScannerService = ReturnType<typeof createScanner>;
