import type { CheckinEventsTable } from '../../../db/schema';
import { loadBookingRows } from '../../../db/queries/manifest';
import type { SessionScan } from '../../contract/manifest';
import type { Tx } from '../context';
import { blankEvent, signedEvent } from './events';
import { deriveCheckinState, stateOf } from './state';
import { bookingView, historyView, participantView, toEvent, type ViewContext } from './manifestView';
import { attentionOf, isSessionClosed, missingFieldsOf, opensAt, requiredParticipantLabels } from './scanRules';
import { decideScan, type ScanDecision } from './scanDecision';
import type { ManifestsService, ResolvedSession } from './manifests';
import { scanTargets, targetIds, type ResolvedCode } from './scanCodes';
import type { ScanRecord } from './scanRecord';
import { toLocal } from '../time';
import { formatsFor } from '../format';

/** The sentence a guide reads aloud: the refusal, or who was admitted when (as the company's locale reads a time) and by whom, with any notes. */
function scanMessage(decision: ScanDecision, occurredAt: number, at: { timezone: string; locale: string | null }, who: string): string {
  if (decision.refusal) return decision.refusal;
  const verb = decision.readmit ? 'Re-admitted' : 'Checked in';
  const when = `at ${formatsFor(at).time(occurredAt)} by ${who}`;
  let message = decision.admitting.length > 1 ? `${decision.admitting.length} ${verb.toLowerCase()} ${when}` : `${verb} ${when}`;
  if (decision.notes.length) message += ` (${decision.notes.join('; ')})`;
  return message;
}

/** A code of a scheduled booking: read its session's rows, decide, store the scan and the check-ins it made. */
export async function scanScheduled(tx: Tx, manifests: ManifestsService, scan: ScanRecord, resolved: ResolvedCode, sessionId: number, locale: string | null): Promise<SessionScan> {
  const { input, eventId, occurredAt } = scan;
  const own = await manifests.resolveSession(tx.db, { sessionId });
  // Only the targets' events: the decision and the answer are about them alone.
  const rows = await loadBookingRows(tx.db, resolved.orderNumber, sessionId, targetIds(resolved, input.participantIds));
  const booking = rows.bookings.get(resolved.orderNumber)!;
  const targets = scanTargets(rows, resolved, input.participantIds);
  scan.row.session_id = sessionId;
  scan.row.order_number = resolved.orderNumber;
  scan.row.participant_id = resolved.participantId;

  const view: ViewContext = { timezone: own.timezone, keyNames: await manifests.keyNames(tx.db) };
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
    locale,
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
    message: scanMessage(decision, occurredAt, { timezone: own.timezone, locale }, input.device ?? tx.actor.name),
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
  return scan.store(answer, children.map(({ api_key_id: _k, key_name: _n, recorded_at: _r, ...child }) => child));
}

/** One CHECK_IN per admitted participant, children of the scan (an UNDO of the scan undoes them all). */
function checkInEvents(tx: Tx, scan: ScanRecord, resolved: ResolvedCode, sessionId: number, decision: ScanDecision): CheckinEventsTable[] {
  return decision.admitting.map((p) => signedEvent(tx, {
    ...blankEvent(`${scan.eventId}.${p.id}`, 'CHECK_IN', scan.occurredAt),
    session_id: sessionId,
    order_number: resolved.orderNumber,
    participant_id: p.id,
    parent_event_id: scan.eventId,
    device: scan.input.device ?? null,
    result: decision.readmit ? 'READMITTED' : 'CHECKED_IN',
    note: decision.readmit ? 're-admission' : null,
    override_json: scan.row.override_json,
  }));
}

const sessionSummary = ({ session, product, timezone }: ResolvedSession): SessionScan['session'] => ({
  id: session.id,
  productCode: product.product_code,
  productName: product.name,
  startTimeLocal: toLocal(session.start_at, timezone),
});
