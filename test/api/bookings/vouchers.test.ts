import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, aProduct, aSessionRow, aVoucherRow } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TABLES = ['bookings', 'booking_items', 'vouchers', 'voucher_redemptions', 'op_log'];
let day = 0;
let n = 0;
async function productWithSession(overrides = {}) {
  const p = (await t.call('POST', '/v1/products', { body: aProduct({ priceOptions: [{ label: 'Adult', price: 100 }], ...overrides }) })).body.product;
  const startTime = `2030-07-${String(++day).padStart(2, '0')}T00:00:00Z`;
  aSessionRow(t.sql, { productCode: p.productCode, startAt: startTime });
  return { p, startTime, item: { productCode: p.productCode, startTime, quantities: [{ value: 1 }] } };
}
const voucher = (input: Omit<Parameters<typeof aVoucherRow>[1], 'code'>) => aVoucherRow(t.sql, { code: `V${++n}`, ...input });
/**
 * A key allows 5 wrong voucher codes a minute (test/api/bookings/voucherGuessing.test.ts); a test that sends
 * several sends them with a key of its own.
 */
const book = (body: unknown, key?: string) => t.call('POST', '/v1/bookings', { body, key });
const notUsable = (code: string) => new RegExp(`voucher ${code} cannot be used for this booking`);
const redeemed = (code: string) => t.sql.prepare('SELECT amount_minor, reversed_at FROM voucher_redemptions WHERE voucher_code = ? ORDER BY id').all(code);

describe('vouchers applied to a booking', () => {
  it('takes a VALUE voucher up to its balance and keeps the remainder for later (empty codes ignored)', async () => {
    const { p, startTime } = await productWithSession();
    const code = voucher({ valueType: 'VALUE', valueMinor: 15000, currency: 'AUD' });
    const first = (await book(aBooking(p.productCode, startTime, [{ value: 1 }], { vouchers: ['', code] }))).body.booking;
    expect(first).toMatchObject({ totalAmount: 0, totalDue: 0, vouchers: [code], voucherRedemptions: [{ code, amount: 100 }] });
    expect(first.items[0].subtotal).toBe(100);
    const second = (await book(aBooking(p.productCode, startTime, [{ value: 1 }], { vouchers: [code] }))).body.booking;
    expect(second.totalAmount).toBe(50);
    expect(redeemed(code)).toEqual([{ amount_minor: 10000, reversed_at: null }, { amount_minor: 5000, reversed_at: null }]);
  });

  it('takes a PERCENT voucher off each eligible item, rounded half-up per item', async () => {
    const { p, startTime } = await productWithSession({ priceOptions: [{ label: 'Adult', price: 33.33 }] });
    const code = voucher({ valueType: 'PERCENT', valuePercent: 15 });
    expect((await book(aBooking(p.productCode, startTime, [{ value: 1 }], { vouchers: [code] }))).body.booking.totalAmount).toBe(28.33);
  });

  it('limits *_LIMITPRODUCT and *_LIMITCATALOG vouchers to their product or category', async () => {
    const a = await productWithSession();
    const b = await productWithSession();
    const product = voucher({ valueType: 'PERCENT_LIMITPRODUCT', valuePercent: 50, productCode: b.p.productCode });
    expect((await book({ items: [a.item, b.item], vouchers: [product] })).body.booking.totalAmount).toBe(150);
    t.sql.prepare("INSERT INTO categories (id, name, visible, created_at, updated_at) VALUES (6000001, 'Cruises', 1, 0, 0)").run();
    t.sql.prepare('INSERT INTO category_products (category_id, product_code, position) VALUES (6000001, ?, 0)').run(a.p.productCode);
    const catalog = voucher({ valueType: 'VALUE_LIMITCATALOG', valueMinor: 100000, categoryId: 6000001 });
    expect((await book({ items: [a.item, b.item], vouchers: [catalog] })).body.booking.totalAmount).toBe(100);
    const elsewhere = voucher({ valueType: 'VALUE_LIMITPRODUCT', valueMinor: 1000, productCode: a.p.productCode });
    const res = await book({ items: [b.item], vouchers: [elsewhere] });
    expect(res.status).toBe(422);
    expect(res.body.requestStatus.error.errorMessage).toMatch(notUsable(elsewhere));
  });

  it('lets a PRODUCT voucher pay a whole item of its product, once', async () => {
    const { p, item } = await productWithSession();
    const code = voucher({ valueType: 'PRODUCT', productCode: p.productCode });
    expect((await book({ items: [item, item], vouchers: [code] })).body.booking.totalAmount).toBe(100);
    const again = await book({ items: [item], vouchers: [code] });
    expect(again.status).toBe(422);
    expect(again.body.requestStatus.error.errorMessage).toMatch(notUsable(code));
  });

  it('refuses unknown, expired, used-up and other-currency codes with one answer naming the code as sent, and changes nothing', async () => {
    const { item } = await productWithSession();
    const expired = voucher({ valueType: 'VALUE', valueMinor: 1000, expiryAt: '2029-12-31T00:00:00Z' });
    const used = voucher({ valueType: 'VALUE', valueMinor: 1000 });
    const dollars = voucher({ valueType: 'VALUE', valueMinor: 1000, currency: 'USD' });
    await book({ items: [item], vouchers: [used] });
    const key = (await t.engine.apiKeys.create({ role: 'supplier', name: 'Wrong codes' })).key;
    const answers = [];
    for (const code of ['NOPE', expired.toLowerCase(), used, dollars]) {
      const before = t.snapshot(...TABLES);
      const res = await book({ items: [item], vouchers: [code] }, key);
      expect(res.status, code).toBe(422);
      expect(res.body.requestStatus.error.errorMessage).toMatch(notUsable(code));
      answers.push({ status: res.status, body: JSON.stringify(res.body).replace(code, '<code>') });
      expect(t.snapshot(...TABLES)).toEqual(before);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
  });

  it('applies a voucher sent twice in different cases once', async () => {
    const { item } = await productWithSession();
    const code = voucher({ valueType: 'VALUE', valueMinor: 15000 });
    const twice = await book({ items: [item, item], vouchers: [code, code.toLowerCase()] });
    expect(twice.body.booking).toMatchObject({ totalAmount: 50, voucherRedemptions: [{ code, amount: 150 }] });
    expect(redeemed(code)).toEqual([{ amount_minor: 15000, reversed_at: null }]);
  });

  it('gives the redeemed value back when the booking is cancelled', async () => {
    const { item } = await productWithSession();
    const code = voucher({ valueType: 'VALUE', valueMinor: 10000 });
    const b = (await book({ items: [item], vouchers: [code] })).body.booking;
    const cancelled = (await t.call('DELETE', `/v1/bookings/${b.orderNumber}`)).body.booking;
    expect(cancelled.voucherRedemptions[0]).toMatchObject({ code, amount: 100, reversed: '2030-01-01T00:00:00Z' });
    expect((await book({ items: [item], vouchers: [code] })).body.booking.totalAmount).toBe(0);
  });

  it('quotes with vouchers without redeeming them', async () => {
    const { item } = await productWithSession();
    const code = voucher({ valueType: 'VALUE', valueMinor: 2500 });
    const q = await t.call('POST', '/v1/bookings/quote', { body: { items: [item], vouchers: [code] } });
    expect(q.body.booking.totalAmount).toBe(75);
    expect(redeemed(code)).toEqual([]);
  });
});

describe('gift cards', () => {
  it('issues a VALUE voucher of the item amount for a GIFT_CARD product, listed on the item', async () => {
    const p = (await t.call('POST', '/v1/products', { body: aProduct({ productType: 'GIFT_CARD', bookingMode: 'NO_DATE', priceOptions: [{ label: 'Card', price: 75 }] }) })).body.product;
    const b = (await book({ items: [{ productCode: p.productCode, quantities: [{ value: 2 }] }] })).body.booking;
    expect(b.items[0].vouchers).toHaveLength(1);
    expect(b.items[0].vouchers[0]).toMatchObject({ valueType: 'VALUE', value: 150, sourceOrder: b.orderNumber, status: 'ISSUED' });
    const { item } = await productWithSession();
    const spent = (await book({ items: [item], vouchers: [b.items[0].vouchers[0].code] })).body.booking;
    expect(spent.totalAmount).toBe(0);
    const card = (await t.call('GET', `/v1/bookings/${b.orderNumber}`)).body.booking.items[0].vouchers[0];
    expect(card.status).toBe('PARTIALLY_REDEEMED');
  });

  it('expires the gift vouchers of a cancelled gift-card order', async () => {
    const p = (await t.call('POST', '/v1/products', { body: aProduct({ productType: 'GIFT_CARD', bookingMode: 'NO_DATE', priceOptions: [{ label: 'Card', price: 50 }] }) })).body.product;
    const b = (await book({ items: [{ productCode: p.productCode, quantities: [{ value: 1 }] }] })).body.booking;
    t.clock.advance(1000);
    const cancelled = (await t.call('DELETE', `/v1/bookings/${b.orderNumber}`)).body.booking;
    expect(cancelled.items[0].vouchers[0].status).toBe('EXPIRED');
    const { item } = await productWithSession();
    const res = await book({ items: [item], vouchers: [b.items[0].vouchers[0].code] });
    expect(res.status).toBe(422);
    expect(res.body.requestStatus.error.errorMessage).toMatch(notUsable(b.items[0].vouchers[0].code));
  });
});
