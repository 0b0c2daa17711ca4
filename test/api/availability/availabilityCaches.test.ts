import { describe, expect, it } from 'vitest';
import { appWithSecondConnection } from '../../fixtures/secondConnection';
import { aBookingHolding, aProduct, aSession } from '../../fixtures/builders';

/**
 * Issue 20: a search keeps each product's facts (timezone, currency, booking mode, price options)
 * while the products area is unchanged, and reads sessions and seats fresh. Every change, made by
 * another process (a second connection to the same file) or here, shows in the next search.
 */
const app = appWithSecondConnection();

const product = async (overrides = {}) => (await app.t.call('POST', '/v1/products', { body: aProduct(overrides) })).body.product;
const sessionsOf = async (code: string, days = 2) => {
  const res = await app.t.call('POST', '/v1/availability/batch', {
    body: Array.from({ length: days }, (_, i) => aSession(code, { startTimeLocal: `2030-02-0${i + 1} 09:00:00`, seats: 10 })),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.sessions as { id: number }[];
};
const search = async (code: string) => {
  const res = await app.t.call('GET', `/v1/availability?productCode=${code}&startTime=2030-01-25&endTime=2030-02-28`);
  return res;
};

describe('availability search caches', () => {
  it('answers price options, currency and timezone changed by another process', async () => {
    const p = await product();
    await sessionsOf(p.productCode);
    const before = (await search(p.productCode)).body.sessions;
    expect(before[0].startTimeLocal).toBe('2030-02-01 09:00:00');
    app.other.prepare('UPDATE price_options SET price_minor = price_minor + 1000, label = ? WHERE id = ?').run('Changed elsewhere', before[0].priceOptions[0].id);
    const repriced = (await search(p.productCode)).body.sessions;
    expect(repriced[0].priceOptions[0].label).toBe('Changed elsewhere');
    expect(repriced[0].priceOptions[0].price).toBe(before[0].priceOptions[0].price + 10);
    app.other.prepare("UPDATE products SET timezone = 'UTC' WHERE product_code = ?").run(p.productCode);
    const moved = (await search(p.productCode)).body.sessions.find((s: { id: number }) => s.id === before[0].id);
    expect(moved.startTime).toBe(before[0].startTime);
    expect(moved.startTimeLocal).toBe(`${before[0].startTime.slice(0, 10)} ${before[0].startTime.slice(11, 19)}`);
  });

  it('refuses a product deleted by another process, and sees a product turned bookable for any date', async () => {
    const gone = await product();
    await sessionsOf(gone.productCode);
    expect((await search(gone.productCode)).status).toBe(200);
    app.other.prepare('UPDATE products SET deleted_at = 1 WHERE product_code = ?').run(gone.productCode);
    expect((await search(gone.productCode)).status).toBe(404);
    const open = await product();
    expect((await search(open.productCode)).body.sessions).toEqual([]);
    app.other.prepare("UPDATE products SET booking_mode = 'NO_DATE' WHERE product_code = ?").run(open.productCode);
    expect((await search(open.productCode)).body.sessions[0]).toMatchObject({ allDay: true, seatsAvailable: 999 });
  });

  it('answers seats, sessions and price overrides written by another process or by a raw statement here', async () => {
    const p = await product();
    const [first, second] = await sessionsOf(p.productCode);
    expect((await search(p.productCode)).body.sessions[0].seatsAvailable).toBe(10);
    aBookingHolding(app.other, first.id, 3);
    expect((await search(p.productCode)).body.sessions[0].seatsAvailable).toBe(7);
    aBookingHolding(app.t.engine.ctx.handle.sqlite, first.id, 2);
    expect((await search(p.productCode)).body.sessions[0].seatsAvailable).toBe(5);
    app.other.prepare("UPDATE bookings SET status = 'CANCELLED' WHERE order_number IN (SELECT order_number FROM booking_items WHERE session_id = ?)").run(first.id);
    expect((await search(p.productCode)).body.sessions[0]).toMatchObject({ seats: 10, seatsAvailable: 10 });
    app.other.prepare('UPDATE sessions SET seats = 4 WHERE id = ?').run(first.id);
    expect((await search(p.productCode)).body.sessions[0]).toMatchObject({ seats: 4, seatsAvailable: 4 });
    const option = app.other.prepare('SELECT id FROM price_options WHERE product_code = ? ORDER BY position LIMIT 1').get(p.productCode) as { id: number };
    app.other.prepare('INSERT INTO session_price_options (session_id, price_option_id, price_minor) VALUES (?, ?, 12345)').run(first.id, option.id);
    expect((await search(p.productCode)).body.sessions[0].priceOptions[0].price).toBe(123.45);
    expect((await search(p.productCode)).body.sessions.map((s: { id: number }) => s.id)).toEqual([first.id, second.id]);
    app.other.prepare('DELETE FROM sessions WHERE id = ?').run(second.id);
    expect((await search(p.productCode)).body.sessions.map((s: { id: number }) => s.id)).toEqual([first.id]);
  });
});
