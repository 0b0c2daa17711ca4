import type { EventOverridableRule } from '../api/types';
import type { EventItem } from '../outbox/items';
import { checkInItem } from './scanItems';
import { decideScanOutcome } from '../../../main/domain/checkin/scanOutcome';
import { bookingKey, type WindowCopy } from './copies';
import { factsOf, type DecideInput, type Verdict } from './verdict';

/**
 * A cancelled booking's guest, found by name on the scanner: a scan of their code is refused (a scan's
 * "Admit anyway" never passes a cancellation), and the only way in the rules allow is a check-in that
 * names the cancellation, as the desk's own (a CHECK_IN event with `override: ['BOOKING_CANCELLED', …]`).
 * Offered under the CANCELLED verdict of a search result only, with every other rule that applies named
 * too, so the engine records exactly what the guide overrode.
 */
export interface CancelledAdmit {
  rules: EventOverridableRule[];
  label: string;
}

/** What the device's rules ask to name for these people with the cancellation passed, or null when even that refuses (a revoked code). */
export function cancelledAdmitOf(verdict: Verdict, input: Omit<DecideInput, 'code' | 'index'>): CancelledAdmit | null {
  if (verdict.kind !== 'BOOKING_CANCELLED' || verdict.sessionId === null || !verdict.booking || !verdict.participantIds.length) return null;
  const copy: WindowCopy = input.copy;
  const booking = copy.bookings[bookingKey({ sessionId: verdict.sessionId, context: verdict.booking })];
  const session = copy.sessions[verdict.sessionId];
  if (!booking || !session) return null;
  const targets = booking.participants.filter((p) => verdict.participantIds.includes(p.id));
  const facts = factsOf({ ...input, code: verdict.code, index: new Map() }, { key: '', participantId: null }, booking, session, copy.products[session.productCode], targets);
  const every: EventOverridableRule[] = ['BOOKING_CANCELLED', 'WRONG_SESSION', 'CHECKIN_CLOSED', 'NOT_YET_OPEN', 'ALREADY_CHECKED_IN', 'NOT_PAID', 'INCOMPLETE'];
  const outcome = decideScanOutcome({ ...facts, override: every });
  if (outcome.refusedBy) return null;
  const rules = outcome.overrides as EventOverridableRule[];
  const also = rules.filter((r) => r !== 'BOOKING_CANCELLED').map((r) => r.replaceAll('_', ' ').toLowerCase());
  return { rules, label: `Admit anyway (booking cancelled${also.length ? `; ${also.join(', ')}` : ''})` };
}

/** The check-ins the override sends (one CHECK_IN event per person, naming the rules), and the verdict shown for them. */
export function cancelledCheckIns(verdict: Verdict, admit: CancelledAdmit, device: string | undefined): { admitted: Verdict; items: EventItem[] } {
  const sessionId = verdict.sessionId!;
  const people = verdict.people.filter((p) => verdict.participantIds.includes(p.id));
  const items = people.map((p) => checkInItem(sessionId, p.id, { admit: true, result: 'BOOKING_CANCELLED', label: p.name, sessionId, participantIds: [p.id] }, device, admit.rules));
  const admitted: Verdict = { ...verdict, kind: 'CHECKED_IN', tone: 'green', word: 'CHECKED IN', message: `Admitted by override: ${admit.label.replace(/^Admit anyway \(/, '').replace(/\)$/, '')}`, admit: true, override: null, people: people.map((p) => ({ ...p, checkedIn: true })) };
  return { admitted, items };
}
