import { describe, expect, it } from 'vitest';
import { createSuppressor, createWedge } from '../../renderer/src/scanner/wedge';
import { buildIndex, decide, disagrees } from '../../renderer/src/scanner/verdict';
import { correctionOf, withPending } from '../../renderer/src/scanner/pending';
import { copyOfManifests } from '../fixtures/deviceCopies';
import { pickupOnVerdict } from '../../renderer/src/scanner/pickupWords';
import { addToOutbox, removeFromOutbox, type OutboxItem } from '../../renderer/src/outbox/items';
import { parseRoute, urlOf } from '../../renderer/src/model/routes';
import type { Manifest, ManifestBooking, ParticipantCheckin } from '../../renderer/src/api/types';
import { formatsFor, type Formats } from '../../main/domain/format';
import { aManifestAnswer, aManifestBooking, aManifestParticipant, aManifestSession, aRecordedCheckin, aSessionScan } from '../fixtures/manifestAnswers';

let nextId = 1;
const aParticipant = (name: string, barcode: string | null, state: ParticipantCheckin['state'] = 'EXPECTED') =>
  aManifestParticipant({ id: nextId++, name, barcode, checkin: state === 'CHECKED_IN' ? aRecordedCheckin({ state }) : { state } });
const aBookingOf = (orderNumber: string, participants: ManifestBooking['participants'], due = 0): ManifestBooking =>
  aManifestBooking({
    orderNumber,
    quantities: [{ optionId: 1, optionLabel: 'Adult', value: participants.length }],
    payment: { totalAmount: 100, totalPaid: 100 - due, totalDue: due, totalCurrency: 'AUD', paid: due === 0 },
    attention: due > 0,
    attentionReasons: due > 0 ? ['UNPAID'] : [],
    participants,
  });
const aManifest = (id: number, startTimeLocal: string, bookings: ManifestBooking[], checkinClosed = false): Manifest =>
  aManifestAnswer({ session: aManifestSession({ id, productCode: `P${id}`, productName: `Tour ${id}`, startTime: '', endTime: '', startTimeLocal, endTimeLocal: startTimeLocal, seats: 30, checkinClosed }), bookings });

describe('the wedge detector', () => {
  it('takes keys at most 100 ms apart ending in Enter or Tab as one scan', () => {
    const wedge = createWedge();
    const keys = [...'T1-0042'].map((key, i) => wedge.key(key, 1000 + i * 20));
    expect(keys.every((k) => k === null)).toBe(true);
    expect(wedge.key('Enter', 1160)).toBe('T1-0042');
    [...'ABCD'].forEach((key, i) => wedge.key(key, 2000 + i * 10));
    expect(wedge.key('Tab', 2050)).toBe('ABCD');
  });

  it('does not take a person typing (slow keys), three characters, or shift and control keys', () => {
    const wedge = createWedge();
    [...'T1-0042'].forEach((key, i) => wedge.key(key, 1000 + i * 180));
    expect(wedge.key('Enter', 2300)).toBeNull();
    [...'ABC'].forEach((key, i) => wedge.key(key, 3000 + i * 10));
    expect(wedge.key('Enter', 3040)).toBeNull();
    for (const [i, key] of ['Shift', 'T', 'Shift', '1', '\u001d', '-', '9', '9'].entries()) wedge.key(key, 4000 + i * 5);
    expect(wedge.key('Enter', 4050)).toBe('T1-99');
  });

  it('starts a new code after a pause, so stray keys before a scan do not stick to it', () => {
    const wedge = createWedge();
    wedge.key('x', 0);
    [...'CODE1'].forEach((key, i) => wedge.key(key, 1000 + i * 10));
    expect(wedge.key('Enter', 1060)).toBe('CODE1');
  });
});

describe('same-code suppression', () => {
  it('fires a code once within its window, however long it stays in view, and again after', () => {
    const s = createSuppressor();
    expect(s.shouldFire('A', 0, 2500)).toBe(true);
    expect(s.shouldFire('A', 1000, 2500)).toBe(false);
    expect(s.shouldFire('A', 3000, 2500)).toBe(false); // still held in view: the window restarted at 1000
    expect(s.shouldFire('B', 3100, 2500)).toBe(true);
    expect(s.shouldFire('A', 6000, 2500)).toBe(true);
  });
});

describe('the local verdict', () => {
  const grace = aParticipant('Grace Hopper', 'G1');
  const alan = aParticipant('Alan Turing', 'A1', 'CHECKED_IN');
  const family = [aParticipant('Ann', 'F1'), aParticipant('Bob', 'F2'), aParticipant('Cy', 'F3', 'CHECKED_IN')];
  const unpaid = aParticipant('Una Paid', 'U1');
  const later = aParticipant('Late Comer', 'L1');
  const orderBooking = { ...aBookingOf('T1-9', [aParticipant('Ord One', null), aParticipant('Ord Two', null)]), orderCodes: ['ORDER-9'] };
  const copy = copyOfManifests([
    aManifest(1, '2030-01-01 14:00:00', [aBookingOf('T1-1', [grace]), aBookingOf('T1-2', [alan]), aBookingOf('T1-3', family), aBookingOf('T1-4', [unpaid], 40), orderBooking]),
    aManifest(2, '2030-01-01 18:00:00', [aBookingOf('T1-5', [later])]),
    aManifest(3, '2030-01-01 09:00:00', [aBookingOf('T1-6', [aParticipant('Closed Out', 'C1')]), aBookingOf('T1-7', [aParticipant('In Before', 'C2', 'CHECKED_IN')])], true),
  ]);
  const index = buildIndex(copy);
  // The company's formats, as the device holds them: a 12-hour locale (en-AU) unless a case says otherwise.
  const AU = formatsFor({ locale: 'en_AU', timezone: 'Australia/Sydney' });
  const DE = formatsFor({ locale: 'de_DE', timezone: 'Europe/Berlin' });
  const verdict = (code: string, sessionFilter: number | null = null, formats: Formats = AU) => decide({ code, copy, index, sessionFilter, now: Date.parse('2030-01-01T03:00:00Z'), formats });

  it('checks a known code in at once, green, naming the person and the booking', () => {
    expect(verdict('G1')).toMatchObject({ kind: 'CHECKED_IN', tone: 'green', admit: true, participantIds: [grace.id], sessionId: 1, people: [{ name: 'Grace Hopper' }], booking: { orderNumber: 'T1-1' } });
  });

  it("carries the booking's pickup to the verdict, worded as the manifest row words it, and none without one", () => {
    const picked = copyOfManifests([aManifest(4, '2030-01-01 14:00:00', [{ ...aBookingOf('T1-8', [aParticipant('Pia Up', 'P1')]), pickup: { locationName: 'Pier 3', pickupTime: '2030-01-01T07:40:00' } }])]);
    const seen = decide({ code: 'P1', copy: picked, index: buildIndex(picked), sessionFilter: null, now: Date.parse('2030-01-01T03:00:00Z') });
    expect(seen.booking?.pickup).toMatchObject({ locationName: 'Pier 3' });
    expect(pickupOnVerdict(seen.booking?.pickup)).toMatch(/^Pickup: Pier 3 0?7:40/);
    expect(pickupOnVerdict(verdict('G1').booking?.pickup)).toBeNull();
    expect(pickupOnVerdict({ locationName: 'Hotel' })).toBe('Pickup: Hotel');
  });

  it('finds a code typed in lower case from a ticket, as the engine does', () => {
    expect(verdict('g1')).toMatchObject({ kind: 'CHECKED_IN', participantIds: [grace.id], code: 'g1' });
    expect(verdict('order-9')).toMatchObject({ kind: 'GROUP', booking: { orderNumber: 'T1-9' } });
    expect(verdict('g2').kind).toBe('UNKNOWN_CODE');
  });

  it('says when and by whom someone is already in, amber, and offers to admit again', () => {
    expect(verdict('A1')).toMatchObject({ kind: 'ALREADY_CHECKED_IN', tone: 'amber', admit: false, message: 'Already checked in at 2:52 pm by Pier tablet', override: { rule: 'ALREADY_CHECKED_IN' } });
    // A 24-hour company reads the same check-in as 14:52.
    expect(verdict('A1', null, DE).message).toBe('Already checked in at 14:52 by Pier tablet');
  });

  it('refuses an unpaid booking with the amount due and an "Admit anyway"', () => {
    expect(verdict('U1')).toMatchObject({ kind: 'NOT_PAID', tone: 'amber', admit: false, message: '$40.00 still to pay', override: { rule: 'NOT_PAID', label: 'Admit anyway ($40.00 unpaid)' } });
  });

  it('refuses another session with its time, red, and an override naming it', () => {
    expect(verdict('L1', 1)).toMatchObject({ kind: 'WRONG_SESSION', tone: 'red', admit: false, message: 'Booked for Tour 2 at 6:00 pm', override: { label: 'Admit anyway (booked 6:00 pm)' } });
    expect(verdict('L1', 1, DE)).toMatchObject({ message: 'Booked for Tour 2 at 18:00', override: { label: 'Admit anyway (booked 18:00)' } });
    // Serving all of another day's departures, the date is said too.
    expect(decide({ code: 'L1', copy, index, sessionFilter: null, day: '2030-01-02', now: 0, formats: AU })).toMatchObject({ kind: 'WRONG_SESSION', message: 'Another day: this booking is for Tour 2 at Tue, 1 Jan 2030, 6:00 pm', override: { label: 'Admit anyway (booked Tue, 1 Jan 2030, 6:00 pm)' } });
    expect(verdict('L1', null)).toMatchObject({ kind: 'CHECKED_IN', sessionId: 2 });
  });

  it('refuses a closed session, and an unknown code without a booking', () => {
    expect(verdict('C1')).toMatchObject({ kind: 'CHECKIN_CLOSED', tone: 'red', override: { rule: 'CHECKIN_CLOSED' } });
    // Someone in before the close is answered as in, not refused.
    expect(verdict('C2')).toMatchObject({ kind: 'ALREADY_CHECKED_IN', tone: 'amber' });
    expect(verdict('NOPE')).toMatchObject({ kind: 'UNKNOWN_CODE', tone: 'red', admit: false, override: null, booking: null });
    // The days the device holds, as the company's locale writes a day.
    expect(verdict('NOPE').message).toMatch(/^No booking from Tue,? 1 Jan to Thu,? 3 Jan on this device/);
    expect(verdict('NOPE', null, DE).message).toMatch(/^No booking from Di\., 1\. Jan\.? to Do\., 3\. Jan\.? on this device/);
  });

  it('checks in the scanned person of a group and offers the rest who are not yet in', () => {
    expect(verdict('F1')).toMatchObject({ kind: 'CHECKED_IN', participantIds: [family[0].id], others: [{ id: family[1].id, name: 'Bob' }], message: 'Party of 3 · 2 in, 1 to come' });
  });

  it('opens an order code as the whole booking to tick, admitting nobody yet', () => {
    expect(verdict('ORDER-9')).toMatchObject({ kind: 'GROUP', admit: false, participantIds: orderBooking.participants.map((p) => p.id), word: 'BOOKING OF 2' });
  });

  it('decides a scan among a day of 1,000 people by looking its code up: one index look-up, one booking read, no list walked', () => {
    /** A Map that counts look-ups and walks (any iteration over its entries). */
    class Counted<K, V> extends Map<K, V> {
      gets = 0;
      walks = 0;
      override get(key: K) {
        this.gets++;
        return super.get(key);
      }
      override forEach(...args: Parameters<Map<K, V>['forEach']>) {
        this.walks++;
        super.forEach(...args);
      }
      override entries() {
        this.walks++;
        return super.entries();
      }
      override keys() {
        this.walks++;
        return super.keys();
      }
      override values() {
        this.walks++;
        return super.values();
      }
      override [Symbol.iterator]() {
        this.walks++;
        return super[Symbol.iterator]();
      }
    }
    const day = Array.from({ length: 10 }, (_, s) => aManifest(10 + s, '2030-01-01 10:00:00', Array.from({ length: 25 }, (_, b) => aBookingOf(`B${s}-${b}`, Array.from({ length: 4 }, (_, i) => aParticipant(`P${s}-${b}-${i}`, `C${s}-${b}-${i}`))))));
    const big = copyOfManifests(day);
    /** The copy's bookings, counting reads and walks (a walk lists the keys). */
    const counts = { gets: 0, walks: 0 };
    const bookings = new Proxy(big.bookings, {
      get: (target, key) => (typeof key === 'string' && counts.gets++, Reflect.get(target, key)),
      ownKeys: (target) => (counts.walks++, Reflect.ownKeys(target)),
    });
    const bigIndex = new Counted(buildIndex(big));
    expect(bigIndex.size).toBe(1000);
    expect(decide({ code: 'C9-24-3', copy: { ...big, bookings }, index: bigIndex, sessionFilter: null, now: 0 })).toMatchObject({ kind: 'CHECKED_IN', sessionId: 19 });
    expect({ indexGets: bigIndex.gets, indexWalks: bigIndex.walks, bookingWalks: counts.walks }).toEqual({ indexGets: 1, indexWalks: 0, bookingWalks: 0 });
    expect(counts.gets).toBeLessThanOrEqual(2);
  });
});

describe('the outbox', () => {
  const scanItem = (eventId: string, admit: boolean, participantIds: number[]): OutboxItem => ({
    eventId,
    kind: 'scan',
    body: { code: 'G1', eventId, occurredAt: '2030-01-01T03:00:00Z', device: 'Pier phone' },
    local: { admit, result: 'CHECKED_IN', label: 'Grace Hopper', sessionId: 1, participantIds },
    queuedAt: '2030-01-01T03:00:00Z',
    attempts: 0,
  });

  it('keeps one item per eventId, oldest first, until the engine has answered it', () => {
    let outbox = addToOutbox([], scanItem('e1', true, [1]));
    outbox = addToOutbox(outbox, scanItem('e2', true, [2]));
    outbox = addToOutbox(outbox, scanItem('e1', true, [1]));
    expect(outbox.map((q) => q.eventId)).toEqual(['e1', 'e2']);
    expect(removeFromOutbox(outbox, ['e1']).map((q) => q.eventId)).toEqual(['e2']);
  });

  it('names a correction when the engine did not admit what the device admitted, and none when they agree', () => {
    const item = scanItem('e1', true, [1]);
    expect(correctionOf(item, aSessionScan({ result: 'CHECKED_IN', checkedIn: true, message: 'ok', eventId: 'e1' }), new Date())).toBeNull();
    expect(correctionOf(item, aSessionScan({ result: 'BOOKING_CANCELLED', checkedIn: false, message: 'Do not admit: booking T1-1 was cancelled at 2030-01-01 14:40', eventId: 'e1' }), new Date())).toMatchObject({
      label: 'Grace Hopper',
      local: 'checked in on this device',
      server: 'not checked in: booking cancelled',
    });
    expect(disagrees({ admit: false }, aSessionScan({ result: 'CHECKED_IN', checkedIn: true, message: '', eventId: 'x' }))).toBe(true);
  });

  it('raises no correction when another device checked the person in meanwhile: they are in, as the device showed', () => {
    const item = scanItem('e2', true, [1]);
    const alreadyIn = aSessionScan({ result: 'ALREADY_CHECKED_IN', checkedIn: false, message: 'Already checked in at 12:40 by Phone 2', eventId: 'e2' });
    expect(disagrees({ admit: true }, alreadyIn)).toBe(false);
    expect(correctionOf(item, alreadyIn, new Date())).toBeNull();
    // Refused here and already in there still differ from what the device showed.
    expect(disagrees({ admit: false }, aSessionScan({ result: 'CHECKED_IN', checkedIn: true, message: '', eventId: 'e3' }))).toBe(true);
  });

  it('lays check-ins still waiting over a fresh copy from the engine', () => {
    const p = aParticipant('Grace', 'G9');
    const copy = copyOfManifests([aManifest(1, '2030-01-01 14:00:00', [aBookingOf('T1-1', [p])])]);
    const shown = withPending(copy, [scanItem('e9', true, [p.id])]);
    expect(shown.bookings['1 T1-1'].participants[0].checkin).toMatchObject({ state: 'CHECKED_IN', eventId: `e9.${p.id}`, device: 'Pier phone' });
    expect(copy.bookings['1 T1-1'].participants[0].checkin.state).toBe('EXPECTED');
    expect(withPending(copy, [scanItem('e8', false, [p.id])])).toBe(copy);
  });
});

describe('the app’s URLs', () => {
  it('names every screen by a URL that reads back to it', () => {
    const screens = [{ name: 'board' }, { name: 'session', sessionId: 12 }, { name: 'walkup', sessionId: 12 }, { name: 'scan', sessionId: null }, { name: 'scan', sessionId: 7 }, { name: 'pair' }] as const;
    for (const screen of screens) {
      const [path, search = ''] = urlOf(screen).split('?');
      expect(parseRoute(path, search).screen).toEqual(screen);
    }
    expect(urlOf({ name: 'board' }, '2030-01-02')).toBe('/?date=2030-01-02');
    expect(parseRoute('/', 'date=2030-01-02').boardDate).toBe('2030-01-02');
    expect(parseRoute('/sessions/abc', '').screen).toEqual({ name: 'board' });
    expect(parseRoute('/scan', 'session=x').screen).toEqual({ name: 'scan', sessionId: null });
  });
});
