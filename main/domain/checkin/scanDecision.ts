import type { BookingsTable, ParticipantsTable, RevokedCodesTable } from '../../../db/schema';
import type { OverridableRule, PaymentAnswer, ScanResult, SessionScan } from '../../contract/manifest';
import { stateOf, type DerivedState } from './state';
import { actorLabel } from './manifestView';
import type { ResolvedSession } from './manifests';
import { missingFieldsOf } from './scanRules';
import { closingMatters, decideScanOutcome, alreadyInSentence, type ScanRule } from './scanOutcome';
import { isLive } from '../statuses';
import { toLocal } from '../time';
import { formatsFor, type Formats } from '../format';

/**
 * The decision a scan of a scheduled booking makes: the engine's facts weighed by the scan rules
 * (scanOutcome.ts, which the scanner device's offline verdict weighs too), worded for the guide.
 * Reads nothing but whether check-in is closed, and that only when it can matter.
 */

/** Everything the rules weigh, read before deciding. */
export interface ScanSituation {
  /** true overrides every overridable rule (a scan's "Admit anyway"); a list overrides only the rules it names. */
  override: boolean | readonly string[];
  /** The session the guide scanned for, when the scan named one. */
  scannedSessionId: number | undefined;
  /** The day (YYYY-MM-DD, local) whose departures the scan is for (a scanner serving all of a day's): another day's booking is a wrong session. */
  scannedDay?: string;
  /** The session the booking's item is for. */
  own: ResolvedSession;
  booking: BookingsTable;
  revoked: RevokedCodesTable | null;
  occurredAt: number;
  /** When check-in opens (null: always open). */
  opens: number | null;
  /** The participants the scan is about, and those of them not checked in yet. */
  targets: ParticipantsTable[];
  fresh: ParticipantsTable[];
  before: DerivedState;
  keyNames: Map<number, string>;
  payment: PaymentAnswer;
  required: readonly string[];
  /** The company's locale ('en_AU'): times are worded as it reads them (9:10 am, or 09:10), in the session's zone. */
  locale: string | null;
  /** Asked only when no rule refused before it (it reads the session's events). */
  isClosed(): Promise<boolean>;
}

export interface ScanDecision {
  result: ScanResult;
  /** The sentence to read aloud when the scan is refused; null when it checks in. */
  refusal: string | null;
  overrides: OverridableRule[];
  /** Overrides and warnings, appended to the message of an admitted scan. */
  notes: string[];
  /** Everyone was checked in already and the override re-admits them. */
  readmit: boolean;
  belongsTo: SessionScan['belongsTo'];
  /** Who this scan checks in (when not refused). */
  admitting: ParticipantsTable[];
  missingLabels: string[];
}

export async function decideScan(s: ScanSituation): Promise<ScanDecision> {
  const { session, timezone } = s.own;
  const otherSession = s.scannedSessionId !== undefined && s.scannedSessionId !== session.id;
  const otherDay = s.scannedDay !== undefined && toLocal(session.start_at, timezone).slice(0, 10) !== s.scannedDay;
  const facts = {
    override: s.override,
    revoked: s.revoked !== null,
    cancelled: !isLive(s.booking.status),
    elsewhere: otherSession ? ('session' as const) : otherDay ? ('day' as const) : null,
    early: s.opens !== null && s.occurredAt < s.opens,
    people: s.targets.map((row) => ({ row, checkedIn: !s.fresh.includes(row), incomplete: missingFieldsOf(row, s.required).length > 0 })),
    unpaid: !s.payment.paid,
    paymentRequired: Boolean(s.own.product.checkin_requires_payment),
    fieldsEnforced: s.own.product.enforce_required_fields === 1,
  };
  const closed = closingMatters(facts) && (await s.isClosed());
  const outcome = decideScanOutcome({ ...facts, closed });
  const admitting = outcome.admitting.map((p) => p.row);
  const missingLabels = [...new Set(admitting.flatMap((p) => missingFieldsOf(p, s.required)))];
  const formats = formatsFor({ locale: s.locale, timezone });
  const words = (rule: ScanRule) => wordingOf(rule, s, missingLabels, formats);
  return {
    result: outcome.result,
    refusal: outcome.refusedBy && words(outcome.refusedBy).refusal,
    overrides: outcome.overrides as OverridableRule[],
    notes: outcome.noted.map((rule) => words(rule).note),
    readmit: outcome.readmit,
    belongsTo: facts.elsewhere ? belongsToOf(s.own) : null,
    admitting,
    missingLabels,
  };
}

/** Where a booking of another session or day than the scan's belongs. */
function belongsToOf({ session, product, timezone }: ResolvedSession): NonNullable<ScanDecision['belongsTo']> {
  return { sessionId: session.id, productCode: product.product_code, productName: product.name, startTime: new Date(session.start_at).toISOString(), startTimeLocal: toLocal(session.start_at, timezone) };
}

/** A rule's words: the sentence that refuses, and the note an admitted scan carries (overridden, or only warned). */
function wordingOf(rule: ScanRule, s: ScanSituation, missingLabels: readonly string[], formats: Formats): { refusal: string; note: string } {
  const { session, product } = s.own;
  const order = s.booking.order_number;
  switch (rule) {
    case 'CODE_REVOKED': {
      const at = formats.dateTime(s.revoked!.revoked_at);
      return { refusal: `Code revoked: booking ${order} was given a new code at ${at}; scan the new code or search by name`, note: '' };
    }
    case 'BOOKING_CANCELLED': {
      const at = formats.dateTime(s.booking.cancelled_at ?? s.booking.updated_at);
      return { refusal: `Do not admit: booking ${order} was cancelled at ${at}`, note: 'override: booking was cancelled' };
    }
    case 'WRONG_SESSION': {
      const when = formats.dateTime(session.start_at);
      const otherSession = s.scannedSessionId !== undefined && s.scannedSessionId !== session.id;
      return { refusal: `${otherSession ? 'Wrong session' : 'Another day'}: this booking is for ${product.name} at ${when}`, note: `override: booked for ${when}` };
    }
    case 'CHECKIN_CLOSED':
      return { refusal: `Check-in is closed for ${product.name} at ${formats.time(session.start_at)}`, note: 'override: check-in was closed' };
    case 'NOT_YET_OPEN': {
      const opens = formats.time(s.opens!);
      return { refusal: `Too early: check-in opens at ${opens}`, note: `override: check-in opens at ${opens}` };
    }
    case 'ALREADY_CHECKED_IN': {
      const first = s.targets.length > 0 ? stateOf(s.before, s.targets[0].id).event : undefined;
      if (!first) return { refusal: `Booking ${order} has nobody to check in`, note: '' };
      const at = formats.time(first.occurredAt);
      const by = actorLabel(first, s.keyNames);
      return { refusal: alreadyInSentence(at, by), note: `first checked in at ${at} by ${by}` };
    }
    case 'NOT_PAID': {
      // Whose payment: what an agent recorded was taken by the agent, not at the supplier's desk.
      const byAgent = s.payment.paidToAgent ? `; ${formats.money(s.payment.paidToAgent, s.payment.totalCurrency)} of what is paid was recorded by the agent` : '';
      const owed = formats.money(s.payment.totalDue, s.payment.totalCurrency);
      return { refusal: `Not checked in: ${owed} still to pay before boarding${byAgent}`, note: `${owed} still to pay${byAgent}` };
    }
    case 'INCOMPLETE': {
      const missing = `missing ${missingLabels.join(', ')}`;
      return { refusal: `Not checked in: ${missing}`, note: missing };
    }
  }
}
