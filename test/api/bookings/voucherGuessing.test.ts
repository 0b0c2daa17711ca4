import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { expectError } from '../../fixtures/refusals';
import { aProduct, aSessionRow, aVoucherRow } from '../../fixtures/builders';
import { VOUCHER_FAILURES_PER_WINDOW, VOUCHER_FAILURE_WINDOW_MS } from '../../../main/domain/bookings/voucherGuessing';

let t: TestApp;
let item: { productCode: string; startTime: string; quantities: { value: number }[] };
let otherProduct: string;
let n = 0;
const TABLES = ['bookings', 'booking_items', 'vouchers', 'voucher_redemptions', 'op_log'];

beforeAll(async () => {
  t = await startTestApp();
  const product = (await t.call('POST', '/v1/products', { body: aProduct({ priceOptions: [{ label: 'Adult', price: 100 }] }) })).body.product;
  otherProduct = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product.productCode;
  const startTime = '2030-08-01T00:00:00Z';
  aSessionRow(t.sql, { productCode: product.productCode, startAt: startTime });
  item = { productCode: product.productCode, startTime, quantities: [{ value: 1 }] };
});
afterAll(() => t.close());
// Every test starts with a fresh allowance of wrong codes for every key.
afterEach(() => t.clock.advance(VOUCHER_FAILURE_WINDOW_MS));

/** A voucher worth 10 AUD, straight into the table. */
const aCode = () => aVoucherRow(t.sql, { code: `GOOD${++n}ABCDE`, valueType: 'VALUE', valueMinor: 1000, currency: 'AUD' });
const quote = (vouchers: string[], key?: string) => t.call('POST', '/v1/bookings/quote', { body: { items: [item], vouchers }, key });
const book = (vouchers: string[], key?: string) => t.call('POST', '/v1/bookings', { body: { items: [item], vouchers }, key });
const newKey = async (role: 'supplier' | 'agent') => (await t.engine.apiKeys.create({ role, name: `Guessing test ${++n}` })).key;

/** Sends as many wrong codes as a key may in the window, each refused as unusable. */
async function useUpAllowance(key?: string): Promise<void> {
  for (let i = 0; i < VOUCHER_FAILURES_PER_WINDOW; i++) {
    const res = await quote([`WRONG${i}GUESS`], key);
    expectError(res, 422, 'BUSINESS_RULE');
  }
}

describe('voucher guessing', () => {
  it('answers the 6th wrong code in a minute with 429, Retry-After and the envelope, for quotes, creates and updates alike', async () => {
    const key = await newKey('supplier');
    const right = aCode();
    const booked = (await book([right], key)).body.booking;
    await useUpAllowance(key);

    const refusedQuote = await quote(['ANOTHER1GUESS'], key);
    expectError(refusedQuote, 429, 'TOO_MANY_ATTEMPTS');
    expect(refusedQuote.headers['retry-after']).toBe('60');
    expect(refusedQuote.body.requestStatus).toMatchObject({ success: false, version: 'v1' });
    expect(refusedQuote.body.requestStatus.error.errorMessage).toMatch(/Too many voucher codes .* wait 60 s/);

    // A right code is refused too while the key waits: a refusal tells nothing about the codes sent.
    const another = aCode();
    const before = t.snapshot(...TABLES);
    const refusedCreate = await book([another], key);
    expectError(refusedCreate, 429, 'TOO_MANY_ATTEMPTS');
    expect(refusedCreate.headers['retry-after']).toBe('60');
    const refusedUpdate = await t.call('PUT', `/v1/bookings/${booked.orderNumber}`, { body: booked, key });
    expectError(refusedUpdate, 429, 'TOO_MANY_ATTEMPTS');
    expect(refusedUpdate.headers['retry-after']).toBe('60');
    expect(t.snapshot(...TABLES)).toEqual(before);

    // Requests without codes are not held back.
    expect((await quote([], key)).status).toBe(200);
    expect((await quote([''], key)).status).toBe(200);
  });

  it('lets a right code through once the window has passed, and refusals in the meantime do not extend it', async () => {
    const key = await newKey('supplier');
    await useUpAllowance(key);
    t.clock.advance(30_000);
    const waiting = await quote([aCode()], key);
    expectError(waiting, 429, 'TOO_MANY_ATTEMPTS');
    expect(waiting.headers['retry-after']).toBe('30');
    t.clock.advance(29_999);
    expect((await quote(['YETANOTHER1'], key)).headers['retry-after']).toBe('1');
    t.clock.advance(1);
    const right = aCode();
    const res = await book([right], key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking.voucherRedemptions).toEqual([expect.objectContaining({ code: right, amount: 10 })]);
  });

  it('counts failures in a sliding minute, not a fixed one', async () => {
    const key = await newKey('agent');
    for (const code of ['SLIDE1AAAA', 'SLIDE2AAAA', 'SLIDE3AAAA']) expectError(await quote([code], key), 422, 'BUSINESS_RULE');
    t.clock.advance(40_000);
    for (const code of ['SLIDE4AAAA', 'SLIDE5AAAA']) expectError(await quote([code], key), 422, 'BUSINESS_RULE');
    t.clock.advance(10_000);
    expect((await quote(['SLIDE6AAAA'], key)).headers['retry-after']).toBe('10');
    // The first three have left the window; the last two have not.
    t.clock.advance(10_000);
    expectError(await quote(['SLIDE7AAAA'], key), 422, 'BUSINESS_RULE');
    expectError(await quote(['SLIDE8AAAA'], key), 422, 'BUSINESS_RULE');
    expectError(await quote(['SLIDE9AAAA'], key), 422, 'BUSINESS_RULE');
    expect((await quote(['SLIDE10AAAA'], key)).status).toBe(429);
  });

  it('counts nothing for right codes', async () => {
    const key = await newKey('agent');
    for (let i = 0; i < VOUCHER_FAILURES_PER_WINDOW * 2; i++) expect((await quote([aCode()], key)).status).toBe(200);
    await useUpAllowance(key);
    expect((await quote([aCode()], key)).status).toBe(429);
  });

  it('holds back only the key that guessed: another key, of the same role or not, is unaffected', async () => {
    const guesser = await newKey('agent');
    await useUpAllowance(guesser);
    expect((await quote([aCode()], guesser)).status).toBe(429);
    for (const other of [await newKey('agent'), t.keys.agent, t.keys.supplier]) {
      const res = await quote([aCode()], other);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expectError(await quote(['NOT1REALCODE'], other), 422, 'BUSINESS_RULE');
    }
  });

  it('gives one answer for an unknown code and codes that exist but are not usable here', async () => {
    const key = await newKey('agent');
    const limitedElsewhere = aVoucherRow(t.sql, { code: `OTHERPRODUCT${++n}`, valueType: 'VALUE_LIMITPRODUCT', valueMinor: 1000, productCode: otherProduct });
    const otherCurrency = aVoucherRow(t.sql, { code: `DOLLARS${++n}ABC`, valueType: 'VALUE', valueMinor: 1000, currency: 'USD' });
    const expired = aVoucherRow(t.sql, { code: `EXPIRED${++n}ABC`, valueType: 'PERCENT', valuePercent: 10, expiryAt: '2029-06-01T00:00:00Z' });
    const unknown = `UNKNOWN${++n}ABC`;
    const answers = new Set<string>();
    for (const code of [unknown, limitedElsewhere, otherCurrency, expired]) {
      const res = await quote([code], key);
      answers.add(JSON.stringify({ status: res.status, body: res.body }).replace(code, '<code>'));
    }
    expect([...answers]).toHaveLength(1);
    expect([...answers][0]).toContain('cannot be used for this booking');
    // All four counted: the fifth wrong code is allowed, the sixth request is not.
    expectError(await quote([`UNKNOWN${++n}XYZ`], key), 422, 'BUSINESS_RULE');
    expectError(await quote([aCode()], key), 429, 'TOO_MANY_ATTEMPTS');
  });
});
