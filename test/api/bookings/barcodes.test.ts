import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBookingRow, type BookingRowInput } from '../../fixtures/bookingRows';
import { aProductWithSession, CHECKIN_TABLES } from '../../fixtures/manifest';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const CODE_TABLES = ['participants', 'order_barcodes', 'revoked_codes', 'op_log'];
const reissue = (orderNumber: string, body: object = {}, role: 'supplier' | 'checkin' | 'agent' = 'supplier') =>
  t.call('POST', `/v1/bookings/${orderNumber}/barcodes/reissue`, { body, role });
const scan = (body: object) => t.call('POST', '/v1/manifest/scan', { body, role: 'checkin' });

async function aBooking(input: Partial<BookingRowInput> = {}) {
  const s = await aProductWithSession(t);
  return { ...s, ...aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'PARTICIPANT', names: ['Grace', 'Alan'], ...input }) };
}

describe('POST /v1/bookings/{orderNumber}/barcodes/reissue', () => {
  it("gives one participant a new code; the old one then scans CODE_REVOKED naming the booking, the new one checks in", async () => {
    const b = await aBooking();
    t.clock.set('2030-01-02T20:15:00Z');
    const res = await reissue(b.orderNumber, { participantId: String(b.participantIds[0]) });
    expect(res.status).toBe(200);
    expect(res.body.requestStatus.success).toBe(true);
    const [entry] = res.body.reissued;
    expect(res.body.reissued).toHaveLength(1);
    expect(entry).toMatchObject({ participantId: b.participantIds[0], revokedCode: b.participantCodes[0] });
    expect(entry.code).not.toBe(b.participantCodes[0]);
    expect(res.body.reissuedAt).toBe('2030-01-02T20:15:00Z');
    const participants = res.body.booking.items[0].participants;
    expect(participants.map((p: any) => p.barcode)).toEqual([entry.code, b.participantCodes[1]]);

    const old = await scan({ code: b.participantCodes[0], device: 'Gate' });
    expect(old.status).toBe(200);
    expect(old.body.scan).toMatchObject({
      result: 'CODE_REVOKED',
      checkedIn: false,
      revokedCode: { code: b.participantCodes[0], orderNumber: b.orderNumber, revokedAtLocal: '2030-01-03 07:15:00' },
      booking: { orderNumber: b.orderNumber },
      participants: [{ id: b.participantIds[0], name: 'Grace' }],
      attention: false,
    });
    expect(old.body.scan.message).toBe(`Code revoked: booking ${b.orderNumber} was given a new code at Thu, 3 Jan 2030, 7:15 am; scan the new code or search by name`);
    expect((await scan({ code: b.participantCodes[0], override: true })).body.scan).toMatchObject({ result: 'CODE_REVOKED', checkedIn: false });
    expect(t.sql.prepare("SELECT count(*) AS n FROM checkin_events WHERE kind = 'CHECK_IN' AND participant_id = ?").get(b.participantIds[0])).toEqual({ n: 0 });
    expect((await scan({ code: entry.code })).body.scan).toMatchObject({ result: 'CHECKED_IN', checkedIn: true });
    expect((await scan({ code: b.participantCodes[1] })).body.scan.result).toBe('CHECKED_IN');
  });

  it('reissues every code of the order without participantId, and records each revoked code', async () => {
    const s = await aProductWithSession(t);
    const order = aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'ORDER', quantities: [{ label: 'Adult', value: 3 }] });
    const res = await reissue(order.orderNumber);
    expect(res.status).toBe(200);
    expect(res.body.reissued).toEqual([{ participantId: null, itemId: null, code: expect.any(String), revokedCode: order.orderCode }]);
    expect(res.body.booking.barcode).toBe(res.body.reissued[0].code);
    const stored = t.sql.prepare('SELECT code, order_number, replaced_by FROM revoked_codes WHERE order_number = ?').all(order.orderNumber);
    expect(stored).toEqual([{ code: order.orderCode, order_number: order.orderNumber, replaced_by: res.body.reissued[0].code }]);
    expect(t.sql.prepare("SELECT count(*) AS n FROM op_log WHERE entity = 'revoked_code' AND entity_id = ?").get(order.orderCode)).toEqual({ n: 1 });
    const old = await scan({ code: order.orderCode });
    expect(old.body.scan).toMatchObject({ result: 'CODE_REVOKED', checkedIn: false });
    expect(old.body.scan.participants).toHaveLength(3);
    const fresh = await scan({ code: res.body.reissued[0].code });
    expect(fresh.body.scan.checkedInParticipantIds).toHaveLength(3);
  });

  it('reissues a code twice: both earlier codes answer CODE_REVOKED', async () => {
    const b = await aBooking();
    const first = (await reissue(b.orderNumber, { participantId: b.participantIds[1] })).body.reissued[0].code;
    const second = (await reissue(b.orderNumber, { participantId: b.participantIds[1] })).body.reissued[0].code;
    expect(second).not.toBe(first);
    for (const code of [b.participantCodes[1], first]) expect((await scan({ code })).body.scan.result).toBe('CODE_REVOKED');
    expect((await scan({ code: second })).body.scan.result).toBe('CHECKED_IN');
  });

  it('refuses what cannot be reissued with the envelope and changes nothing', async () => {
    const b = await aBooking();
    const s = await aProductWithSession(t);
    const order = aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'ORDER' });
    const noCodes = aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: null });
    const cancelled = aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'PARTICIPANT', status: 'CANCELLED' });
    const before = t.snapshot(...CODE_TABLES);
    const cases: [string, object, number, string, RegExp][] = [
      ['T9-99999', {}, 404, '24', /No order found/],
      [b.orderNumber, { participantId: 'abc' }, 400, 'VALIDATION_ERROR', /participantId/],
      [b.orderNumber, { participantId: order.participantIds[0] }, 404, 'NOT_FOUND', /is not part of booking/],
      [order.orderNumber, { participantId: order.participantIds[0] }, 409, 'INVALID_STATE', /has no code of their own/],
      [noCodes.orderNumber, {}, 409, 'INVALID_STATE', /has no codes to reissue/],
      [cancelled.orderNumber, {}, 409, 'INVALID_STATE', /is cancelled/],
    ];
    for (const [orderNumber, body, status, errorCode, message] of cases) {
      const res = await reissue(orderNumber, body);
      expect(res.status).toBe(status);
      expect(res.body.requestStatus.success).toBe(false);
      expect(res.body.requestStatus.error.errorCode).toBe(errorCode);
      expect(res.body.requestStatus.error.errorMessage).toMatch(message);
    }
    expect(t.snapshot(...CODE_TABLES)).toEqual(before);
  });

  it('is refused to checkin and agent keys with 403 and changes nothing', async () => {
    const b = await aBooking();
    const before = t.snapshot(...CODE_TABLES, ...CHECKIN_TABLES);
    for (const role of ['checkin', 'agent'] as const) {
      const res = await reissue(b.orderNumber, {}, role);
      expect(res.status).toBe(403);
      expect(res.body.requestStatus.error.errorCode).toBe('FORBIDDEN');
      expect(res.body.requestStatus.error.errorMessage).toBeTruthy();
    }
    expect(t.snapshot(...CODE_TABLES, ...CHECKIN_TABLES)).toEqual(before);
  });

  it('takes the new code from the imported list for an EXTERNAL product, and refuses with 409 when none is left', async () => {
    const s = await aProductWithSession(t, { product: { qrCodeType: 'EXTERNAL' } });
    const b = aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'PARTICIPANT', names: ['Grace', 'Alan'] });
    t.sql.prepare('INSERT INTO external_codes (code, product_code, assigned_to, imported_at) VALUES (?, ?, NULL, 0)').run('EXT-0001', s.productCode);
    const res = await reissue(b.orderNumber, { participantId: b.participantIds[0] });
    expect(res.status).toBe(200);
    expect(res.body.reissued[0].code).toBe('EXT-0001');
    expect(t.sql.prepare('SELECT assigned_to FROM external_codes WHERE code = ?').get('EXT-0001')).toEqual({ assigned_to: b.orderNumber });
    const before = t.snapshot(...CODE_TABLES, 'external_codes');
    const empty = await reissue(b.orderNumber, { participantId: b.participantIds[1] });
    expect(empty.status).toBe(409);
    expect(empty.body.requestStatus.error).toMatchObject({ errorCode: 'CONFLICT', errorMessage: expect.stringMatching(/no external QR codes left/) });
    expect(t.snapshot(...CODE_TABLES, 'external_codes')).toEqual(before);
  });
});

