import type { BookingContext, Manifest, ManifestBooking, ManifestParticipant, OverridableRule, ScanAnswer } from '../api/types';
import { recordedCheckin, type RecordedCheckin } from '../api/answers';
import { alreadyInSentence, codeCandidates, decideScanOutcome, type ScanRule } from '../../../main/domain/checkin/scanOutcome';

/**
 * The scanner's local decision: a code looked up in the device's copy of the day's manifests and
 * weighed by the engine's own scan rules (main/domain/checkin/scanOutcome.ts) over the facts that
 * copy holds (wrong session, check-in closed, already in, unpaid). Pure and synchronous, so a
 * verdict is on screen in a frame; the engine's answer follows and corrects it when they disagree.
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
  sessionId: number;
  orderNumber: string;
  /** null for an order code (the whole booking). */
  participantId: number | null;
}

/** code -> where it is, over every manifest the device holds. */
export function buildIndex(manifests: Iterable<Manifest>): Map<string, IndexEntry> {
  const index = new Map<string, IndexEntry>();
  for (const manifest of manifests) {
    for (const booking of manifest.bookings) {
      for (const code of booking.orderCodes ?? []) index.set(code, { sessionId: manifest.session.id, orderNumber: booking.orderNumber, participantId: null });
      for (const p of booking.participants) {
        if (p.barcode) index.set(p.barcode, { sessionId: manifest.session.id, orderNumber: booking.orderNumber, participantId: p.id });
      }
    }
  }
  return index;
}

export const nameOf = (p: { name: string | null; position: number }) => p.name || `Participant ${p.position + 1}`;
const hhmm = (local: string | undefined) => (local ?? '').slice(11, 16);
const sessionLabelOf = (m: Manifest) => `${hhmm(m.session.startTimeLocal)} ${m.session.productName}`;
const who = (c: RecordedCheckin | null) => c?.device || c?.by || 'another device';
const money = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`;
const withoutParticipants = ({ participants: _p, ...rest }: ManifestBooking) => rest;

const partyLine = (total: number, inNow: number) => (total === 1 ? 'Party of 1 · all in' : inNow === total ? `Party of ${total} · all in` : `Party of ${total} · ${inNow} in, ${total - inNow} to come`);

export interface DecideInput {
  code: string;
  manifests: ReadonlyMap<number, Manifest>;
  index: ReadonlyMap<string, IndexEntry>;
  /** The session this scanner serves (/scan?session=ID); null serves every session it holds. */
  sessionFilter: number | null;
}

export function decide({ code, manifests, index, sessionFilter }: DecideInput): Verdict {
  const entry = codeCandidates(code).map((candidate) => index.get(candidate)).find((found) => found !== undefined);
  const manifest = entry ? manifests.get(entry.sessionId) : undefined;
  const booking = manifest?.bookings.find((b) => b.orderNumber === entry!.orderNumber);
  if (!entry || !manifest || !booking) {
    return {
      code,
      kind: 'UNKNOWN_CODE',
      tone: 'red',
      word: 'UNKNOWN CODE',
      message: "No booking in today's manifests on this device has this code. Check the code, or find the booking by name on the desk's manifest.",
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
  const targets: ManifestParticipant[] = entry.participantId === null ? booking.participants : booking.participants.filter((p) => p.id === entry.participantId);
  const fresh = targets.filter((p) => p.checkin.state !== 'CHECKED_IN');
  const outcome = decideScanOutcome({
    override: false,
    // Revoked codes and cancelled bookings' codes are not in the device's copy: they scan as unknown here, and the engine answers them.
    revoked: false,
    cancelled: false,
    elsewhere: sessionFilter !== null && sessionFilter !== manifest.session.id ? 'session' : null,
    closed: manifest.session.checkinClosed,
    people: targets.map((p) => ({ checkedIn: p.checkin.state === 'CHECKED_IN', incomplete: false })),
    unpaid: !booking.payment.paid,
    // The manifest carries neither when check-in opens, nor whether the product lets an unpaid booking
    // board, nor its required fields: the device refuses any balance due with "Admit anyway", and the
    // engine's answer corrects the rest.
    early: false,
    paymentRequired: true,
    fieldsEnforced: false,
  });
  const base = {
    code,
    sessionId: manifest.session.id,
    sessionLabel: sessionLabelOf(manifest),
    booking: withoutParticipants(booking),
    people: targets.map((p) => ({ id: p.id, name: nameOf(p), checkedIn: p.checkin.state === 'CHECKED_IN' })),
    participantIds: fresh.map((p) => p.id),
    others: [] as { id: number; name: string }[],
  };
  if (outcome.refusedBy) {
    const { message, label } = refusalWords(outcome.refusedBy, manifest, booking, targets);
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
  const others = booking.participants.filter((p) => !targets.includes(p) && p.checkin.state !== 'CHECKED_IN').map((p) => ({ id: p.id, name: nameOf(p) }));
  return {
    ...base,
    kind: 'CHECKED_IN',
    tone: 'green',
    word: 'CHECKED IN',
    // Names and booking are shown apart; the sentence says where the party stands.
    message: partyLine(booking.participants.length, booking.participants.filter((p) => p.checkin.state === 'CHECKED_IN').length + fresh.length),
    admit: true,
    others,
    override: null,
  };
}

/** The sentence a refusal shows on the device, and its override's label. */
function refusalWords(rule: ScanRule, manifest: Manifest, booking: ManifestBooking, targets: readonly ManifestParticipant[]): { message: string; label: string } {
  switch (rule) {
    case 'WRONG_SESSION': {
      const at = hhmm(manifest.session.startTimeLocal);
      return { message: `Booked for ${manifest.session.productName} at ${at}`, label: `Admit anyway (booked ${at})` };
    }
    case 'CHECKIN_CLOSED':
      return { message: `Check-in is closed for ${sessionLabelOf(manifest)}`, label: 'Admit anyway (check-in closed)' };
    case 'ALREADY_CHECKED_IN': {
      const event = targets.length ? recordedCheckin(targets[0].checkin) : null;
      const message = targets.length ? alreadyInSentence(hhmm(event?.atLocal), who(event)) : `Booking ${booking.orderNumber} has nobody to check in`;
      return { message, label: 'Admit again' };
    }
    case 'NOT_PAID': {
      const due = money(booking.payment.totalDue, booking.payment.totalCurrency);
      return { message: `${due} still to pay`, label: `Admit anyway (${due} unpaid)` };
    }
    default:
      // Rules on facts the device's copy does not hold (see decide): the engine words them.
      return { message: WORDS[rule][1], label: 'Admit anyway' };
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
export function markCheckedIn(manifest: Manifest, participantIds: readonly number[], checkin: { at: string; atLocal: string; device: string | null; eventIdOf: (participantId: number) => string }): Manifest {
  if (!participantIds.length) return manifest;
  const ids = new Set(participantIds);
  return {
    ...manifest,
    bookings: manifest.bookings.map((b) =>
      b.participants.some((p) => ids.has(p.id))
        ? { ...b, participants: b.participants.map((p) => (ids.has(p.id) ? { ...p, checkin: { state: 'CHECKED_IN' as const, at: checkin.at, atLocal: checkin.atLocal, device: checkin.device, eventId: checkin.eventIdOf(p.id) } } : p)) }
        : b,
    ),
  };
}
