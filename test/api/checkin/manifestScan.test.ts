import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBookingRow, type BookingRowInput } from '../../fixtures/bookingRows';
import { aProductWithSession, CHECKIN_TABLES } from '../../fixtures/manifest';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const scan = (body: object, role: 'supplier' | 'checkin' | 'agent' = 'checkin') => t.call('POST', '/v1/manifest/scan', { body, role });

async function aBooking(input: Partial<BookingRowInput> = {}, product = {}) {
  const s = await aProductWithSession(t, { product });
  const booking = aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'PARTICIPANT', names: [{ first: 'Grace', last: 'Hopper' }, 'Alan'], ...input });
  return { ...s, ...booking };
}

describe('POST /v1/manifest/scan', () => {
  it('checks in a participant code and answers a sentence to read aloud with the booking context', async () => {
    const b = await aBooking({ pickup: { locationName: 'Pier 1' }, extras: [{ name: 'Lunch', quantity: 2 }], internalNotes: 'Vegan lunch' });
    t.clock.set('2030-01-02T21:52:00Z');
    const res = await scan({ code: b.participantCodes[0], sessionId: b.sessionId, device: 'Pier tablet', eventId: randomUUID() });
    expect(res.status).toBe(200);
    expect(res.body.requestStatus.success).toBe(true);
    const answer = res.body.scan;
    expect(answer).toMatchObject({ result: 'CHECKED_IN', checkedIn: true, message: 'Checked in at 8:52 am by Pier tablet' });
    expect(answer.participants).toHaveLength(1);
    expect(answer.participants[0]).toMatchObject({ id: b.participantIds[0], name: 'Grace Hopper', checkin: { state: 'CHECKED_IN', device: 'Pier tablet', atLocal: '2030-01-03 08:52:00' } });
    expect(answer.participants[0].history.map((h: any) => h.kind).sort()).toEqual(['CHECK_IN', 'SCAN']);
    expect(answer.booking).toMatchObject({
      orderNumber: b.orderNumber,
      customer: { name: 'Ada Lovelace', phone: '+61 400 000 000' },
      quantities: [{ optionLabel: 'Adult', value: 2 }],
      extras: [{ name: 'Lunch', quantity: 2 }],
      pickup: { locationName: 'Pier 1' },
      notes: { internalNotes: 'Vegan lunch' },
      attention: true,
      attentionReasons: ['NOTE'],
    });
  });

  it('finds a code typed by hand in lower case, and still tells apart an imported code that differs only in case', async () => {
    const b = await aBooking();
    const lower = b.participantCodes[0]!.toLowerCase();
    expect(lower).not.toBe(b.participantCodes[0]);
    const res = await scan({ code: lower, sessionId: b.sessionId });
    expect(res.body.scan).toMatchObject({ result: 'CHECKED_IN', checkedIn: true, code: lower, participants: [{ id: b.participantIds[0] }] });
    // A second participant whose (imported) code is exactly the lower-case spelling of the first's: exact wins.
    t.sql.prepare('UPDATE participants SET barcode = ? WHERE id = ?').run(lower, b.participantIds[1]);
    expect((await scan({ code: lower, sessionId: b.sessionId })).body.scan).toMatchObject({ result: 'CHECKED_IN', participants: [{ id: b.participantIds[1] }] });
    expect((await scan({ code: 'no-such-code', sessionId: b.sessionId })).body.scan).toMatchObject({ result: 'UNKNOWN_CODE', checkedIn: false });
  });

  it('answers ALREADY_CHECKED_IN, with when and by which device, for a new scan of a checked-in participant', async () => {
    const b = await aBooking();
    t.clock.set('2030-01-02T21:10:00Z');
    await scan({ code: b.participantCodes[1], device: 'Bus 2' });
    t.clock.set('2030-01-02T21:30:00Z');
    const before = t.snapshot('participants', 'bookings');
    const res = await scan({ code: b.participantCodes[1], device: 'Pier tablet' });
    expect(res.status).toBe(200);
    expect(res.body.scan).toMatchObject({ result: 'ALREADY_CHECKED_IN', checkedIn: false, message: 'Already checked in at 8:10 am by Bus 2' });
    expect(t.snapshot('participants', 'bookings')).toEqual(before);
    const refused = t.sql.prepare("SELECT result FROM checkin_events WHERE kind = 'SCAN' AND code = ? ORDER BY recorded_at").all(b.participantCodes[1]);
    expect(refused).toEqual([{ result: 'CHECKED_IN' }, { result: 'ALREADY_CHECKED_IN' }]);
  });

  it('returns the first answer for a resent eventId and changes nothing', async () => {
    const b = await aBooking();
    const eventId = randomUUID();
    const first = await scan({ code: b.participantCodes[0], eventId, device: 'A' });
    const before = t.snapshot(...CHECKIN_TABLES);
    t.clock.advance(60_000);
    const again = await scan({ code: b.participantCodes[0], eventId, device: 'A' });
    expect(again.status).toBe(200);
    expect(again.body.scan).toEqual(first.body.scan);
    expect(again.body.scan.result).toBe('CHECKED_IN');
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
  });

  it('answers WRONG_SESSION with the session the code belongs to, and checks in only with override', async () => {
    const b = await aBooking();
    const other = await aProductWithSession(t, { startTime: '2030-01-03T01:00:00Z' });
    const res = await scan({ code: b.participantCodes[0], sessionId: other.sessionId });
    expect(res.body.scan).toMatchObject({ result: 'WRONG_SESSION', checkedIn: false, belongsTo: { sessionId: b.sessionId, startTimeLocal: '2030-01-03 10:00:00' } });
    expect(res.body.scan.message).toMatch(/Wrong session: this booking is for Old Town Walk at Thu, 3 Jan 2030, 10:00 am/);
    const manifest = (await t.call('GET', `/v1/manifest?sessionId=${b.sessionId}`)).body.manifest;
    expect(manifest.totals.checkedIn).toBe(0);
    const overridden = await scan({ code: b.participantCodes[0], sessionId: other.sessionId, override: true });
    expect(overridden.body.scan).toMatchObject({ result: 'WRONG_SESSION', checkedIn: true, overrides: ['WRONG_SESSION'] });
    const row = t.sql.prepare("SELECT override_json FROM checkin_events WHERE kind = 'CHECK_IN' AND participant_id = ?").get(b.participantIds[0]) as { override_json: string };
    expect(JSON.parse(row.override_json)).toMatchObject({ rules: ['WRONG_SESSION'], scannedSessionId: other.sessionId });
  });

  it('answers BOOKING_CANCELLED and checks nobody in', async () => {
    const b = await aBooking({ status: 'CANCELLED', cancelledAt: Date.parse('2030-01-02T21:40:00Z') });
    const res = await scan({ code: b.participantCodes[0], override: true });
    expect(res.status).toBe(200);
    expect(res.body.scan).toMatchObject({ result: 'BOOKING_CANCELLED', checkedIn: false });
    expect(res.body.scan.message).toBe(`Do not admit: booking ${b.orderNumber} was cancelled at Thu, 3 Jan 2030, 8:40 am`);
    expect(t.sql.prepare("SELECT count(*) AS n FROM checkin_events WHERE kind = 'CHECK_IN' AND order_number = ?").get(b.orderNumber)).toEqual({ n: 0 });
  });

  it('answers NOT_PAID and checks in anyway with a warning', async () => {
    const b = await aBooking({ payments: [{ amountMinor: 3000 }] });
    const res = await scan({ code: b.participantCodes[0] });
    expect(res.body.scan).toMatchObject({ result: 'NOT_PAID', checkedIn: true, booking: { payment: { totalAmount: 100, totalPaid: 30, totalDue: 70, paid: false } } });
    expect(res.body.requestStatus.warning.warningMessage).toMatch(/\$70\.00 still to pay/);
  });

  it('refuses NOT_PAID when the product requires payment for check-in, unless overridden', async () => {
    const b = await aBooking({ payments: [{ amountMinor: 10000 }, { amountMinor: 2000, refund: true }] }, { checkinRequiresPayment: true });
    const res = await scan({ code: b.participantCodes[0] });
    expect(res.body.scan).toMatchObject({ result: 'NOT_PAID', checkedIn: false, message: 'Not checked in: $20.00 still to pay before boarding' });
    const overridden = await scan({ code: b.participantCodes[0], override: true });
    expect(overridden.body.scan).toMatchObject({ result: 'NOT_PAID', checkedIn: true, overrides: ['NOT_PAID'] });
  });

  it('answers UNKNOWN_CODE, and stores the refused scan', async () => {
    const eventId = randomUUID();
    const res = await scan({ code: 'NOPE-123', eventId });
    expect(res.status).toBe(200);
    expect(res.body.scan).toMatchObject({ result: 'UNKNOWN_CODE', checkedIn: false });
    expect(res.body.scan.participants).toBeUndefined();
    expect(t.sql.prepare('SELECT kind, result FROM checkin_events WHERE event_id = ?').get(eventId)).toEqual({ kind: 'SCAN', result: 'UNKNOWN_CODE' });
  });

  it('checks in every participant of the booking for an order code, or only those listed', async () => {
    const s = await aProductWithSession(t);
    const all = aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'ORDER', quantities: [{ label: 'Adult', value: 3 }] });
    const res = await scan({ code: all.orderCode, device: 'Gate' });
    expect(res.body.scan).toMatchObject({ result: 'CHECKED_IN', checkedIn: true, message: expect.stringMatching(/^3 checked in at/) });
    expect(res.body.scan.checkedInParticipantIds.sort()).toEqual([...all.participantIds].sort());
    const some = aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'ORDER', quantities: [{ label: 'Adult', value: 3 }] });
    const partial = await scan({ code: some.orderCode, participantIds: [some.participantIds[1]] });
    expect(partial.body.scan.checkedInParticipantIds).toEqual([some.participantIds[1]]);
    const rest = await scan({ code: some.orderCode });
    expect(rest.body.scan.checkedInParticipantIds.sort()).toEqual([some.participantIds[0], some.participantIds[2]].sort());
    expect((await scan({ code: some.orderCode })).body.scan.result).toBe('ALREADY_CHECKED_IN');
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const b = await aBooking();
    const before = t.snapshot(...CHECKIN_TABLES);
    const cases: [object, RegExp][] = [
      [{}, /code/],
      [{ code: '' }, /code/],
      [{ code: b.participantCodes[0], eventId: 'not-a-uuid' }, /eventId: must be a UUID/],
      [{ code: b.participantCodes[0], occurredAt: 'yesterday' }, /occurredAt/],
      [{ code: b.participantCodes[0], sessionId: 'abc' }, /sessionId/],
    ];
    for (const [body, message] of cases) {
      const res = await scan(body);
      expect(res.status).toBe(400);
      expect(res.body.requestStatus.error.errorCode).toBe('VALIDATION_ERROR');
      expect(res.body.requestStatus.error.errorMessage).toMatch(message);
    }
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
    const s = await aProductWithSession(t);
    const order = aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'ORDER' });
    const snapshot = t.snapshot(...CHECKIN_TABLES);
    const wrongIds = await scan({ code: order.orderCode, participantIds: [b.participantIds[0]] });
    expect(wrongIds.status).toBe(400);
    expect(wrongIds.body.requestStatus.error.errorMessage).toMatch(/are not participants of/);
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(snapshot);
  });

  it('refuses an eventId already used by another kind of event with 409', async () => {
    const b = await aBooking();
    const eventId = randomUUID();
    await t.call('POST', '/v1/manifest/events', { body: { events: [{ eventId, kind: 'NO_SHOW', participantId: b.participantIds[0], sessionId: b.sessionId, occurredAt: '2030-01-02T23:30:00Z' }] } });
    const before = t.snapshot(...CHECKIN_TABLES);
    const res = await scan({ code: b.participantCodes[0], eventId });
    expect(res.status).toBe(409);
    expect(res.body.requestStatus.error.errorCode).toBe('DUPLICATE');
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
  });

  it('is refused to agent keys with 403 and allowed to supplier keys', async () => {
    const b = await aBooking();
    const before = t.snapshot(...CHECKIN_TABLES);
    const res = await scan({ code: b.participantCodes[0] }, 'agent');
    expect(res.status).toBe(403);
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
    expect((await scan({ code: b.participantCodes[0] }, 'supplier')).body.scan.result).toBe('CHECKED_IN');
  });
});
