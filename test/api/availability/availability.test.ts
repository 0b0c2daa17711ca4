import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../fixtures/refusals';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aProduct, aSession } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TABLES = ['sessions', 'session_price_options', 'op_log'];
const product = async (overrides = {}) => {
  const res = await t.call('POST', '/v1/products', { body: aProduct(overrides) });
  expect(res.status).toBe(200);
  return res.body.product;
};
const session = async (productCode: string, overrides = {}) => {
  const res = await t.call('POST', '/v1/availability', { body: aSession(productCode, overrides) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.session;
};
const expectRefused = expectError;

describe('POST /v1/availability', () => {
  it('creates a session from startTimeLocal and the product duration, answering the session with every field', async () => {
    const p = await product();
    const s = await session(p.productCode);
    expect(s).toMatchObject({
      productCode: p.productCode,
      startTime: '2030-01-31T22:00:00Z',
      startTimeLocal: '2030-02-01 09:00:00',
      endTime: '2030-02-01T00:00:00Z',
      endTimeLocal: '2030-02-01 11:00:00',
      allDay: false,
      seats: 20,
      seatsAvailable: 20,
    });
    expect(s.id).toBeGreaterThan(0);
    expect(s.priceOptions).toMatchObject([
      { id: p.priceOptions[0].id, label: 'Adult', price: 50, productCode: p.productCode },
      { id: p.priceOptions[1].id, label: 'Child', price: 25, productCode: p.productCode },
    ]);
  });

  it('creates a session from ISO startTime and endTime', async () => {
    const p = await product();
    const s = await session(p.productCode, { startTimeLocal: undefined, startTime: '2030-02-02T01:30:00Z', endTime: '2030-02-02T03:00:00+00:00' });
    expect(s).toMatchObject({ startTimeLocal: '2030-02-02 12:30:00', endTimeLocal: '2030-02-02 14:00:00' });
  });

  it('creates an all-day session lasting midnight to midnight when no end is given', async () => {
    const p = await product({ durationMinutes: undefined });
    const s = await session(p.productCode, { startTimeLocal: '2030-02-03', allDay: true });
    expect(s).toMatchObject({ allDay: true, startTimeLocal: '2030-02-03 00:00:00', endTimeLocal: '2030-02-04 00:00:00' });
  });

  it('stores price option overrides for the session only, matched by id or label', async () => {
    const p = await product();
    const s = await session(p.productCode, { priceOptions: [{ label: 'adult', price: '60.50' }, { id: p.priceOptions[1].id, price: 30, seatsUsed: 2 }] });
    expect(s.priceOptions).toMatchObject([
      { id: p.priceOptions[0].id, label: 'Adult', price: 60.5, seatsUsed: 1 },
      { id: p.priceOptions[1].id, label: 'Child', price: 30, seatsUsed: 2 },
    ]);
    const other = await session(p.productCode, { startTimeLocal: '2030-02-02 09:00:00' });
    expect(other.priceOptions.map((o: any) => o.price)).toEqual([50, 25]);
    expect((await t.call('GET', `/v1/products/${p.productCode}`)).body.product.priceOptions.map((o: any) => o.price)).toEqual([50, 25]);
  });

  it('accepts numbers and booleans as strings and ignores unknown fields', async () => {
    const p = await product();
    const s = await session(p.productCode, { seats: '12', allDay: 'false', colour: 'blue' });
    expect(s.seats).toBe(12);
    expect(s.colour).toBeUndefined();
  });

  const invalid: [string, Record<string, unknown>, number, string][] = [
    ['a missing start', { startTimeLocal: undefined }, 400, 'VALIDATION_ERROR'],
    ['an end before the start', { endTimeLocal: '2030-02-01 08:00:00' }, 400, 'VALIDATION_ERROR'],
    ['an end equal to the start', { endTimeLocal: '2030-02-01 09:00:00' }, 400, 'VALIDATION_ERROR'],
    ['negative seats', { seats: -1 }, 400, 'VALIDATION_ERROR'],
    ['fractional seats', { seats: 2.5 }, 400, 'VALIDATION_ERROR'],
    ['missing seats', { seats: undefined }, 400, 'VALIDATION_ERROR'],
    ['an unparseable startTime', { startTimeLocal: undefined, startTime: 'next tuesday' }, 400, 'INVALID_TIME'],
    ['startTime and startTimeLocal naming different instants', { startTime: '2030-02-01T09:00:00Z' }, 400, 'VALIDATION_ERROR'],
    ['a price option the product does not have', { priceOptions: [{ label: 'Senior', price: 10 }] }, 400, 'VALIDATION_ERROR'],
    ['a price option id the product does not have', { priceOptions: [{ id: 999999, price: 10 }] }, 400, 'VALIDATION_ERROR'],
    ['a negative override price', { priceOptions: [{ label: 'Adult', price: -5 }] }, 400, 'VALIDATION_ERROR'],
    ['an unknown priceGroupType', { priceOptions: [{ label: 'Adult', priceGroupType: 'SOME' }] }, 400, 'VALIDATION_ERROR'],
  ];
  it.each(invalid)('refuses %s and writes nothing', async (_name, overrides, status, code) => {
    const p = await product();
    const before = t.snapshot(...TABLES);
    expectRefused(await t.call('POST', '/v1/availability', { body: aSession(p.productCode, overrides) }), status, code);
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('refuses a session without an end when the product has no durationMinutes (400)', async () => {
    const p = await product({ durationMinutes: undefined });
    expectRefused(await t.call('POST', '/v1/availability', { body: aSession(p.productCode) }), 400, 'VALIDATION_ERROR');
  });

  it('refuses a second session of the product at the same instant with 409 and changes nothing', async () => {
    const p = await product();
    await session(p.productCode);
    const before = t.snapshot(...TABLES);
    expectRefused(await t.call('POST', '/v1/availability', { body: aSession(p.productCode, { startTimeLocal: undefined, startTime: '2030-01-31T22:00:00Z' }) }), 409, 'DUPLICATE');
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('answers 404 for an unknown product', async () => {
    expectRefused(await t.call('POST', '/v1/availability', { body: aSession('PNOPE00') }), 404, 'NOT_FOUND');
  });

  it('refuses stored sessions for NO_DATE and DATE_ENQUIRY products (400)', async () => {
    for (const bookingMode of ['NO_DATE', 'DATE_ENQUIRY']) {
      const p = await product({ bookingMode });
      const before = t.snapshot(...TABLES);
      expectRefused(await t.call('POST', '/v1/availability', { body: aSession(p.productCode) }), 400, 'VALIDATION_ERROR');
      expect(t.snapshot(...TABLES)).toEqual(before);
    }
  });

  it('refuses a local start time that does not exist (the clocks skip it) with 400', async () => {
    const p = await product({ timezone: 'Europe/Berlin' });
    const res = await t.call('POST', '/v1/availability', { body: aSession(p.productCode, { startTimeLocal: '2030-03-31 02:30:00' }) });
    expectRefused(res, 400, 'INVALID_TIME');
    expect(res.body.requestStatus.error.errorMessage).toContain('does not exist');
  });

  it('lets only supplier keys create sessions', async () => {
    const p = await product();
    const before = t.snapshot(...TABLES);
    for (const role of ['agent', 'checkin'] as const) expectRefused(await t.call('POST', '/v1/availability', { role, body: aSession(p.productCode) }), 403, 'FORBIDDEN');
    expectRefused(await t.call('POST', '/v1/availability', { role: null, body: aSession(p.productCode) }), 401, 'UNAUTHORIZED');
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('accepts a trailing slash', async () => {
    const p = await product();
    const res = await t.call('POST', '/v1/availability/', { body: aSession(p.productCode) });
    expect(res.status).toBe(200);
  });
});

describe('POST /v1/availability/batch', () => {
  const days = (code: string, n: number) => Array.from({ length: n }, (_, i) => aSession(code, { startTimeLocal: `2030-03-${String(i + 1).padStart(2, '0')} 09:00:00` }));

  it('creates every session of a top-level array and answers them in order', async () => {
    const p = await product();
    const res = await t.call('POST', '/v1/availability/batch', { body: days(p.productCode, 3) });
    expect(res.status).toBe(200);
    expect(res.body.sessions.map((s: any) => s.startTimeLocal)).toEqual(['2030-03-01 09:00:00', '2030-03-02 09:00:00', '2030-03-03 09:00:00']);
  });

  it('accepts { "sessions": [...] } too', async () => {
    const p = await product();
    const res = await t.call('POST', '/v1/availability/batch', { body: { sessions: days(p.productCode, 2) } });
    expect(res.status).toBe(200);
    expect(res.body.sessions).toHaveLength(2);
  });

  it('writes none when one entry breaks a rule, and names its index', async () => {
    const p = await product();
    const body = days(p.productCode, 4);
    body[2] = { ...body[2], endTimeLocal: '2030-03-03 08:00:00' };
    const before = t.snapshot(...TABLES);
    const res = await t.call('POST', '/v1/availability/batch', { body });
    expectRefused(res, 400, 'VALIDATION_ERROR');
    expect(res.body.requestStatus.error.errorMessage).toContain('sessions[2]');
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('writes none when two entries clash with each other (409 naming the later index)', async () => {
    const p = await product();
    const body = [...days(p.productCode, 2), days(p.productCode, 1)[0]];
    const before = t.snapshot(...TABLES);
    const res = await t.call('POST', '/v1/availability/batch', { body });
    expectRefused(res, 409, 'DUPLICATE');
    expect(res.body.requestStatus.error.errorMessage).toContain('sessions[2]');
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('writes none when an entry fails validation, and names its index', async () => {
    const p = await product();
    const body = days(p.productCode, 3);
    body[1] = { ...body[1], seats: 'many' };
    const before = t.snapshot(...TABLES);
    const res = await t.call('POST', '/v1/availability/batch', { body: { sessions: body } });
    expectRefused(res, 400, 'VALIDATION_ERROR');
    expect(res.body.requestStatus.error.errorMessage).toContain('sessions[1].seats');
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('refuses an empty batch and agent keys', async () => {
    expectRefused(await t.call('POST', '/v1/availability/batch', { body: [] }), 400, 'VALIDATION_ERROR');
    const p = await product();
    expectRefused(await t.call('POST', '/v1/availability/batch', { role: 'agent', body: days(p.productCode, 1) }), 403, 'FORBIDDEN');
  });
});
