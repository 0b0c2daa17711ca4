/**
 * The scan rules, written once: the engine's decision (scanDecision.ts) and the scanner device's
 * offline verdict (renderer/src/scanner/verdict.ts) both weigh a scan here, each from the facts it
 * holds. The rules apply in the order of SCAN_RULES; the first that applies names the result. An
 * overridable rule refuses unless the scan overrides it, which records it; a refusal stops the
 * evaluation; a rule that only warns admits with a note. Gathering the facts and wording the answer
 * stay with each caller. This module imports nothing, so the renderer's bundle takes it as it is.
 */

/** The rules, in the order they are weighed. */
export const SCAN_RULES = ['CODE_REVOKED', 'BOOKING_CANCELLED', 'WRONG_SESSION', 'CHECKIN_CLOSED', 'NOT_YET_OPEN', 'ALREADY_CHECKED_IN', 'NOT_PAID', 'INCOMPLETE'] as const;
export type ScanRule = (typeof SCAN_RULES)[number];

/** How a rule that applies gives way: never, only to an override naming it, to any override, or it only warns. */
type Yield = 'never' | 'named' | 'override' | 'warn';

/** Someone the scan is about: whether they are in already, and whether a field the product requires is empty. */
export interface ScanPerson {
  checkedIn: boolean;
  incomplete: boolean;
}

/** Everything the rules weigh, read before deciding. */
export interface ScanFacts<P extends ScanPerson = ScanPerson> {
  /** true overrides every overridable rule (a scan's "Admit anyway"); a list overrides only the rules it names. */
  override: boolean | readonly string[];
  /** The code was replaced by a reissue. */
  revoked: boolean;
  /** The booking is cancelled. */
  cancelled: boolean;
  /** The booking is for another session than the one scanned for, or another day than the scan's; null: for this one. */
  elsewhere: 'session' | 'day' | null;
  /** Check-in is closed for the booking's session (it stops only someone not in yet: see closingMatters). */
  closed: boolean;
  /** The scan came before check-in opens. */
  early: boolean;
  /** Whom the scan is about: a participant code's one person, or an order code's people. */
  people: readonly P[];
  /** A balance is due; whether the product refuses check-in until it is paid (else it only warns). */
  unpaid: boolean;
  paymentRequired: boolean;
  /** Whether the product refuses check-in while a required field is empty (else it only warns). */
  fieldsEnforced: boolean;
}

export interface ScanOutcome<P extends ScanPerson = ScanPerson> {
  /** The first rule that applied, or CHECKED_IN when none did (ALREADY_CHECKED_IN whenever everyone is in). */
  result: ScanRule | 'CHECKED_IN';
  /** The rule that refuses the scan; null when it checks in. */
  refusedBy: ScanRule | null;
  /** Whether `override: true` (the device's second action) would pass the refusing rule. */
  overridable: boolean;
  /** The rules this scan's override passed, in order: each is recorded with the check-in. */
  overrides: ScanRule[];
  /** The rules an admitted scan mentions (passed by override, or only warning), in order. */
  noted: ScanRule[];
  /** Everyone was checked in already and the override re-admits them. */
  readmit: boolean;
  /** Who this scan checks in (when not refused): those not in yet, or everyone when re-admitted. */
  admitting: P[];
}

/** The sentence for someone already in, on the engine and the device alike (`at` is HH:MM local). */
export const alreadyInSentence = (at: string, by: string) => `Already checked in at ${at} by ${by}`;

/** The codes a scanned code may be, in the order they are looked up: a code typed by hand in lower case is the upper-case code it spells. */
export function codeCandidates(code: string): string[] {
  const upper = code.toUpperCase();
  return upper === code ? [code] : [code, upper];
}

const someoneNotIn = (f: ScanFacts) => f.people.some((p) => !p.checkedIn);

/** Each rule: whether it applies (given who would be admitted), and how it gives way. ALREADY_CHECKED_IN is weighed apart. */
const RULES: Record<Exclude<ScanRule, 'ALREADY_CHECKED_IN'>, { applies(f: ScanFacts, admitting: readonly ScanPerson[]): boolean; yields(f: ScanFacts): Yield }> = {
  CODE_REVOKED: { applies: (f) => f.revoked, yields: () => 'never' },
  // A cancelled booking gives way only to an override that names it, never to a blanket one.
  BOOKING_CANCELLED: { applies: (f) => f.cancelled, yields: () => 'named' },
  WRONG_SESSION: { applies: (f) => f.elsewhere !== null, yields: () => 'override' },
  // Closing check-in stops new check-ins; someone already in is answered ALREADY_CHECKED_IN, not refused.
  CHECKIN_CLOSED: { applies: (f) => f.closed && someoneNotIn(f), yields: () => 'override' },
  NOT_YET_OPEN: { applies: (f) => f.early, yields: () => 'override' },
  NOT_PAID: { applies: (f) => f.unpaid, yields: (f) => (f.paymentRequired ? 'override' : 'warn') },
  INCOMPLETE: { applies: (_f, admitting) => admitting.some((p) => p.incomplete), yields: (f) => (f.fieldsEnforced ? 'override' : 'warn') },
};

/** The decision under way. */
class Weighing<P extends ScanPerson> {
  result: ScanOutcome['result'] = 'CHECKED_IN';
  refusedBy: ScanRule | null = null;
  overridable = false;
  readonly overrides: ScanRule[] = [];
  readonly noted: ScanRule[] = [];
  readmit = false;

  constructor(readonly facts: ScanFacts<P>) {}

  /** A rule that applies: names the result if none did, and refuses unless it only warns or is overridden. */
  apply(rule: ScanRule, yields: Yield): void {
    if (this.refusedBy) return;
    if (this.result === 'CHECKED_IN') this.result = rule;
    const { override } = this.facts;
    const named = Array.isArray(override) && override.includes(rule);
    if (yields === 'warn') this.noted.push(rule);
    else if ((yields === 'override' && override === true) || (yields !== 'never' && named)) {
      this.overrides.push(rule);
      this.noted.push(rule);
    } else {
      this.refusedBy = rule;
      this.overridable = yields === 'override';
    }
  }

  weigh(rule: Exclude<ScanRule, 'ALREADY_CHECKED_IN'>, admitting: readonly P[]): void {
    const { applies, yields } = RULES[rule];
    if (!this.refusedBy && applies(this.facts, admitting)) this.apply(rule, yields(this.facts));
  }

  /** Everyone already in: answered ALREADY_CHECKED_IN, refused or re-admitted by an override; nobody to check in is refused outright. */
  alreadyIn(): void {
    const { people } = this.facts;
    if (this.refusedBy || someoneNotIn(this.facts)) return;
    this.result = 'ALREADY_CHECKED_IN';
    if (people.length === 0) {
      this.refusedBy = 'ALREADY_CHECKED_IN';
      return;
    }
    this.apply('ALREADY_CHECKED_IN', 'override');
    this.readmit = !this.refusedBy;
  }
}

/** The rules weighed in order, all of them or those before `stop`. */
function weighRules<P extends ScanPerson>(facts: ScanFacts<P>, stop?: ScanRule): Weighing<P> {
  const w = new Weighing(facts);
  for (const rule of SCAN_RULES) {
    if (rule === stop) break;
    const admitting = w.readmit ? facts.people : facts.people.filter((p) => !p.checkedIn);
    if (rule === 'ALREADY_CHECKED_IN') w.alreadyIn();
    else w.weigh(rule, admitting);
  }
  return w;
}

/** The outcome of a scan: the rules weighed in order over the facts. */
export function decideScanOutcome<P extends ScanPerson>(facts: ScanFacts<P>): ScanOutcome<P> {
  const w = weighRules(facts);
  const admitting = w.readmit ? [...facts.people] : facts.people.filter((p) => !p.checkedIn);
  return { result: w.result, refusedBy: w.refusedBy, overridable: w.overridable, overrides: w.overrides, noted: w.noted, readmit: w.readmit, admitting };
}

/**
 * Whether closing check-in can change the outcome: someone is not in yet and no rule before it
 * refused. The engine reads the session's closing events only then.
 */
export function closingMatters(facts: Omit<ScanFacts, 'closed'>): boolean {
  const open = { ...facts, closed: false };
  return someoneNotIn(open) && !weighRules(open, 'CHECKIN_CLOSED').refusedBy;
}
