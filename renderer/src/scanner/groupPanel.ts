import { bookingKey, type WindowCopy } from './copies';
import { nameOf, type Verdict } from './verdict';

/** One of a booking's people as the group panel lists them. */
export interface PartyMember {
  id: number;
  name: string;
  checkedIn: boolean;
}

/** The panel under a verdict that offers the rest of a booking: whom it lists, whom it lets a guide tick. */
export interface GroupPanel {
  legend: string;
  /** Everyone it lists: those already in are shown as in, not offered. */
  people: PartyMember[];
  /** Who may be ticked (not in yet). Nobody starts ticked: the guide ticks whom they see. */
  open: number[];
}

/** The booking's people as the device's copy holds them now, or null when it does not hold the booking. */
export function partyOf(copy: WindowCopy, verdict: Pick<Verdict, 'sessionId' | 'booking'>): PartyMember[] | null {
  if (verdict.sessionId === null || !verdict.booking) return null;
  const booking = copy.bookings[bookingKey({ sessionId: verdict.sessionId, context: verdict.booking })];
  return booking ? booking.participants.map((p) => ({ id: p.id, name: nameOf(p), checkedIn: p.checkin.state === 'CHECKED_IN' })) : null;
}

const peopleWord = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`;

/**
 * The panel, or none: a whole booking's code lists all of it ("Who is here?"); one person's code
 * lists the rest of their booking ("Also in this booking"), counted as listed. `party` is the
 * booking as the device holds it (so people already in are listed too); without it, the verdict's own.
 */
export function groupPanelOf(verdict: Verdict, party: readonly PartyMember[] | null): GroupPanel | null {
  const group = verdict.kind === 'GROUP';
  if (!group && !verdict.others.length) return null;
  const scanned = new Set(group ? [] : verdict.people.map((p) => p.id));
  const fromVerdict = [...(group ? verdict.people : []), ...verdict.others.map((o) => ({ ...o, checkedIn: false }))];
  const people = (party ?? fromVerdict).filter((p) => !scanned.has(p.id));
  const open = people.filter((p) => !p.checkedIn).map((p) => p.id);
  if (!open.length) return null;
  return { legend: group ? `Who is here? (${peopleWord(people.length)})` : `Also in this booking (${peopleWord(people.length)})`, people, open };
}
