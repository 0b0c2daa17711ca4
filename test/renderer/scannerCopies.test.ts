import { describe, expect, it } from 'vitest';
import type { DayBoardSession, DeviceBooking, DeviceCopy, DeviceSession } from '../../renderer/src/api/types';
import { bookingKey, changesSomething, DEFAULT_WINDOW, mergeCopy, participantsInCopy, servedCounts, validWindow, windowAround, windowServing, withSeats, type WindowCopy } from '../../renderer/src/scanner/copies';

const session = (id: number, closed = false, seats = 10): DeviceSession => ({ id, productCode: 'P1', productName: 'Tour', seats, startTime: '2030-01-03T00:00:00Z', startTimeLocal: '2030-01-03 11:00:00', checkinClosed: closed });
const booking = (sessionId: number, orderNumber: string, names: string[], live = true, seats = names.length): DeviceBooking => ({
  sessionId,
  context: { orderNumber, status: live ? 'CONFIRMED' : 'CANCELLED' } as DeviceBooking['context'],
  seats,
  live,
  cancelledAtLocal: live ? null : '2030-01-02 09:00:00',
  orderCodes: [],
  revokedCodes: [],
  participants: names.map((name, i) => ({ id: orderNumber.length * 100 + i, position: i, name, barcode: `${orderNumber}-${i}`, checkin: { state: i === 0 && name.endsWith('*') ? 'CHECKED_IN' : 'EXPECTED' }, missing: [] })),
});
const answer = (over: Partial<DeviceCopy>): DeviceCopy => ({ from: '2030-01-02', to: '2030-01-05', full: true, restart: null, cursor: 'c1', sessions: [session(1), session(2)], products: [], changedOrders: [], bookings: [], ...over });
const orders = (copy: { bookings: Record<string, DeviceBooking> }) => Object.keys(copy.bookings).sort();

describe("the scanner's window copy", () => {
  const whole = mergeCopy(null, answer({ bookings: [booking(1, 'A', ['Ann']), booking(1, 'B', ['Bob']), booking(2, 'B', ['Bob']), booking(2, 'C', ['Cy'], false)] }), 1000);

  it('is yesterday, today and the next 2 days by default, or as the device is set', () => {
    expect(windowAround('2030-01-01')).toEqual({ from: '2029-12-31', to: '2030-01-03' });
    expect(windowAround('2030-03-01', { daysBefore: 0, daysAfter: 6 })).toEqual({ from: '2030-03-01', to: '2030-03-07' });
  });

  it('takes a whole answer as it is, cancelled bookings included, keyed by departure and order', () => {
    expect(orders(whole)).toEqual(['1 A', '1 B', '2 B', '2 C']);
    expect(whole).toMatchObject({ cursor: 'c1', fetchedAt: 1000, from: '2030-01-02', to: '2030-01-05' });
    expect(whole.bookings['2 C'].live).toBe(false);
    expect(bookingKey(whole.bookings['1 A'])).toBe('1 A');
  });

  it('replaces only the changed orders, keeping every other entry as it was (the same objects)', () => {
    const next = mergeCopy(whole, answer({ full: false, cursor: 'c2', changedOrders: ['A'], bookings: [booking(1, 'A', ['Ann*'])] }), 2000);
    expect(orders(next)).toEqual(orders(whole));
    expect(next.bookings['1 A'].participants[0].name).toBe('Ann*');
    expect(next.bookings['1 B']).toBe(whole.bookings['1 B']);
    expect(next.cursor).toBe('c2');
  });

  it("drops a changed order's entries the answer no longer has (moved to another departure, or out of the window)", () => {
    const moved = mergeCopy(whole, answer({ full: false, changedOrders: ['B'], bookings: [booking(2, 'B', ['Bob'])] }), 2000);
    expect(orders(moved)).toEqual(['1 A', '2 B', '2 C']);
    const gone = mergeCopy(whole, answer({ full: false, changedOrders: ['C'], bookings: [] }), 2000);
    expect(orders(gone)).toEqual(['1 A', '1 B', '2 B']);
  });

  it("drops the entries of a departure that left the window, and takes the sessions' state whole", () => {
    const next = mergeCopy(whole, answer({ full: false, sessions: [session(1, true)], changedOrders: [], bookings: [] }), 2000);
    expect(orders(next)).toEqual(['1 A', '1 B']);
    expect(next.sessions[1].checkinClosed).toBe(true);
  });

  it('starts over on a whole answer: nothing held before survives it', () => {
    const restarted = mergeCopy(whole, answer({ full: true, restart: 'the cursor is more than a day old', cursor: 'c9', bookings: [booking(1, 'Z', ['Zed'])] }), 3000);
    expect(orders(restarted)).toEqual(['1 Z']);
    expect(restarted.cursor).toBe('c9');
  });

  it('says whether an answer changed anything, so a quiet refresh is not written again', () => {
    expect(changesSomething(answer({ full: false }))).toBe(false);
    expect(changesSomething(answer({ full: false, changedOrders: ['C'] }))).toBe(true);
    expect(changesSomething(answer({ full: true }))).toBe(true);
  });

  it('lists everyone with their booking and departure, and counts those served', () => {
    expect(participantsInCopy(whole).map((e) => `${e.session?.id} ${e.booking.context.orderNumber} ${e.participant.name}`)).toEqual(['1 A Ann', '1 B Bob', '2 B Bob', '2 C Cy']);
    const day = [{ id: 1 }, { id: 7 }] as DayBoardSession[];
    // Cancelled bookings are held but not counted as expected.
    expect(servedCounts(whole, null, day)).toEqual({ inCount: 0, total: 3, seatsBooked: 3, capacity: 20, seatsLeft: 17, seatsOver: 0, departures: 2, heldOfDay: 1 });
    expect(servedCounts(whole, 2, day)).toMatchObject({ total: 1, seatsBooked: 1, capacity: 10, seatsLeft: 9, seatsOver: 0, departures: 1 });
  });

  it('counts seats as availability does: a 4-seat ticket with 2 names is 4, cancelled ones none, an oversold departure negative', () => {
    const family = booking(3, 'F', ['Mum*', 'Kid'], true, 4);
    const copy = mergeCopy(null, answer({ sessions: [session(3, false, 5)], bookings: [family, booking(3, 'G', ['Ann', 'Bob']), booking(3, 'H', ['Cy', 'Di', 'Ed'], false, 3)] }), 1);
    expect(servedCounts(copy, 3, [])).toMatchObject({ inCount: 1, total: 4, seatsBooked: 6, capacity: 5, seatsLeft: 0, seatsOver: 1 });
    // All departures: one's spare seats do not hide another's oversold ones.
    const two = mergeCopy(null, answer({ sessions: [session(3, false, 5), session(4, false, 10)], bookings: [family, booking(3, 'G', ['Ann', 'Bob']), booking(4, 'K', ['Kim'])] }), 1);
    expect(servedCounts(two, null, [])).toMatchObject({ seatsBooked: 7, capacity: 15, seatsLeft: 9, seatsOver: 1, departures: 2 });
    const roomy = mergeCopy(null, answer({ sessions: [session(3, false, 12)], bookings: [family] }), 1);
    expect(servedCounts(roomy, 3, [])).toMatchObject({ seatsBooked: 4, capacity: 12, seatsLeft: 8, seatsOver: 0 });
  });

  it('asks again for the whole window when it holds a copy kept without seats, counting a seat a name until then', () => {
    const kept = mergeCopy(null, answer({ bookings: [booking(1, 'A', ['Ann', 'Al'], true, 4)] }), 1);
    expect(withSeats(kept)).toBe(kept);
    const { seats: _s, ...seatless } = kept.bookings['1 A'];
    const { seats: _c, ...oldSession } = kept.sessions[1];
    const old = { ...kept, sessions: { ...kept.sessions, 1: oldSession }, bookings: { '1 A': seatless } } as unknown as WindowCopy;
    const now = withSeats(old);
    expect(now.cursor).toBeNull();
    expect(now.bookings['1 A'].seats).toBe(2);
    expect(servedCounts(now, 1, [])).toMatchObject({ seatsBooked: 2, capacity: null });
    expect(servedCounts(now, 2, [])).toMatchObject({ seatsBooked: 0, capacity: 10, seatsLeft: 10 });
  });
});

describe('the window a device asks for', () => {
  it('is its days around today, stretched to a departure it serves alone outside them, or that day alone when too far', () => {
    expect(windowServing('2030-01-01', DEFAULT_WINDOW, null)).toEqual({ from: '2029-12-31', to: '2030-01-03' });
    expect(windowServing('2030-01-01', DEFAULT_WINDOW, '2030-01-02')).toEqual({ from: '2029-12-31', to: '2030-01-03' });
    expect(windowServing('2030-01-01', DEFAULT_WINDOW, '2030-01-06')).toEqual({ from: '2029-12-31', to: '2030-01-06' });
    expect(windowServing('2030-01-01', DEFAULT_WINDOW, '2029-12-25')).toEqual({ from: '2029-12-25', to: '2030-01-03' });
    expect(windowServing('2030-01-01', DEFAULT_WINDOW, '2030-02-01')).toEqual({ from: '2030-02-01', to: '2030-02-01' });
  });

  it('takes whole days from 0, at most the engine’s 14 in all', () => {
    expect(validWindow({ daysBefore: 0, daysAfter: 13 })).toBe(true);
    expect(validWindow({ daysBefore: 1, daysAfter: 13 })).toBe(false);
    expect(validWindow({ daysBefore: -1, daysAfter: 2 })).toBe(false);
    expect(validWindow({ daysBefore: 1.5, daysAfter: 2 })).toBe(false);
    expect(validWindow({ daysBefore: Number.NaN, daysAfter: 2 })).toBe(false);
  });
});
