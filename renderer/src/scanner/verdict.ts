import type { BookingContext, DeviceBooking, DeviceParticipant, DeviceProduct, DeviceSession, OverridableRule, ScanAnswer } from '../api/types';
import { recordedCheckin } from '../api/answers';
import { alreadyInSentence, codeCandidates, decideScanOutcome, type ScanFacts, type ScanRule } from '../../../main/domain/checkin/scanOutcome';
import type { WindowCopy } from './copies';
import { formats as companyFormats, participantLabel } from '../lib/formats';
import type { Formats } from '../../../main/domain/format';

/**
 * The scanner's local decision: a code looked up in the device's window copy (copies.ts) and weighed
 * by the engine's own scan rules (main/domain/checkin/scanOutcome.ts) over the same facts the engine
 * reads (revoked, cancelled, departure and day, closed, opening time, already in, payment, required
 * fields), so offline it gives the engine's verdict. Pure and synchronous, so a verdict is on screen
 * in a frame; the engine's answer follows and corrects it if the copy was behind.
 */
export type Tone = 'green' | 'amber' | 'red' | 'blue';

export type VerdictKind =
  | 'CHECKED_IN'
  | 'ALREADY_CHECKED_IN'
  | 'NOT_PAID'
  | 'INCOMPLETE'
  | 'GROUP'
  | 'WRONG_SESSION'
  | 'CHECKIN_CLOSED'
  | 'NOT_YET_OPEN'
  | 'UNKNOWN_CODE'
  | 'BOOKING_CANCELLED'
  | 'CODE_REVOKED';

export interface Verdict {
  code: string;
  kind: VerdictKind;
  tone: Tone;
  /** The word shown huge beside the icon ("CHECKED IN"). */
  word: string;
  /** The sentence a guide can read aloud. */
  message: string;
  sessionId: number | null;
  sessionLabel: string | null;
  booking: BookingContext | null;
  /** The people this code names (one, or a booking's for an order code). */
  people: { id: number; name: string; checkedIn: boolean }[];
  /** Whether the device checks the people in now, with no further action. */
  admit: boolean;
  /** Who this scan checks in (admit) or would check in (after the override or group action). */
  participantIds: number[];
  /** The rest of the booking not yet in: offered as one action ("check in 3 more"). */
  others: { id: number; name: string }[];
  /** A refusal a person may overrule with a deliberate second action naming the rule. */
  override: { rule: OverridableRule; label: string } | null;
}

export interface IndexEntry {
  /** The booking's entry in the copy (copies.ts bookingKey). */
  key: string;
  /** null for an order code (the whole booking). */
  participantId: number | null;
  /** Set for a code a reissue replaced. */
  revokedAtLocal?: string;
}

/** code -> where it is in the copy: a participant's code once, an order's code once per departure of the booking, revoked codes too. */
export function buildIndex(copy: WindowCopy): Map<string, IndexEntry[]> {
  const index = new Map<string, IndexEntry[]>();
  const add = (code: string, entry: IndexEntry) => index.set(code, [...(index.get(code) ?? []), entry]);
  for (const [key, booking] of Object.entries(copy.bookings)) {
    for (const code of booking.orderCodes) add(code, { key, participantId: null });
    for (const p of booking.participants) if (p.barcode) add(p.barcode, { key, participantId: p.id });
    for (const r of booking.revokedCodes) add(r.code, { key, participantId: r.participantId, revokedAtLocal: r.revokedAtLocal });
  }
  return index;
}

export const nameOf = (p: { name: string | null; position: number }) => participantLabel(p);
/** A session as the guide reads it: its time in the company's locale (wall-clock *Local times read as they stand) and its product. */
const sessionLabelOf = (s: DeviceSession, f: Formats = companyFormats()) => `${f.time(s.startTimeLocal)} ${s.productName}`;
const isIn = (p: DeviceParticipant) => p.checkin.state === 'CHECKED_IN';

const partyLine = (total: number, inNow: number) => (total === 1 ? 'Party of 1 · all in' : inNow === total ? `Party of ${total} · all in` : `Party of ${total} · ${inNow} in, ${total - inNow} to come`);

export interface DecideInput {
  code: string;
  copy: WindowCopy;
  index: ReadonlyMap<string, IndexEntry[]>;
  /** The session this scanner serves (/scan?session=ID); null serves every departure of `day`. */
  sessionFilter: number | null;
  /** Serving all of a day's departures: that day (YYYY-MM-DD), as the scan tells the engine. */
  day?: string;
  /** The device's clock (ms), for when check-in opens. */
  now: number;
  /** The company's formats (the engine's locale, so a verdict reads as the engine's answer would); the app's own by default. */
  formats?: Formats;
}

/** An order code held by several departures of its booking: the served one, else the one starting nearest now (as the engine picks). */
function pickEntry(entries: readonly IndexEntry[], copy: WindowCopy, sessionFilter: number | null, now: number): IndexEntry {
  const startOf = (e: IndexEntry) => Date.parse(copy.sessions[copy.bookings[e.key]?.sessionId]?.startTime ?? '') || 0;
  return entries.find((e) => copy.bookings[e.key]?.sessionId === sessionFilter) ?? [...entries].sort((a, b) => Math.abs(startOf(a) - now) - Math.abs(startOf(b) - now))[0];
}

function unknownVerdict(code: string, copy: WindowCopy, f: Formats): Verdict {
  return {
    code,
    kind: 'UNKNOWN_CODE',
    tone: 'red',
    word: 'UNKNOWN CODE',
    message: `No booking from ${f.dayShort(copy.from)} to ${f.dayShort(copy.to)} on this device has this code. Check the code, or find the booking by name.`,
    sessionId: null,
    sessionLabel: null,
    booking: null,
    people: [],
    admit: false,
    participantIds: [],
    others: [],
    override: null,
  };
}

/** Everything the rules weigh, from the copy: the same facts the engine reads (scanDecision.ts). */
export function factsOf(input: DecideInput, entry: IndexEntry, booking: DeviceBooking, session: DeviceSession, product: DeviceProduct | undefined, targets: readonly DeviceParticipant[]): ScanFacts {
  const opensBefore = product?.checkinOpensMinutesBefore ?? null;
  const otherSession = input.sessionFilter !== null && input.sessionFilter !== session.id;
  const otherDay = input.sessionFilter === null && input.day !== undefined && session.startTimeLocal.slice(0, 10) !== input.day;
  return {
    override: false,
    revoked: entry.revokedAtLocal !== undefined,
    cancelled: !booking.live,
    elsewhere: otherSession ? 'session' : otherDay ? 'day' : null,
    closed: session.checkinClosed,
    early: opensBefore !== null && input.now < Date.parse(session.startTime) - opensBefore * 60_000,
    people: targets.map((p) => ({ checkedIn: isIn(p), incomplete: p.missing.length > 0 })),
    unpaid: !booking.context.payment.paid,
    // A product the copy lacks (never, from the engine) is weighed the strict way: the engine's answer corrects it.
    paymentRequired: product?.checkinRequiresPayment ?? true,
    fieldsEnforced: product?.enforceRequiredFields ?? true,
  };
}

export function decide(input: DecideInput): Verdict {
  const { code, copy, index, sessionFilter, now } = input;
  const entries = codeCandidates(code).map((candidate) => index.get(candidate)).find((found) => found !== undefined);
  const entry = entries && pickEntry(entries, copy, sessionFilter, now);
  const booking = entry && copy.bookings[entry.key];
  const session = booking && copy.sessions[booking.sessionId];
  const f = input.formats ?? companyFormats();
  if (!entry || !booking || !session) return unknownVerdict(code, copy, f);
  const product = copy.products[session.productCode];
  const targets = entry.participantId === null ? booking.participants : booking.participants.filter((p) => p.id === entry.participantId);
  const fresh = targets.filter((p) => !isIn(p));
  const facts = factsOf(input, entry, booking, session, product, targets);
  const outcome = decideScanOutcome(facts);
  const words = (rule: ScanRule) => ruleWords(rule, { entry, booking, session, product, targets, elsewhere: facts.elsewhere }, f);
  const base = {
    code,
    sessionId: session.id,
    sessionLabel: sessionLabelOf(session, f),
    booking: booking.context,
    people: targets.map((p) => ({ id: p.id, name: nameOf(p), checkedIn: isIn(p) })),
    participantIds: fresh.map((p) => p.id),
    others: [] as { id: number; name: string }[],
  };
  if (outcome.refusedBy) {
    const { message, label } = words(outcome.refusedBy);
    const [tone, word] = WORDS[outcome.refusedBy];
    // Refused by an overridable rule: the override is a deliberate second action naming it (every such rule is an OverridableRule).
    const override = outcome.overridable ? { rule: outcome.refusedBy as OverridableRule, label } : null;
    // Someone already in is admitted again by the override: all of them, not only those not in.
    const participantIds = outcome.refusedBy === 'ALREADY_CHECKED_IN' ? targets.map((p) => p.id) : base.participantIds;
    return { ...base, kind: outcome.refusedBy, tone, word, message, admit: false, participantIds, override };
  }
  if (entry.participantId === null && fresh.length > 1) {
    return { ...base, kind: 'GROUP', tone: 'blue', word: `BOOKING OF ${targets.length}`, message: `Tick who is here, then check them in`, admit: false, override: null };
  }
  const others = booking.participants.filter((p) => !targets.includes(p) && !isIn(p)).map((p) => ({ id: p.id, name: nameOf(p) }));
  // Names and booking are shown apart; the sentence says where the party stands, and what a warning rule noted.
  const party = partyLine(booking.participants.length, booking.participants.filter(isIn).length + fresh.length);
  const notes = outcome.noted.map((rule) => words(rule).message);
  const warned = outcome.result !== 'CHECKED_IN' ? (outcome.result as VerdictKind) : null;
  return {
    ...base,
    kind: warned ?? 'CHECKED_IN',
    tone: warned ? 'amber' : 'green',
    word: warned ? `IN · ${WORDS[outcome.result as ScanRule][1]}` : 'CHECKED IN',
    message: [party, ...notes].join(' · '),
    admit: true,
    others,
    override: null,
  };
}

interface Found {
  entry: IndexEntry;
  booking: DeviceBooking;
  session: DeviceSession;
  product: DeviceProduct | undefined;
  targets: readonly DeviceParticipant[];
  elsewhere: ScanFacts['elsewhere'];
}

/** The sentence a rule shows on the device (a refusal, or a warning's note), and its override's label. */
function ruleWords(rule: ScanRule, { entry, booking, session, product, targets, elsewhere }: Found, f: Formats): { message: string; label: string } {
  const order = booking.context.orderNumber;
  switch (rule) {
    case 'CODE_REVOKED':
      return { message: `Code revoked: booking ${order} was given a new code at ${f.dateTime(entry.revokedAtLocal ?? '')}; scan the new code or search by name`, label: '' };
    case 'BOOKING_CANCELLED':
      return { message: `Do not admit: booking ${order} was cancelled at ${f.dateTime(booking.cancelledAtLocal ?? '')}`, label: '' };
    case 'WRONG_SESSION': {
      const at = f.time(session.startTimeLocal);
      // Another day says its date, as the engine does; another departure the same day, its time.
      const when = f.dateTime(session.startTimeLocal);
      if (elsewhere === 'day') return { message: `Another day: this booking is for ${session.productName} at ${when}`, label: `Admit anyway (booked ${when})` };
      return { message: `Booked for ${session.productName} at ${at}`, label: `Admit anyway (booked ${at})` };
    }
    case 'CHECKIN_CLOSED':
      return { message: `Check-in is closed for ${session.productName} at ${f.time(session.startTimeLocal)}`, label: 'Admit anyway (check-in closed)' };
    case 'NOT_YET_OPEN': {
      const minutes = product?.checkinOpensMinutesBefore ?? 0;
      // The opening as a wall-clock time of the session's own day (its local start, less the minutes).
      const opens = f.time(new Date(Date.parse(`${session.startTimeLocal.replace(' ', 'T')}Z`) - minutes * 60_000).toISOString().slice(0, 19));
      return { message: `Too early: check-in opens at ${opens}`, label: `Admit anyway (opens ${opens})` };
    }
    case 'ALREADY_CHECKED_IN': {
      const event = targets.length ? recordedCheckin(targets[0].checkin) : null;
      const message = targets.length ? alreadyInSentence(f.time(event?.atLocal ?? ''), event?.device || event?.by || 'another device') : `Booking ${order} has nobody to check in`;
      return { message, label: 'Admit again' };
    }
    case 'NOT_PAID': {
      const due = f.money(booking.context.payment.totalDue, booking.context.payment.totalCurrency);
      return { message: `${due} still to pay`, label: `Admit anyway (${due} unpaid)` };
    }
    case 'INCOMPLETE': {
      const missing = [...new Set(targets.filter((p) => !isIn(p)).flatMap((p) => p.missing))].join(', ');
      return { message: `Missing ${missing}`, label: `Admit anyway (missing ${missing})` };
    }
  }
}

const WORDS: Record<ScanRule | 'CHECKED_IN' | 'UNKNOWN_CODE', [Tone, string]> = {
  CHECKED_IN: ['green', 'CHECKED IN'],
  NOT_PAID: ['amber', 'NOT PAID'],
  INCOMPLETE: ['amber', 'INCOMPLETE'],
  ALREADY_CHECKED_IN: ['amber', 'ALREADY IN'],
  WRONG_SESSION: ['red', 'WRONG SESSION'],
  CHECKIN_CLOSED: ['red', 'CHECK-IN CLOSED'],
  NOT_YET_OPEN: ['red', 'TOO EARLY'],
  UNKNOWN_CODE: ['red', 'UNKNOWN CODE'],
  BOOKING_CANCELLED: ['red', 'CANCELLED'],
  CODE_REVOKED: ['red', 'CODE REVOKED'],
};

/** The engine's answer shown the same way (a code this device does not hold, or a correction). */
export function fromAnswer(code: string, answer: ScanAnswer): Verdict {
  const [tone, word] = answer.checkedIn ? (answer.result === 'CHECKED_IN' || answer.result === 'ALREADY_CHECKED_IN' ? (['green', 'CHECKED IN'] as [Tone, string]) : (['amber', `IN · ${WORDS[answer.result]?.[1] ?? answer.result}`] as [Tone, string])) : (WORDS[answer.result] ?? ['red', answer.result.replaceAll('_', ' ')]);
  // An unknown code names nobody; a code without a session names its booking's people (no check-in
  // state: nothing was checked in); a session's code also names the booking, its session and who went in.
  const session = 'booking' in answer ? answer : null;
  const people = session
    ? session.participants.map((p) => ({ id: p.id, name: nameOf(p), checkedIn: session.checkedIn || p.checkin.state === 'CHECKED_IN' }))
    : ('participants' in answer ? answer.participants : []).map((p) => ({ id: p.id, name: nameOf(p), checkedIn: answer.checkedIn }));
  return {
    code,
    kind: answer.result,
    tone,
    word,
    message: answer.message,
    sessionId: session?.belongsTo?.sessionId ?? null,
    sessionLabel: null,
    booking: session?.booking ?? null,
    people,
    admit: answer.checkedIn,
    participantIds: session?.checkedInParticipantIds ?? [],
    others: [],
    override: null,
  };
}

/** Whether the engine's answer overrules what the device showed (it admitted and the engine did not, or the reverse). */
export function disagrees(local: { admit: boolean }, answer: ScanAnswer): boolean {
  // Admitted here and already in there (another device checked them in meanwhile): they are in, as shown.
  if (local.admit && answer.result === 'ALREADY_CHECKED_IN') return false;
  return local.admit !== answer.checkedIn;
}

/** The device's copy after a local check-in: shown as in at once, before the engine has answered. */
export function markCheckedIn(copy: WindowCopy, sessionId: number, participantIds: readonly number[], checkin: { at: string; atLocal: string; device: string | null; eventIdOf: (participantId: number) => string }): WindowCopy {
  if (!participantIds.length) return copy;
  const ids = new Set(participantIds);
  let bookings: Record<string, DeviceBooking> | null = null;
  for (const [key, b] of Object.entries(copy.bookings)) {
    if (b.sessionId !== sessionId || !b.participants.some((p) => ids.has(p.id) && !isIn(p))) continue;
    bookings ??= { ...copy.bookings };
    bookings[key] = { ...b, participants: b.participants.map((p) => (ids.has(p.id) && !isIn(p) ? { ...p, checkin: { state: 'CHECKED_IN' as const, at: checkin.at, atLocal: checkin.atLocal, by: null, device: checkin.device, eventId: checkin.eventIdOf(p.id) } } : p)) };
  }
  return bookings ? { ...copy, bookings } : copy;
}

/** Which of these participants the copy holds in the session and not yet in. */
export function notYetIn(copy: WindowCopy, sessionId: number, participantIds: readonly number[]): number[] {
  const ids = new Set(participantIds);
  const found = Object.values(copy.bookings).flatMap((b) => (b.sessionId === sessionId ? b.participants.filter((p) => ids.has(p.id) && !isIn(p)) : []));
  return participantIds.filter((id) => found.some((p) => p.id === id));
}
