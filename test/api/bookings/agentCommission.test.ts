import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, anExtraRow, aProduct, aSessionRow } from '../../fixtures/builders';

let t: TestApp;
let resellerId: number;
let rateId: number;
beforeAll(async () => {
  t = await startTestApp();
  resellerId = (t.sql.prepare("SELECT reseller_id FROM api_keys WHERE role = 'agent'").get() as { reseller_id: number }).reseller_id;
  rateId = (await t.call('POST', '/v1/rates', { body: { name: 'Agents' } })).body.rate.rateId;
  expect((await t.call('PUT', `/v1/rates/${rateId}/resellers/${resellerId}`)).status).toBe(200);
});
afterAll(() => t.close());

let day = 0;
async function productWithSession(overrides = {}) {
  const p = (await t.call('POST', '/v1/products', { body: aProduct(overrides) })).body.product;
  const startTime = `2030-09-${String(++day).padStart(2, '0')}T00:00:00Z`;
  aSessionRow(t.sql, { productCode: p.productCode, startAt: startTime });
  return { p, startTime };
}
/** Puts the product on the agents' rate through the rates API. */
async function rate(productCode: string, type: 'PERCENT' | 'NET_RATE', values: { percent?: number; includeExtras?: boolean; netRates?: unknown }) {
  const body =
    type === 'PERCENT'
      ? { commissionType: type, percentageCommission: values.percent, percentageIncludeExtras: values.includeExtras ?? false }
      : { commissionType: type, netRates: values.netRates };
  expect((await t.call('PUT', `/v1/rates/${rateId}/products/${productCode}`, { body })).status).toBe(200);
}
const agentBook = (body: unknown) => t.call('POST', '/v1/bookings', { body, role: 'agent' });

describe('agent bookings and commission', () => {
  it('takes resellerId, resellerName and resellerAlias from the key and sources the booking as API', async () => {
    const { p, startTime } = await productWithSession();
    const b = (await agentBook(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { resellerId: 1 }))).body.booking;
    expect(b).toMatchObject({ resellerId, resellerName: 'Test agent', source: 'API' });
    expect(b.resellerAlias).toBeTruthy();
    expect(b.totalCommission).toBeUndefined();
  });

  it('computes a PERCENT commission on the item amount (extras when the rate includes them), capped by maxCommissionPercent', async () => {
    const extra = anExtraRow(t.sql, { extraPriceType: 'FIXED', priceMinor: 1000 });
    const { p, startTime } = await productWithSession({ extras: [{ id: extra }], maxCommissionPercent: 15 });
    await rate(p.productCode, 'PERCENT', { percent: 20, includeExtras: true });
    const body = aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]);
    body.items[0].extras = [{ id: extra }];
    const b = (await agentBook(body)).body.booking;
    expect(b.items[0].commission).toBe(16.5);
    expect(b.totalCommission).toBe(16.5);
    expect((await t.call('POST', '/v1/bookings', { body })).body.booking.totalCommission).toBeUndefined();
  });

  it('computes a NET_RATE commission and refuses an agent amount below the net rates on a PAYOUTS product', async () => {
    const { p, startTime } = await productWithSession({ agentPaymentType: 'PAYOUTS' });
    await rate(p.productCode, 'NET_RATE', { netRates: [{ priceOptionLabel: 'Adult', netPrice: 40 }, { priceOptionLabel: 'Child', netPrice: 20 }] });
    const b = (await agentBook(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }, { optionLabel: 'Child', value: 1 }]))).body.booking;
    expect(b.items[0].commission).toBe(25);
    const cheap = aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]);
    cheap.items[0].amount = 79;
    const before = t.snapshot('bookings', 'booking_items');
    const res = await agentBook(cheap);
    expect(res.status).toBe(422);
    expect(res.body.requestStatus.error.errorMessage).toMatch(/items\[0\]: amount must not be below the net rates/);
    expect(t.snapshot('bookings', 'booking_items')).toEqual(before);
    cheap.items[0].amount = 80;
    expect((await agentBook(cheap)).body.booking.items[0].commission).toBe(0);
  });

  it('hides internalNotes from agents, and lets a supplier key book on behalf of a reseller', async () => {
    const { p, startTime } = await productWithSession();
    const mine = (await agentBook(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { internalNotes: 'from agent' }))).body.booking;
    expect((await t.call('GET', `/v1/bookings/${mine.orderNumber}`)).body.booking.internalNotes).toBeUndefined();
    await t.sql.prepare("UPDATE bookings SET internal_notes = 'VIP' WHERE order_number = ?").run(mine.orderNumber);
    expect((await t.call('GET', `/v1/bookings/${mine.orderNumber}`)).body.booking.internalNotes).toBe('VIP');
    expect((await t.call('GET', `/v1/bookings/${mine.orderNumber}`, { role: 'agent' })).body.booking.internalNotes).toBeUndefined();
    const onBehalf = (await t.call('POST', '/v1/bookings', { body: aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { resellerId }) })).body.booking;
    expect(onBehalf).toMatchObject({ resellerId, source: 'INTERNAL' });
    expect((await t.call('GET', `/v1/bookings/${onBehalf.orderNumber}`, { role: 'agent' })).status).toBe(200);
    const unknown = await t.call('POST', '/v1/bookings', { body: aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { resellerId: 42 }) });
    expect(unknown.status).toBe(400);
  });
});
