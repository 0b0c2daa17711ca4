import type { BookingContext, Manifest, ManifestBooking, ManifestParticipant, OverridableRule, ScanAnswer } from '../api/types';
import { recordedCheckin, type RecordedCheckin } from '../api/answers';

/**
 * The scanner's local decision: a code looked up in the device's copy of the day's manifests,
 * weighed with the same rules the engine's scan applies, in the same order (wrong session,
 * check-in closed, already in, unpaid). Pure and synchronous, so a verdict is on screen in a
 * frame; the engine's answer follows and corrects it when they disagree.
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
  // A code typed from a ticket in lower case is the upper-case code it spells (as the engine finds it).
  const entry = index.get(code) ?? index.get(code.toUpperCase());
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
  const base = {
    code,
    sessionId: manifest.session.id,
    sessionLabel: sessionLabelOf(manifest),
    booking: withoutParticipants(booking),
    people: targets.map((p) => ({ id: p.id, name: nameOf(p), checkedIn: p.checkin.state === 'CHECKED_IN' })),
    participantIds: fresh.map((p) => p.id),
    others: [] as { id: number; name: string }[],
  };
  const refuse = (kind: VerdictKind, tone: Tone, word: string, message: string, rule: OverridableRule, label: string): Verdict => ({
    ...base,
    kind,
    tone,
    word,
    message,
    admit: false,
    override: { rule, label },
  });

  if (sessionFilter !== null && sessionFilter !== manifest.session.id) {
    const at = hhmm(manifest.session.startTimeLocal);
    return refuse('WRONG_SESSION', 'red', 'WRONG SESSION', `Booked for ${manifest.session.productName} at ${at}`, 'WRONG_SESSION', `Admit anyway (booked ${at})`);
  }
  // Someone already in is already in, closed or not (as the engine decides): "ALREADY IN", not a red refusal.
  if (manifest.session.checkinClosed && fresh.length > 0) {
    return refuse('CHECKIN_CLOSED', 'red', 'CHECK-IN CLOSED', `Check-in is closed for ${sessionLabelOf(manifest)}`, 'CHECKIN_CLOSED', 'Admit anyway (check-in closed)');
  }
  if (fresh.length === 0) {
    const first = targets[0];
    const event = first ? recordedCheckin(first.checkin) : null;
    const when = first ? `${hhmm(event?.atLocal)} by ${who(event)}` : '';
    return {
      ...refuse('ALREADY_CHECKED_IN', 'amber', 'ALREADY IN', `Already checked in at ${when}`, 'ALREADY_CHECKED_IN', 'Admit again'),
      participantIds: targets.map((p) => p.id),
    };
  }
  if (!booking.payment.paid) {
    const due = money(booking.payment.totalDue, booking.payment.totalCurrency);
    return refuse('NOT_PAID', 'amber', 'NOT PAID', `${due} still to pay`, 'NOT_PAID', `Admit anyway (${due} unpaid)`);
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

const WORDS: Record<string, [Tone, string]> = {
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
