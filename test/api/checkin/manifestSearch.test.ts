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

const search = (query: string, role: 'supplier' | 'checkin' | 'agent' = 'checkin') => t.call('GET', `/v1/manifest/search?${query}`, { role });
const LOCAL = encodeURIComponent('2030-01-03 10:00:00');

async function aBooking(input: Partial<BookingRowInput> = {}, startTime?: string) {
  const s = await aProductWithSession(t, { startTime });
  return { ...s, ...aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'PARTICIPANT', ...input }) };
}

describe('GET /v1/manifest/search', () => {
  it("finds a booking by participant name (any case, accents ignored) and answers a scan's context", async () => {
    const b = await aBooking({ names: [{ first: 'José', last: 'Álvarez' }, 'Marta'], internalNotes: 'Wheelchair', payments: [] });
    await t.call('POST', '/v1/manifest/scan', { body: { code: b.participantCodes[1], device: 'Gate' }, role: 'checkin' });
    const res = await search(`q=jose%20alvarez&sessionId=${b.sessionId}`);
    expect(res.status).toBe(200);
    expect(res.body.requestStatus.success).toBe(true);
    expect(res.body.matches).toHaveLength(1);
    const [match] = res.body.matches;
    expect(match).toMatchObject({
      session: { id: b.sessionId, productCode: b.productCode, productName: 'Old Town Walk', startTimeLocal: '2030-01-03 10:00:00', checkinClosed: false },
      matchedOn: ['PARTICIPANT_NAME'],
      matchedParticipantIds: [b.participantIds[0]],
      attention: true,
      attentionReasons: ['NOTE', 'UNPAID'],
      booking: { orderNumber: b.orderNumber, status: 'CONFIRMED', customer: { name: 'Ada Lovelace' }, payment: { paid: false } },
    });
    expect(match.participants.map((p: any) => [p.name, p.checkin.state, p.barcode])).toEqual([
      ['José Álvarez', 'EXPECTED', b.participantCodes[0]],
      ['Marta', 'CHECKED_IN', b.participantCodes[1]],
    ]);
    expect(match.participants[1].history).toEqual([expect.objectContaining({ kind: 'CHECK_IN', device: 'Gate' })]);
  });

  it('finds by customer name, order number and phone, naming what matched', async () => {
    const b = await aBooking({ customer: { firstName: 'Linus', lastName: 'Pauling', phone: '+61 (0)412 345 678' } });
    const session = `productCode=${b.productCode}&startTimeLocal=${LOCAL}`;
    expect((await search(`q=PAULING&${session}`)).body.matches.map((m: any) => [m.booking.orderNumber, m.matchedOn])).toEqual([[b.orderNumber, ['CUSTOMER_NAME']]]);
    expect((await search(`q=${b.orderNumber.toLowerCase()}&${session}`)).body.matches.map((m: any) => m.matchedOn)).toEqual([['ORDER_NUMBER']]);
    expect((await search(`q=${encodeURIComponent('412-345 678')}&${session}`)).body.matches.map((m: any) => m.matchedOn)).toEqual([['PHONE']]);
    expect((await search(`q=zzz-nobody&${session}`)).body).toMatchObject({ requestStatus: { success: true }, matches: [] });
    // A number stored internationally, typed locally with its trunk 0.
    const local = await aBooking({ customer: { firstName: 'Dan', lastName: 'Local', phone: '+61 400 123 757' } });
    const itsSession = `productCode=${local.productCode}&startTimeLocal=${LOCAL}`;
    expect((await search(`q=${encodeURIComponent('0400 123 757')}&${itsSession}`)).body.matches.map((m: any) => [m.booking.orderNumber, m.matchedOn])).toEqual([[local.orderNumber, ['PHONE']]]);
  });

  it("searches all of today's sessions (company timezone) when no session is named", async () => {
    const today = await aBooking({ names: ['Quintus Today'] }, '2030-01-05T22:00:00Z');
    const later = await aBooking({ names: ['Quintus Tomorrow'] }, '2030-01-06T22:00:00Z');
    t.clock.set('2030-01-05T14:30:00Z'); // 2030-01-06 01:30 in Sydney: the 09:00 session that day
    expect((await search('q=quintus')).body.matches.map((m: any) => m.booking.orderNumber)).toEqual([today.orderNumber]);
    t.clock.set('2030-01-06T13:30:00Z'); // 2030-01-07 00:30 in Sydney
    expect((await search('q=quintus')).body.matches.map((m: any) => m.booking.orderNumber)).toEqual([later.orderNumber]);
    t.clock.set('2030-01-05T12:00:00Z'); // 2030-01-05 23:00 in Sydney: no session today
    expect((await search('q=quintus')).body.matches).toEqual([]);
  });

  it('lists a cancelled booking with its status so the guide sees it, and leaves abandoned carts out', async () => {
    const s = await aProductWithSession(t);
    const cancelled = aBookingRow(t.sql, { sessionId: s.sessionId, names: ['Octavia Gone'], status: 'CANCELLED' });
    aBookingRow(t.sql, { sessionId: s.sessionId, names: ['Octavia Cart'], status: 'ABANDONED_CART' });
    const found = (await search(`q=octavia&sessionId=${s.sessionId}`)).body.matches;
    expect(found.map((m: any) => [m.booking.orderNumber, m.booking.status])).toEqual([[cancelled.orderNumber, 'CANCELLED']]);
  });

  it('pages with limit and offset in session then order-number order; a limit above 100 is clamped', async () => {
    const s = await aProductWithSession(t);
    const orders = [1, 2, 3].map(() => aBookingRow(t.sql, { sessionId: s.sessionId, names: ['Septima Page'] }).orderNumber);
    const page = (q: string) => search(`q=septima&sessionId=${s.sessionId}&${q}`);
    expect((await page('limit=2')).body.matches.map((m: any) => m.booking.orderNumber)).toEqual(orders.slice(0, 2));
    expect((await page('limit=2&offset=2')).body.matches.map((m: any) => m.booking.orderNumber)).toEqual(orders.slice(2));
    expect((await page('limit=1000')).body.matches).toHaveLength(3);
  });

  it('refuses bad requests with 4xx and the envelope, and changes nothing', async () => {
    const b = await aBooking();
    const before = t.snapshot(...CHECKIN_TABLES);
    const cases: [string, number, RegExp][] = [
      [`sessionId=${b.sessionId}`, 400, /q/],
      [`q=a&sessionId=${b.sessionId}`, 400, /at least 2 characters/],
      ['q=ada&sessionId=999999999', 404, /Session 999999999 was not found/],
      ['q=ada&productCode=NOPE&startTimeLocal=2030-01-03', 404, /NOPE/],
      [`q=ada&productCode=${b.productCode}&startTime=tomorrow`, 400, /startTime/],
      [`q=ada&sessionId=${b.sessionId}&limit=-1`, 400, /limit/],
      [`q=ada&sessionId=abc`, 400, /sessionId/],
    ];
    for (const [query, status, message] of cases) {
      const res = await search(query);
      expect(res.status).toBe(status);
      expect(res.body.requestStatus.success).toBe(false);
      expect(res.body.requestStatus.error.errorMessage).toMatch(message);
    }
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
  });

  it('is allowed to supplier and checkin keys and refused to agent keys with 403', async () => {
    const b = await aBooking({ names: ['Decima Role'] });
    expect((await search(`q=decima&sessionId=${b.sessionId}`, 'supplier')).body.matches).toHaveLength(1);
    const res = await search(`q=decima&sessionId=${b.sessionId}`, 'agent');
    expect(res.status).toBe(403);
    expect(res.body.requestStatus.error.errorCode).toBe('FORBIDDEN');
    await t.call('POST', '/v1/manifest/events', { body: { events: [{ eventId: randomUUID(), kind: 'CLOSE', sessionId: b.sessionId, occurredAt: '2030-01-02T23:30:00Z' }] }, role: 'checkin' });
    const closed = (await search(`q=decima&sessionId=${b.sessionId}`)).body.matches[0];
    expect(closed.session.checkinClosed).toBe(true);
    expect(closed.participants[0].checkin.state).toBe('NO_SHOW');
  });
});
