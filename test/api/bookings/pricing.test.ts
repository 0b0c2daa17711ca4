import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, anExtraRow, aProduct, aSessionPriceOverride, aSessionRow } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ALL_TABLES = ['bookings', 'booking_items', 'booking_item_quantities', 'booking_item_extras', 'participants', 'payments', 'customers', 'order_barcodes', 'vouchers', 'voucher_redemptions', 'op_log', 'sequences'];
let day = 0;
async function productWithSession(overrides = {}, seats = 50) {
  const p = (await t.call('POST', '/v1/products', { body: aProduct(overrides) })).body.product;
  const startTime = `2030-04-${String(++day).padStart(2, '0')}T00:00:00Z`;
  const sessionId = aSessionRow(t.sql, { productCode: p.productCode, startAt: startTime, seats });
  return { p, startTime, sessionId };
}
const book = (body: unknown) => t.call('POST', '/v1/bookings', { body });
const quote = (body: unknown) => t.call('POST', '/v1/bookings/quote', { body });

describe('pricing', () => {
  it('uses the session price override instead of the option price', async () => {
    const { p, startTime, sessionId } = await productWithSession();
    aSessionPriceOverride(t.sql, { sessionId, optionId: p.priceOptions[0].id, priceMinor: 4250 });
    const b = (await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]))).body.booking;
    expect(b.items[0].quantities[0].optionPrice).toBe(42.5);
    expect(b.totalAmount).toBe(85);
  });

  it('charges a TOTAL group price once for the whole group, and EACH per unit', async () => {
    const { p, startTime } = await productWithSession({ priceOptions: [{ label: 'Family', price: 120, priceGroupType: 'TOTAL', seatsUsed: 1 }, { label: 'Extra adult', price: 30, priceGroupType: 'EACH' }] });
    const b = (await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Family', value: 4 }, { optionLabel: 'Extra adult', value: 2 }]))).body.booking;
    expect(b.items[0].amount).toBe(180);
    expect(b.items[0].totalQuantity).toBe(6);
  });

  it('prices extras: QUANTITY × quantity, FIXED once, ANY per participant by default', async () => {
    const sqlite = t.sql;
    const perUnit = anExtraRow(sqlite, { name: 'Photo', extraPriceType: 'QUANTITY', priceMinor: 1000 });
    const fixed = anExtraRow(sqlite, { name: 'Transfer', extraPriceType: 'FIXED', priceMinor: 2500 });
    const any = anExtraRow(sqlite, { name: 'Lunch', extraPriceType: 'ANY', priceMinor: 1550 });
    const { p, startTime } = await productWithSession({ extras: [{ id: perUnit }, { id: fixed }, { id: any }] });
    const body = aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 3 }]);
    body.items[0].extras = [{ id: perUnit, quantity: 2 }, { id: fixed, quantity: 5 }, { id: any }];
    const b = (await book(body)).body.booking;
    // 150 + 2×10 + 25 + 3×15.50
    expect(b.items[0]).toMatchObject({ amount: 150, subtotal: 241.5 });
    expect(b.items[0].extras.map((e: any) => [e.name, e.quantity, e.price])).toEqual([['Photo', 2, 10], ['Transfer', 1, 25], ['Lunch', 3, 15.5]]);
    const notOffered = anExtraRow(sqlite, { extraPriceType: 'FIXED', priceMinor: 100 });
    body.items[0].extras = [{ id: notOffered }];
    const res = await book(body);
    expect(res.status).toBe(400);
    expect(res.body.requestStatus.error.errorMessage).toMatch(/items\[0\]: extras\[0\]: extra \d+ is not offered/);
  });

  it('reports inclusive taxes, adds exclusive ones, and applies a compound tax on top of the previous ones', async () => {
    const { p: inclusive, startTime: s1 } = await productWithSession({ taxes: [{ label: 'GST', taxPercent: 10, priceInclusive: true }], priceOptions: [{ label: 'Adult', price: 100 }] });
    const a = (await book(aBooking(inclusive.productCode, s1, [{ value: 1 }]))).body.booking;
    expect(a.items[0]).toMatchObject({ amount: 100, subtotal: 100 });
    expect(a.items[0].taxes).toEqual([{ label: 'GST', taxType: null, priceInclusive: true, compound: false, amount: 9.09 }]);
    const { p: exclusive, startTime: s2 } = await productWithSession({
      taxes: [
        { label: 'State', taxPercent: 10 },
        { label: 'City', taxPercent: 5, compound: true },
      ],
      priceOptions: [{ label: 'Adult', price: 100 }],
    });
    const b = (await book(aBooking(exclusive.productCode, s2, [{ value: 1 }]))).body.booking;
    expect(b.items[0].taxes.map((x: any) => x.amount)).toEqual([10, 5.5]);
    expect(b).toMatchObject({ totalAmount: 115.5, totalDue: 115.5 });
  });

  it('rounds half-up once per line in the currency exponent (JPY 0 digits, BHD 3)', async () => {
    const { p: yen, startTime: s1 } = await productWithSession({ currency: 'JPY', taxes: [{ label: 'Tax', taxPercent: 8.5 }], priceOptions: [{ label: 'Adult', price: 1010 }] });
    expect((await book(aBooking(yen.productCode, s1, [{ value: 1 }]))).body.booking).toMatchObject({ totalAmount: 1096, totalCurrency: 'JPY' });
    const { p: dinar, startTime: s2 } = await productWithSession({ currency: 'BHD', taxes: [{ label: 'VAT', taxPercent: 10 }], priceOptions: [{ label: 'Adult', price: 1.005 }] });
    expect((await book(aBooking(dinar.productCode, s2, [{ value: 3 }]))).body.booking).toMatchObject({ items: [{ amount: 3.015, subtotal: 3.317 }], totalAmount: 3.317 });
  });

  it('takes an item amount override and prices taxes and extras on it', async () => {
    const { p, startTime } = await productWithSession({ taxes: [{ label: 'Tax', taxPercent: 10 }] });
    const body = aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]);
    body.items[0].amount = '80.00';
    const b = (await book(body)).body.booking;
    expect(b.items[0]).toMatchObject({ amount: 80, subtotal: 88 });
  });

  it('refuses items in two currencies', async () => {
    const { p: aud, startTime } = await productWithSession();
    const { p: eur, startTime: s2 } = await productWithSession({ currency: 'EUR' });
    const res = await book({ items: [aBooking(aud.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]).items[0], aBooking(eur.productCode, s2, [{ optionLabel: 'Adult', value: 1 }]).items[0]] });
    expect(res.status).toBe(400);
    expect(res.body.requestStatus.error.errorMessage).toMatch(/items\[1\].*one currency/);
  });
});

describe('quote', () => {
  it('answers the same numbers as the booking made from the same body, without orderNumber or status, and writes nothing', async () => {
    const extra = anExtraRow(t.sql, { extraPriceType: 'QUANTITY', priceMinor: 333 });
    const { p, startTime } = await productWithSession({ extras: [{ id: extra }], taxes: [{ label: 'Tax', taxPercent: 7.5 }] });
    const body = aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }, { optionLabel: 'Child', value: 1 }], { payments: [{ type: 'CASH', amount: 20 }] });
    body.items[0].extras = [{ id: extra, quantity: 3 }];
    const before = t.snapshot(...ALL_TABLES);
    const q = await quote(body);
    expect(q.status).toBe(200);
    expect(t.snapshot(...ALL_TABLES)).toEqual(before);
    expect(q.body.booking.orderNumber).toBeUndefined();
    expect(q.body.booking.status).toBeUndefined();
    const b = (await book(body)).body.booking;
    for (const key of ['totalAmount', 'totalCurrency', 'totalPaid', 'totalDue']) expect(q.body.booking[key], key).toEqual(b[key]);
    expect(q.body.booking.items.map((i: any) => [i.amount, i.subtotal, i.taxes])).toEqual(b.items.map((i: any) => [i.amount, i.subtotal, i.taxes]));
  });

  it('refuses what create refuses (no seats), also without reserving anything', async () => {
    const { p, startTime } = await productWithSession({}, 1);
    const res = await quote(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]));
    expect(res.status).toBe(409);
    expect(res.body.requestStatus.error.errorCode).toBe('NO_SEATS');
  });
});

describe('payments', () => {
  it('stores payments and derives totalPaid and totalDue (never below 0)', async () => {
    const { p, startTime } = await productWithSession();
    const body = aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], {
      payments: [
        { type: 'CASH', amount: '30', recipient: 'SUPPLIER', label: 'cash at desk', date: '2030-01-01T00:00:00Z' },
        { type: 'CREDITCARD', amount: 40, currency: 'AUD' },
      ],
    });
    const b = (await book(body)).body.booking;
    expect(b).toMatchObject({ totalAmount: 50, totalPaid: 70, totalDue: 0 });
    expect(b.payments[0]).toMatchObject({ type: 'CASH', amount: 30, currency: 'AUD', recipient: 'SUPPLIER', label: 'cash at desk', date: '2030-01-01T00:00:00Z' });
    const rows = t.sql.prepare('SELECT amount_minor, is_refund FROM payments WHERE order_number = ? ORDER BY position').all(b.orderNumber);
    expect(rows).toEqual([{ amount_minor: 3000, is_refund: 0 }, { amount_minor: 4000, is_refund: 0 }]);
  });

  it('refuses a zero or negative payment, or one in another currency, and changes nothing', async () => {
    const { p, startTime } = await productWithSession();
    const before = t.snapshot(...ALL_TABLES);
    for (const payment of [{ amount: 0 }, { amount: -5 }, { amount: 5, currency: 'EUR' }, { amount: 'lots' }]) {
      const res = await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { payments: [payment] }));
      expect(res.status, JSON.stringify(payment)).toBe(400);
    }
    expect(t.snapshot(...ALL_TABLES)).toEqual(before);
  });
});
