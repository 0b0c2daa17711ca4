import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, aProduct, aSessionRow } from '../../fixtures/builders';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => t.close());

describe('seats under concurrency', () => {
  it('sells exactly the last 10 seats to 50 clients racing over real HTTP; the other 40 get 409 NO_SEATS', async () => {
    const product = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product;
    const startTime = '2030-03-01T00:00:00Z';
    const sessionId = aSessionRow(t.sql, { productCode: product.productCode, startAt: startTime, seats: 12 });
    // Two seats already sold, ten left.
    expect((await t.call('POST', '/v1/bookings', { body: aBooking(product.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]) })).status).toBe(200);

    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${base}/v1/bookings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', apiKey: t.keys.supplier },
          body: JSON.stringify(aBooking(product.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }])),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as any })),
      ),
    );
    const sold = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status !== 200);
    expect(sold).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body.requestStatus.error.errorCode).toBe('NO_SEATS');
    }
    expect(new Set(sold.map((r) => r.body.booking.orderNumber)).size).toBe(10);
    const held = t.sql
      .prepare("SELECT sum(i.seats_held) AS held FROM booking_items i JOIN bookings b USING (order_number) WHERE i.session_id = ? AND b.status NOT IN ('CANCELLED','ABANDONED_CART')")
      .get(sessionId) as { held: number };
    expect(held.held).toBe(12);
    const seats = t.sql.prepare('SELECT seats FROM sessions WHERE id = ?').get(sessionId) as { seats: number };
    expect(seats.seats - held.held).toBe(0);
  });
});

describe('seats across items', () => {
  it('counts every item of one booking on the same session together', async () => {
    const product = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product;
    const startTime = '2030-03-02T00:00:00Z';
    aSessionRow(t.sql, { productCode: product.productCode, startAt: startTime, seats: 3 });
    const item = aBooking(product.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]).items[0];
    const before = t.snapshot('bookings', 'booking_items');
    const res = await t.call('POST', '/v1/bookings', { body: { items: [item, item] } });
    expect(res.status).toBe(409);
    expect(res.body.requestStatus.error.errorCode).toBe('NO_SEATS');
    expect(t.snapshot('bookings', 'booking_items')).toEqual(before);
  });
});
