import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../fixtures/refusals';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBookingHolding, aProduct, aSession } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TABLES = ['sessions', 'session_price_options', 'op_log', 'booking_items'];
const product = async (overrides = {}) => (await t.call('POST', '/v1/products', { body: aProduct(overrides) })).body.product;
/** A product with one 20-seat session on 2030-02-01 09:00 Sydney time; `held` seats taken by a live booking. */
const sessionWith = async (held = 0, overrides = {}) => {
  const p = await product(overrides);
  const s = (await t.call('POST', '/v1/availability', { body: aSession(p.productCode) })).body.session;
  if (held) aBookingHolding(t.sql, s.id, held);
  return { p, s, byStart: `/v1/availability/product/${p.productCode}/startTimeLocal/2030-02-01%2009:00:00`, byId: `/v1/availability/${s.id}` };
};
const expectRefused = expectError;

describe('PUT /v1/availability/product/{productCode}/startTimeLocal/{startTimeLocal}', () => {
  it('derives seatsAvailable from the seats live bookings hold', async () => {
    const { s, byStart } = await sessionWith(5);
    const res = await t.call('GET', `/v1/availability?productCode=${s.productCode}`);
    expect(res.body.sessions[0]).toMatchObject({ seats: 20, seatsAvailable: 15 });
    aBookingHolding(t.sql, s.id, 4, 'CANCELLED');
    aBookingHolding(t.sql, s.id, 3, 'PROCESSING');
    expect((await t.call('PUT', byStart, { body: {} })).body.session).toMatchObject({ seats: 20, seatsAvailable: 12 });
  });

  it('seats sets capacity regardless of bookings and moves availability by the same difference', async () => {
    const { byStart } = await sessionWith(5);
    const res = await t.call('PUT', byStart, { body: { seats: 30 } });
    expect(res.status).toBe(200);
    expect(res.body.session).toMatchObject({ seats: 30, seatsAvailable: 25 });
    expect(res.body.requestStatus.warning).toBeUndefined();
  });

  it('seats below the seats held is applied (availability goes negative) and warned as overbooked', async () => {
    const { byStart } = await sessionWith(5);
    const res = await t.call('PUT', byStart, { body: { seats: 3 } });
    expect(res.status).toBe(200);
    expect(res.body.session).toMatchObject({ seats: 3, seatsAvailable: -2 });
    expect(res.body.requestStatus.warning.warningMessage).toMatch(/overbooked/);
  });

  it('seatsAvailable sets availability and moves capacity by the difference, computed from the held seats', async () => {
    const { byStart } = await sessionWith(5);
    const res = await t.call('PUT', byStart, { body: { seatsAvailable: 8 } });
    expect(res.body.session).toMatchObject({ seats: 13, seatsAvailable: 8 });
  });

  it('uses only seatsAvailable when both are sent, and warns', async () => {
    const { byStart } = await sessionWith(5);
    const res = await t.call('PUT', byStart, { body: { seats: 100, seatsAvailable: 1 } });
    expect(res.body.session).toMatchObject({ seats: 6, seatsAvailable: 1 });
    expect(res.body.requestStatus.warning.warningMessage).toMatch(/seatsAvailable wins/);
  });

  it('accepts a seatsAvailable below 0 as long as total seats stay at or above 0', async () => {
    const { byStart } = await sessionWith(5);
    expect((await t.call('PUT', byStart, { body: { seatsAvailable: -5 } })).body.session).toMatchObject({ seats: 0, seatsAvailable: -5 });
  });

  it('refuses a seatsAvailable that would take total seats below 0 with 400 and changes nothing', async () => {
    const { byStart } = await sessionWith(5);
    const before = t.snapshot(...TABLES);
    const res = await t.call('PUT', byStart, { body: { seatsAvailable: -6 } });
    expectRefused(res, 400, 'VALIDATION_ERROR');
    expect(res.body.requestStatus.error.errorMessage).toMatch(/below 0/);
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('refuses negative seats with 400 and changes nothing', async () => {
    const { byStart } = await sessionWith();
    const before = t.snapshot(...TABLES);
    expectRefused(await t.call('PUT', byStart, { body: { seats: -1 } }), 400, 'VALIDATION_ERROR');
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('overrides price options for this session only (a subset, matched by id or label); an empty list restores product prices', async () => {
    const { p, byStart } = await sessionWith();
    const res = await t.call('PUT', byStart, { body: { priceOptions: [{ id: p.priceOptions[1].id, price: 19.99, maxQuantity: 4 }] } });
    expect(res.body.session.priceOptions).toMatchObject([
      { label: 'Adult', price: 50 },
      { label: 'Child', price: 19.99, maxQuantity: 4, productCode: p.productCode },
    ]);
    expect((await t.call('PUT', byStart, { body: { priceOptions: [] } })).body.session.priceOptions.map((o: any) => o.price)).toEqual([50, 25]);
  });

  it('refuses new price options with 400 and changes nothing', async () => {
    const { byStart } = await sessionWith();
    await t.call('PUT', byStart, { body: { priceOptions: [{ label: 'Adult', price: 40 }] } });
    const before = t.snapshot(...TABLES);
    for (const priceOptions of [[{ label: 'Pensioner', price: 10 }], [{ id: 1, price: 1 }], [{ label: 'Adult', price: 1 }, { label: 'ADULT', price: 2 }]]) {
      expectRefused(await t.call('PUT', byStart, { body: { priceOptions } }), 400, 'VALIDATION_ERROR');
    }
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('updates allDay', async () => {
    const { byStart } = await sessionWith();
    expect((await t.call('PUT', byStart, { body: { allDay: 'true' } })).body.session.allDay).toBe(true);
  });

  it('accepts the local start with a T or an encoded +', async () => {
    const { p } = await sessionWith();
    expect((await t.call('PUT', `/v1/availability/product/${p.productCode}/startTimeLocal/2030-02-01T09:00:00`, { body: { seats: 7 } })).body.session.seats).toBe(7);
    expect((await t.call('PUT', `/v1/availability/product/${p.productCode}/startTimeLocal/2030-02-01+09:00:00/`, { body: { seats: 8 } })).body.session.seats).toBe(8);
  });

  it('answers 404 for an unknown product or a start with no session, and 400 for a start that does not exist', async () => {
    const { p } = await sessionWith(0, { timezone: 'Europe/Berlin' });
    expectRefused(await t.call('PUT', '/v1/availability/product/PNOPE00/startTimeLocal/2030-02-01%2009:00:00', { body: { seats: 1 } }), 404, 'NOT_FOUND');
    expectRefused(await t.call('PUT', `/v1/availability/product/${p.productCode}/startTimeLocal/2030-02-01%2010:00:00`, { body: { seats: 1 } }), 404, 'NOT_FOUND');
    expectRefused(await t.call('PUT', `/v1/availability/product/${p.productCode}/startTimeLocal/2030-03-31%2002:30:00`, { body: { seats: 1 } }), 400, 'INVALID_TIME');
  });

  it('lets only supplier keys update', async () => {
    const { byStart } = await sessionWith();
    const before = t.snapshot(...TABLES);
    for (const role of ['agent', 'checkin'] as const) expectRefused(await t.call('PUT', byStart, { role, body: { seats: 1 } }), 403, 'FORBIDDEN');
    expect(t.snapshot(...TABLES)).toEqual(before);
  });
});

describe('PUT /v1/availability/{sessionId} (deprecated)', () => {
  it('still updates fully and warns that it is deprecated, naming the replacement', async () => {
    const { byId } = await sessionWith(2);
    const res = await t.call('PUT', byId, { body: { seatsAvailable: 10 } });
    expect(res.status).toBe(200);
    expect(res.body.session).toMatchObject({ seats: 12, seatsAvailable: 10 });
    expect(res.body.requestStatus.warning.warningMessage).toContain('deprecated');
    expect(res.body.requestStatus.warning.warningMessage).toContain('/v1/availability/product/{productCode}/startTimeLocal/{startTimeLocal}');
  });

  it('lets only supplier keys use it', async () => {
    const { byId } = await sessionWith();
    const before = t.snapshot(...TABLES);
    for (const role of ['agent', 'checkin'] as const) expectRefused(await t.call('PUT', byId, { role, body: { seats: 1 } }), 403, 'FORBIDDEN');
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('applies the same rules: total seats below 0 is a 400 that changes nothing', async () => {
    const { byId } = await sessionWith(3);
    const before = t.snapshot(...TABLES);
    expectRefused(await t.call('PUT', byId, { body: { seatsAvailable: -4 } }), 400, 'VALIDATION_ERROR');
    expectRefused(await t.call('PUT', byId, { body: { seats: 'lots' } }), 400, 'VALIDATION_ERROR');
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('answers 404 for an unknown session and 400 for a non-numeric id', async () => {
    expectRefused(await t.call('PUT', '/v1/availability/424242', { body: { seats: 1 } }), 404, 'NOT_FOUND');
    expectRefused(await t.call('PUT', '/v1/availability/abc', { body: { seats: 1 } }), 400, 'VALIDATION_ERROR');
  });
});

describe('DELETE /v1/availability', () => {
  it('deletes a session by id, with its overrides', async () => {
    const { byId, byStart } = await sessionWith();
    await t.call('PUT', byStart, { body: { priceOptions: [{ label: 'Adult', price: 1 }] } });
    expect((await t.call('DELETE', byId)).status).toBe(200);
    expect((await t.call('PUT', byId, { body: {} })).status).toBe(404);
    expect(t.sql.prepare('SELECT count(*) AS n FROM session_price_options WHERE session_id = ?').get(Number(byId.split('/').pop()))).toEqual({ n: 0 });
  });

  it('deletes a session by product and local start', async () => {
    const { byStart } = await sessionWith();
    expect((await t.call('DELETE', byStart)).status).toBe(200);
    expectRefused(await t.call('DELETE', byStart), 404, 'NOT_FOUND');
  });

  it('deletes a session that only cancelled bookings referred to; their items keep their times', async () => {
    const { s, byId } = await sessionWith();
    const order = aBookingHolding(t.sql, s.id, 2, 'CANCELLED');
    expect((await t.call('DELETE', byId)).status).toBe(200);
    expect(t.sql.prepare('SELECT session_id, start_at FROM booking_items WHERE order_number = ?').get(order)).toEqual({ session_id: null, start_at: Date.parse(s.startTime) });
  });

  it('refuses to delete a session holding live bookings (409, move or cancel them first) and changes nothing', async () => {
    const { byId, byStart } = await sessionWith(2);
    const before = t.snapshot(...TABLES);
    for (const url of [byId, byStart]) {
      const res = await t.call('DELETE', url);
      expectRefused(res, 409, 'IN_USE');
      expect(res.body.requestStatus.error.errorMessage).toMatch(/move or cancel/);
    }
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('answers 404 for an unknown session id or product, 400 for a start that does not exist', async () => {
    expectRefused(await t.call('DELETE', '/v1/availability/424242'), 404, 'NOT_FOUND');
    expectRefused(await t.call('DELETE', '/v1/availability/product/PNOPE00/startTimeLocal/2030-02-01%2009:00:00'), 404, 'NOT_FOUND');
    const { p } = await sessionWith(0, { timezone: 'Europe/Berlin' });
    expectRefused(await t.call('DELETE', `/v1/availability/product/${p.productCode}/startTimeLocal/2030-03-31%2002:30:00`), 400, 'INVALID_TIME');
  });

  it('lets only supplier keys delete', async () => {
    const { byId } = await sessionWith();
    for (const role of ['agent', 'checkin'] as const) expectRefused(await t.call('DELETE', byId, { role }), 403, 'FORBIDDEN');
    expect((await t.call('PUT', byId, { body: {} })).status).toBe(200);
  });
});
