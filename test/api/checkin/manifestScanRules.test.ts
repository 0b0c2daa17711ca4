import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBookingRow, type BookingRowInput } from '../../fixtures/bookingRows';
import { aScannableProduct } from '../../fixtures/builders';
import { aProductWithSession } from '../../fixtures/manifest';
import type { ProductBody } from '../../../main/contract/products';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const scan = (body: object, role: 'supplier' | 'checkin' | 'agent' = 'checkin') => t.call('POST', '/v1/manifest/scan', { body, role });
const checkinKeyId = () => (t.sql.prepare("SELECT id FROM api_keys WHERE name = 'Test checkin'").get() as { id: number }).id;
const checkIns = (participantId: number) =>
  t.sql.prepare("SELECT result, note, override_json FROM checkin_events WHERE kind = 'CHECK_IN' AND participant_id = ? ORDER BY recorded_at, event_id").all(participantId) as { result: string; note: string | null; override_json: string | null }[];
const STATE_TABLES = ['bookings', 'participants'];

async function aBooking(input: Partial<BookingRowInput> = {}, product: Partial<ProductBody> = {}) {
  const s = await aProductWithSession(t, { product });
  const booking = aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'PARTICIPANT', names: [{ first: 'Grace', last: 'Hopper' }, 'Alan'], ...input });
  return { ...s, ...booking };
}

const manifestParticipant = async (sessionId: number, participantId: number) => {
  const manifest = (await t.call('GET', `/v1/manifest?sessionId=${sessionId}`)).body.manifest;
  return manifest.bookings.flatMap((b: any) => b.participants).find((p: any) => p.id === participantId);
};

describe('POST /v1/manifest/scan: CHECKIN_CLOSED', () => {
  it('answers CHECKIN_CLOSED after the session was closed, checks nobody in, and admits only with override (recorded with key and device)', async () => {
    const b = await aBooking();
    const close = randomUUID();
    await t.call('POST', '/v1/manifest/events', { body: { events: [{ eventId: close, kind: 'CLOSE', sessionId: b.sessionId, occurredAt: '2030-01-02T23:05:00Z' }] } });
    const before = t.snapshot(...STATE_TABLES);
    const refused = await scan({ code: b.participantCodes[0], device: 'Pier tablet' });
    expect(refused.status).toBe(200);
    expect(refused.body.scan).toMatchObject({ result: 'CHECKIN_CLOSED', checkedIn: false, overrides: [], message: 'Check-in is closed for Old Town Walk at 10:00 am' });
    expect(checkIns(b.participantIds[0])).toEqual([]);
    expect(t.snapshot(...STATE_TABLES)).toEqual(before);

    const admitted = await scan({ code: b.participantCodes[0], device: 'Pier tablet', override: true });
    expect(admitted.body.scan).toMatchObject({ result: 'CHECKIN_CLOSED', checkedIn: true, overrides: ['CHECKIN_CLOSED'] });
    expect(admitted.body.scan.message).toMatch(/override: check-in was closed/);
    const [row] = checkIns(b.participantIds[0]);
    expect(JSON.parse(row.override_json!)).toEqual({ rules: ['CHECKIN_CLOSED'], by: 'Test checkin', apiKeyId: checkinKeyId(), device: 'Pier tablet', scannedSessionId: null });
    const participant = await manifestParticipant(b.sessionId, b.participantIds[0]);
    expect(participant.checkin.state).toBe('CHECKED_IN');
    expect(participant.history).toEqual([expect.objectContaining({ kind: 'CHECK_IN', device: 'Pier tablet', by: 'Test checkin', override: expect.objectContaining({ rules: ['CHECKIN_CLOSED'] }) })]);
  });

  it('answers ALREADY_CHECKED_IN, not CHECKIN_CLOSED, for someone checked in before the close', async () => {
    const b = await aBooking();
    expect((await scan({ code: b.participantCodes[0] })).body.scan).toMatchObject({ result: 'CHECKED_IN', checkedIn: true });
    await t.call('POST', '/v1/manifest/events', { body: { events: [{ eventId: randomUUID(), kind: 'CLOSE', sessionId: b.sessionId, occurredAt: '2030-01-02T23:05:00Z' }] } });
    expect((await scan({ code: b.participantCodes[0] })).body.scan).toMatchObject({ result: 'ALREADY_CHECKED_IN', checkedIn: false });
    // Anyone not in yet is still refused by the close.
    expect((await scan({ code: b.participantCodes[1] })).body.scan).toMatchObject({ result: 'CHECKIN_CLOSED', checkedIn: false });
  });

  it('scans normally again once the session is reopened', async () => {
    const b = await aBooking();
    await t.call('POST', '/v1/manifest/events', {
      body: {
        events: [
          { eventId: randomUUID(), kind: 'CLOSE', sessionId: b.sessionId, occurredAt: '2030-01-02T23:05:00Z' },
          { eventId: randomUUID(), kind: 'REOPEN', sessionId: b.sessionId, occurredAt: '2030-01-02T23:06:00Z' },
        ],
      },
    });
    expect((await scan({ code: b.participantCodes[1] })).body.scan).toMatchObject({ result: 'CHECKED_IN', checkedIn: true, overrides: [] });
  });
});

describe('POST /v1/manifest/scan: NOT_YET_OPEN (checkinOpensMinutesBefore)', () => {
  it('answers NOT_YET_OPEN before start minus checkinOpensMinutesBefore and checks in from then on', async () => {
    const b = await aBooking({}, { checkinOpensMinutesBefore: 60 });
    t.clock.set('2030-01-02T21:30:00Z');
    const before = t.snapshot(...STATE_TABLES);
    const early = await scan({ code: b.participantCodes[0] });
    expect(early.body.scan).toMatchObject({ result: 'NOT_YET_OPEN', checkedIn: false, message: 'Too early: check-in opens at 9:00 am', checkinOpensAtLocal: '2030-01-03 09:00:00' });
    expect(t.snapshot(...STATE_TABLES)).toEqual(before);
    expect(checkIns(b.participantIds[0])).toEqual([]);
    // The device's occurredAt decides, not the upload time.
    const onTime = await scan({ code: b.participantCodes[0], occurredAt: '2030-01-02T22:00:00Z' });
    expect(onTime.body.scan).toMatchObject({ result: 'CHECKED_IN', checkedIn: true });
  });

  it('checks in too early only with override, recording NOT_YET_OPEN', async () => {
    const b = await aBooking({}, { checkinOpensMinutesBefore: 30 });
    t.clock.set('2030-01-02T20:00:00Z');
    const res = await scan({ code: b.participantCodes[1], override: true, device: 'Gate' });
    expect(res.body.scan).toMatchObject({ result: 'NOT_YET_OPEN', checkedIn: true, overrides: ['NOT_YET_OPEN'] });
    expect(JSON.parse(checkIns(b.participantIds[1])[0].override_json!)).toMatchObject({ rules: ['NOT_YET_OPEN'], device: 'Gate' });
  });

  it('is always open when the product leaves checkinOpensMinutesBefore unset', async () => {
    const b = await aBooking();
    t.clock.set('2029-12-01T00:00:00Z');
    expect((await scan({ code: b.participantCodes[0] })).body.scan).toMatchObject({ result: 'CHECKED_IN', checkinOpensAtLocal: null });
  });
});

describe('product extension checkinOpensMinutesBefore', () => {
  it('is stored, read back, and cleared with null', async () => {
    const created = await t.call('POST', '/v1/products', { body: aScannableProduct({ checkinOpensMinutesBefore: '45' as unknown as number }) });
    expect(created.status).toBe(200);
    const code = created.body.product.productCode;
    expect(created.body.product.checkinOpensMinutesBefore).toBe(45);
    const cleared = await t.call('PUT', `/v1/products/${code}`, { body: { checkinOpensMinutesBefore: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.product.checkinOpensMinutesBefore).toBeUndefined();
    expect((await t.call('GET', `/v1/products/${code}`)).body.product.checkinOpensMinutesBefore).toBeUndefined();
  });

  it('refuses a negative or non-numeric value with 400 and changes nothing', async () => {
    const code = (await t.call('POST', '/v1/products', { body: aScannableProduct({ checkinOpensMinutesBefore: 15 }) })).body.product.productCode;
    const before = t.snapshot('products');
    for (const value of [-5, 'soon', 2.5]) {
      const res = await t.call('PUT', `/v1/products/${code}`, { body: { checkinOpensMinutesBefore: value } });
      expect(res.status).toBe(400);
      expect(res.body.requestStatus.error.errorMessage).toMatch(/checkinOpensMinutesBefore/);
    }
    expect(t.snapshot('products')).toEqual(before);
  });
});

describe('POST /v1/manifest/scan: INCOMPLETE', () => {
  const PASSPORT = { bookingFields: [{ label: 'Passport', fieldType: 'String' as const, requiredPerParticipant: true, visiblePerParticipant: true }] };

  it('answers INCOMPLETE with the missing labels and checks in anyway with a warning', async () => {
    const b = await aBooking({}, PASSPORT);
    const res = await scan({ code: b.participantCodes[0] });
    expect(res.body.scan).toMatchObject({ result: 'INCOMPLETE', checkedIn: true, missingFields: ['Passport'], attention: true });
    expect(res.body.scan.attentionReasons).toContain('INCOMPLETE');
    expect(res.body.scan.participants[0].missingFields).toEqual(['Passport']);
    expect(res.body.requestStatus.warning.warningMessage).toMatch(/missing Passport/);
    expect(checkIns(b.participantIds[0])).toHaveLength(1);
  });

  it('answers CHECKED_IN once the required field is filled (labels compared in any case)', async () => {
    const b = await aBooking({}, PASSPORT);
    t.sql.prepare('UPDATE participants SET fields_json = ? WHERE id = ?').run(JSON.stringify([{ label: 'First Name', value: 'Grace' }, { label: 'passport', value: 'X123' }]), b.participantIds[0]);
    expect((await scan({ code: b.participantCodes[0] })).body.scan).toMatchObject({ result: 'CHECKED_IN', missingFields: [] });
  });

  it('refuses when the product enforces required fields, unless overridden', async () => {
    const b = await aBooking({}, { ...PASSPORT, enforceRequiredFields: true });
    const before = t.snapshot(...STATE_TABLES);
    const refused = await scan({ code: b.participantCodes[0] });
    expect(refused.body.scan).toMatchObject({ result: 'INCOMPLETE', checkedIn: false, message: 'Not checked in: missing Passport' });
    expect(refused.body.requestStatus.warning).toBeUndefined();
    expect(checkIns(b.participantIds[0])).toEqual([]);
    expect(t.snapshot(...STATE_TABLES)).toEqual(before);
    const overridden = await scan({ code: b.participantCodes[0], override: true });
    expect(overridden.body.scan).toMatchObject({ result: 'INCOMPLETE', checkedIn: true, overrides: ['INCOMPLETE'] });
  });
});

describe('POST /v1/manifest/scan: explicit overrides', () => {
  it('re-admits someone already checked in only with override, as a re-admission event; the first check-in stays the one reported', async () => {
    const b = await aBooking();
    t.clock.set('2030-01-02T22:10:00Z');
    await scan({ code: b.participantCodes[0], device: 'Bus 2' });
    t.clock.set('2030-01-02T22:40:00Z');
    const plain = await scan({ code: b.participantCodes[0], device: 'Gate' });
    expect(plain.body.scan).toMatchObject({ result: 'ALREADY_CHECKED_IN', checkedIn: false });
    expect(checkIns(b.participantIds[0])).toHaveLength(1);

    const again = await scan({ code: b.participantCodes[0], device: 'Gate', override: true });
    expect(again.body.scan).toMatchObject({ result: 'ALREADY_CHECKED_IN', checkedIn: true, overrides: ['ALREADY_CHECKED_IN'], checkedInParticipantIds: [b.participantIds[0]] });
    expect(again.body.scan.message).toBe('Re-admitted at 9:40 am by Gate (first checked in at 9:10 am by Bus 2)');
    const rows = checkIns(b.participantIds[0]);
    expect(rows.map((r) => [r.result, r.note])).toEqual([
      ['CHECKED_IN', null],
      ['READMITTED', 're-admission'],
    ]);
    expect(JSON.parse(rows[1].override_json!)).toMatchObject({ rules: ['ALREADY_CHECKED_IN'], apiKeyId: checkinKeyId(), device: 'Gate' });
    const participant = await manifestParticipant(b.sessionId, b.participantIds[0]);
    expect(participant.checkin).toMatchObject({ state: 'CHECKED_IN', device: 'Bus 2', atLocal: '2030-01-03 09:10:00' });
    expect(participant.history.map((h: any) => [h.result, h.override?.rules ?? null])).toEqual([
      ['CHECKED_IN', null],
      ['READMITTED', ['ALREADY_CHECKED_IN']],
    ]);
    const manifest = (await t.call('GET', `/v1/manifest?sessionId=${b.sessionId}`)).body.manifest;
    expect(manifest.totals).toMatchObject({ booked: 2, checkedIn: 1 });
  });

  it('stores who overrode NOT_PAID and the manifest history shows it', async () => {
    const b = await aBooking({ payments: [{ amountMinor: 1000 }] }, { checkinRequiresPayment: true });
    const res = await scan({ code: b.participantCodes[1], override: true, device: 'Pier tablet' }, 'checkin');
    expect(res.body.scan).toMatchObject({ result: 'NOT_PAID', checkedIn: true, overrides: ['NOT_PAID'] });
    const participant = await manifestParticipant(b.sessionId, b.participantIds[1]);
    expect(participant.history[0].override).toEqual({ rules: ['NOT_PAID'], by: 'Test checkin', apiKeyId: checkinKeyId(), device: 'Pier tablet', scannedSessionId: null });
  });

  it('records every rule a single override passes', async () => {
    const b = await aBooking({ payments: [] }, { checkinRequiresPayment: true, checkinOpensMinutesBefore: 10 });
    const other = await aProductWithSession(t, { startTime: '2030-01-03T02:00:00Z' });
    t.clock.set('2030-01-02T20:00:00Z');
    const res = await scan({ code: b.participantCodes[0], sessionId: other.sessionId, override: true });
    expect(res.body.scan).toMatchObject({ result: 'WRONG_SESSION', checkedIn: true, overrides: ['WRONG_SESSION', 'NOT_YET_OPEN', 'NOT_PAID'] });
    expect(JSON.parse(checkIns(b.participantIds[0])[0].override_json!)).toMatchObject({ rules: ['WRONG_SESSION', 'NOT_YET_OPEN', 'NOT_PAID'], scannedSessionId: other.sessionId });
  });

  it('keeps the refusal and stores no override when an unoverridable rule applies', async () => {
    const b = await aBooking({ status: 'CANCELLED' });
    const before = t.snapshot(...STATE_TABLES);
    const res = await scan({ code: b.participantCodes[0], override: true });
    expect(res.body.scan).toMatchObject({ result: 'BOOKING_CANCELLED', checkedIn: false, overrides: [] });
    expect(t.snapshot(...STATE_TABLES)).toEqual(before);
  });
});

describe('POST /v1/manifest/scan: day (a scanner serving all of a day’s departures)', () => {
  async function aBookingOn(startTime: string) {
    const s = await aProductWithSession(t, { startTime });
    return { ...s, ...aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'PARTICIPANT', names: ['Grace'] }) };
  }

  it('checks in a booking of that day, the day being the session’s local date', async () => {
    // 13:00 on 3 January in Sydney: still 2 January in UTC.
    const b = await aBookingOn('2030-01-03T02:00:00Z');
    const res = await scan({ code: b.participantCodes[0], day: '2030-01-03' });
    expect(res.body.scan).toMatchObject({ result: 'CHECKED_IN', checkedIn: true, belongsTo: null });
  });

  it('refuses another day’s booking, saying when it is, checks nobody in, and admits it only by override', async () => {
    const b = await aBookingOn('2030-01-05T02:00:00Z');
    const before = t.snapshot(...STATE_TABLES);
    const refused = await scan({ code: b.participantCodes[0], day: '2030-01-03', device: 'Pier phone' });
    expect(refused.status).toBe(200);
    expect(refused.body.scan).toMatchObject({ result: 'WRONG_SESSION', checkedIn: false, belongsTo: { sessionId: b.sessionId, startTimeLocal: '2030-01-05 13:00:00' } });
    expect(refused.body.scan.message).toMatch(/^Another day: this booking is for .* at Sat, 5 Jan 2030, 1:00 pm/);
    expect(t.snapshot(...STATE_TABLES)).toEqual(before);
    expect(checkIns(b.participantIds[0])).toEqual([]);

    const admitted = await scan({ code: b.participantCodes[0], day: '2030-01-03', override: true, device: 'Pier phone' });
    expect(admitted.body.scan).toMatchObject({ result: 'WRONG_SESSION', checkedIn: true, overrides: ['WRONG_SESSION'] });
    expect(JSON.parse(checkIns(b.participantIds[0])[0].override_json!)).toMatchObject({ rules: ['WRONG_SESSION'], device: 'Pier phone' });
  });

  it('leaves a scan without it as it was: the booking’s own session, whatever its day', async () => {
    const b = await aBookingOn('2030-01-05T02:00:00Z');
    expect((await scan({ code: b.participantCodes[0] })).body.scan).toMatchObject({ result: 'CHECKED_IN', checkedIn: true });
  });

  it('answers 400 in the envelope for a day that is not YYYY-MM-DD, and changes nothing', async () => {
    const b = await aBookingOn('2030-01-05T02:00:00Z');
    const before = t.snapshot(...STATE_TABLES, 'checkin_events');
    for (const day of ['05/01/2030', 20300105, '2030-1-5', '2030-13-45', '2030-02-30']) {
      const res = await scan({ code: b.participantCodes[0], day });
      expect(res.status).toBe(400);
      expect(res.body.requestStatus).toMatchObject({ success: false, error: { errorCode: 'VALIDATION_ERROR' } });
    }
    expect(t.snapshot(...STATE_TABLES, 'checkin_events')).toEqual(before);
  });
});

describe('POST /v1/manifest/scan: attention and history on every known code', () => {
  it('flags a participant special field, a note and an unpaid balance, with history, also on a refused answer', async () => {
    const b = await aBooking({ payments: [], internalNotes: 'Meet at side door' });
    t.sql.prepare('UPDATE participants SET fields_json = ? WHERE id = ?').run(JSON.stringify([{ label: 'First Name', value: 'Grace' }, { label: 'Dietary', value: 'Vegan' }]), b.participantIds[0]);
    const first = await scan({ code: b.participantCodes[0], device: 'Gate' });
    expect(first.body.scan).toMatchObject({ result: 'NOT_PAID', attention: true, attentionReasons: ['NOTE', 'UNPAID', 'SPECIAL_FIELD'] });
    const again = await scan({ code: b.participantCodes[0], device: 'Gate' });
    expect(again.body.scan).toMatchObject({ result: 'ALREADY_CHECKED_IN', checkedIn: false, attention: true, attentionReasons: ['NOTE', 'UNPAID', 'SPECIAL_FIELD'] });
    expect(again.body.scan.participants[0].history.map((h: any) => h.kind)).toEqual(['SCAN', 'CHECK_IN', 'SCAN']);
  });

  it('answers attention false with no reasons for a paid booking without notes or special fields', async () => {
    const b = await aBooking();
    expect((await scan({ code: b.participantCodes[0] })).body.scan).toMatchObject({ result: 'CHECKED_IN', attention: false, attentionReasons: [] });
  });

  it('carries attention on a cancelled booking answer and none on an unknown code', async () => {
    const b = await aBooking({ status: 'CANCELLED', comments: 'Called to cancel' });
    const res = await scan({ code: b.participantCodes[0] });
    expect(res.body.scan).toMatchObject({ result: 'BOOKING_CANCELLED', attention: true, attentionReasons: ['NOTE'] });
    expect(res.body.scan.participants[0].history).toEqual([expect.objectContaining({ kind: 'SCAN', result: 'BOOKING_CANCELLED' })]);
    const unknown = await scan({ code: 'NOTHING-HERE', eventId: randomUUID() });
    expect(unknown.body.scan.result).toBe('UNKNOWN_CODE');
    expect(unknown.body.scan.attention).toBeUndefined();
  });

  it('answers a code of an item without a session with attention and history, and checks nobody in', async () => {
    const b = await aBooking({ payments: [], comments: 'Open-date ticket' });
    t.sql.prepare('UPDATE booking_items SET session_id = NULL WHERE id = ?').run(b.itemId);
    const res = await scan({ code: b.participantCodes[0] });
    expect(res.status).toBe(200);
    expect(res.body.scan).toMatchObject({ result: 'WRONG_SESSION', checkedIn: false, orderNumber: b.orderNumber, attention: true, attentionReasons: ['NOTE', 'UNPAID'] });
    expect(res.body.scan.participants).toEqual([expect.objectContaining({ id: b.participantIds[0], name: 'Grace Hopper', history: [expect.objectContaining({ kind: 'SCAN', result: 'WRONG_SESSION' })] })]);
    expect(checkIns(b.participantIds[0])).toEqual([]);
  });
});
