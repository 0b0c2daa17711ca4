import type { BookingsTable, ParticipantsTable, RevokedCodesTable } from '../../../db/schema';
import type { OverridableRule, PaymentAnswer, ScanResult, SessionScan } from '../../contract/manifest';
import { stateOf, type DerivedState } from './state';
import { actorLabel } from './manifestView';
import type { ResolvedSession } from './manifests';
import { missingFieldsOf } from './scanRules';
import { isLive } from '../statuses';
import { toLocal } from '../time';

/**
 * The decision a scan of a scheduled booking makes: the rules in order, the first that applies
 * names the result. An overridable rule refuses unless the scan says `override: true`, which
 * records it; a refusal stops the evaluation. Reads nothing but whether check-in is closed.
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

const hhmm = (ms: number, zone: string) => toLocal(ms, zone).slice(11, 16);

/** The decision under way: the result so far, the refusal if any, the overrides and notes. */
class Rules {
  result: ScanResult = 'CHECKED_IN';
  refusal: string | null = null;
  readonly overrides: OverridableRule[] = [];
  readonly notes: string[] = [];

  constructor(private readonly override: boolean | readonly string[]) {}

  /**
   * A rule that applies: names the result if none did, and refuses unless overridden (when it may be).
   * 'named' rules (a cancelled booking) give way only to an override that names them, never to a blanket one.
   */
  apply(name: ScanResult, message: string, overridable: boolean | 'named', note?: string): void {
    if (this.refusal) return;
    if (this.result === 'CHECKED_IN') this.result = name;
    const named = Array.isArray(this.override) && this.override.includes(name);
    if ((overridable === true && this.override === true) || (overridable && named)) {
      this.overrides.push(name as OverridableRule);
      if (note) this.notes.push(note);
    } else this.refusal = message;
  }

  /** A rule that only warns: names the result if none did, and notes why. */
  warn(name: ScanResult, note: string): void {
    if (this.result === 'CHECKED_IN') this.result = name;
    this.notes.push(note);
  }
}

export async function decideScan(s: ScanSituation): Promise<ScanDecision> {
  const rules = new Rules(s.override);
  refuseRevokedCode(s, rules);
  refuseCancelledBooking(s, rules);
  const belongsTo = checkScannedSession(s, rules);
  // Closing check-in stops new check-ins; someone already in is answered ALREADY_CHECKED_IN (below), not refused.
  if (!rules.refusal && s.fresh.length > 0 && (await s.isClosed())) checkinClosed(s, rules);
  checkOpeningTime(s, rules);
  const readmit = checkAlreadyCheckedIn(s, rules);
  const admitting = readmit ? s.targets : s.fresh;
  checkPayment(s, rules);
  const missingLabels = checkRequiredFields(s, rules, admitting);
  return { result: rules.result, refusal: rules.refusal, overrides: rules.overrides, notes: rules.notes, readmit, belongsTo, admitting, missingLabels };
}

function refuseRevokedCode(s: ScanSituation, rules: Rules): void {
  if (!s.revoked) return;
  const at = toLocal(s.revoked.revoked_at, s.own.timezone).slice(0, 16);
  rules.apply('CODE_REVOKED', `Code revoked: booking ${s.booking.order_number} was given a new code at ${at}; scan the new code or search by name`, false);
}

function refuseCancelledBooking(s: ScanSituation, rules: Rules): void {
  if (isLive(s.booking.status)) return;
  const at = s.booking.cancelled_at ?? s.booking.updated_at;
  rules.apply('BOOKING_CANCELLED', `Do not admit: booking ${s.booking.order_number} was cancelled at ${toLocal(at, s.own.timezone).slice(0, 16)}`, 'named', 'override: booking was cancelled');
}

/** A booking of another session than the one scanned for, or of another day than the scan's: where it belongs. */
function checkScannedSession(s: ScanSituation, rules: Rules): ScanDecision['belongsTo'] {
  const { session, product, timezone } = s.own;
  const otherSession = s.scannedSessionId !== undefined && s.scannedSessionId !== session.id;
  const otherDay = s.scannedDay !== undefined && toLocal(session.start_at, timezone).slice(0, 10) !== s.scannedDay;
  if (!otherSession && !otherDay) return null;
  const belongsTo = { sessionId: session.id, productCode: product.product_code, productName: product.name, startTime: new Date(session.start_at).toISOString(), startTimeLocal: toLocal(session.start_at, timezone) };
  const when = belongsTo.startTimeLocal.slice(0, 16);
  rules.apply('WRONG_SESSION', `${otherSession ? 'Wrong session' : 'Another day'}: this booking is for ${product.name} at ${when}`, true, `override: booked for ${when}`);
  return belongsTo;
}

function checkinClosed(s: ScanSituation, rules: Rules): void {
  rules.apply('CHECKIN_CLOSED', `Check-in is closed for ${s.own.product.name} at ${hhmm(s.own.session.start_at, s.own.timezone)}`, true, 'override: check-in was closed');
}

function checkOpeningTime(s: ScanSituation, rules: Rules): void {
  if (s.opens === null || s.occurredAt >= s.opens) return;
  const opens = hhmm(s.opens, s.own.timezone);
  rules.apply('NOT_YET_OPEN', `Too early: check-in opens at ${opens}`, true, `override: check-in opens at ${opens}`);
}

/** Everyone already in: refused, or re-admitted with an override. Answers whether they are re-admitted. */
function checkAlreadyCheckedIn(s: ScanSituation, rules: Rules): boolean {
  if (rules.refusal || s.fresh.length > 0) return false;
  const first = s.targets.length > 0 ? stateOf(s.before, s.targets[0].id).event : undefined;
  rules.result = 'ALREADY_CHECKED_IN';
  if (!first) {
    rules.refusal = `Booking ${s.booking.order_number} has nobody to check in`;
    return false;
  }
  const at = hhmm(first.occurredAt, s.own.timezone);
  const by = actorLabel(first, s.keyNames);
  rules.apply('ALREADY_CHECKED_IN', `Already checked in at ${at} by ${by}`, true, `first checked in at ${at} by ${by}`);
  return !rules.refusal;
}

/** An unpaid balance refuses when the product requires payment before boarding, else it warns; either says what the agent recorded. */
function checkPayment(s: ScanSituation, rules: Rules): void {
  if (rules.refusal || s.payment.paid) return;
  // Whose payment: what an agent recorded was taken by the agent, not at the supplier's desk.
  const byAgent = s.payment.paidToAgent ? `; ${s.payment.paidToAgent} ${s.payment.totalCurrency} of what is paid was recorded by the agent` : '';
  const owed = `${s.payment.totalDue} ${s.payment.totalCurrency}`;
  if (s.own.product.checkin_requires_payment) rules.apply('NOT_PAID', `Not checked in: ${owed} still to pay before boarding${byAgent}`, true, `${owed} still to pay${byAgent}`);
  else rules.warn('NOT_PAID', `${owed} still to pay${byAgent}`);
}

/** Required participant fields still empty refuse when the product enforces them, else they warn. */
function checkRequiredFields(s: ScanSituation, rules: Rules, admitting: readonly ParticipantsTable[]): string[] {
  const missingLabels = [...new Set(admitting.flatMap((p) => missingFieldsOf(p, s.required)))];
  if (rules.refusal || missingLabels.length === 0) return missingLabels;
  const missing = `missing ${missingLabels.join(', ')}`;
  if (s.own.product.enforce_required_fields === 1) rules.apply('INCOMPLETE', `Not checked in: ${missing}`, true, missing);
  else rules.warn('INCOMPLETE', missing);
  return missingLabels;
}
