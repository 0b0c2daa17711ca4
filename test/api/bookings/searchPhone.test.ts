import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, aProduct, aSessionRow } from '../../fixtures/builders';

let t: TestApp;
const orders: Record<string, string> = {};
beforeAll(async () => {
  t = await startTestApp();
  const walk = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product.productCode;
  aSessionRow(t.sql, { productCode: walk, startAt: '2030-01-10T00:00:00Z' });
  for (const [name, phone] of [['dan', '+61 400 123 757'], ['eve', '02 9999 1234']] as const) {
    const body = aBooking(walk, '2030-01-10T00:00:00Z', [{ optionLabel: 'Adult', value: 1 }], { customer: { firstName: name, lastName: 'Local', phone } });
    orders[name] = (await t.call('POST', '/v1/bookings', { body })).body.booking.orderNumber;
  }
});
afterAll(() => t.close());

const search = async (typed: string) => {
  const res = await t.call('GET', `/v1/bookings?search=${encodeURIComponent(typed)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.bookings.map((b: { orderNumber: string }) => b.orderNumber);
};

describe('GET /v1/bookings?search= with a phone number', () => {
  it('finds it however the desk types it: local with its trunk 0, international, any spacing', async () => {
    for (const typed of ['0400 123 757', '0400123757', '400-123-757', '+61 (400) 123 757', '61400123757', '400 123']) {
      expect(await search(typed), typed).toEqual([orders.dan]);
    }
    expect(await search('(02) 9999-1234')).toEqual([orders.eve]);
  });

  it('finds no other number, and takes a short run of digits as text, not as a phone', async () => {
    expect(await search('0400 999 000')).toEqual([]);
    expect(await search('12345')).toEqual([]);
  });
});
