import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemo, loadDemoBookings } from '../../main/demo';
import { startTestApp, type TestApp } from '../fixtures/app';
import { aSessionRow } from '../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('demo bookings', () => {
  it('books nothing while the demo products have no sessions', async () => {
    await loadDemo(t.engine);
    expect(t.snapshot('bookings')).toEqual([[]]);
  });

  it('books 10 to 20 bookings with customers, named participants, payments and one cancellation once sessions exist', async () => {
    const products = t.engine.ctx.sqlite.prepare("SELECT product_code FROM products WHERE booking_mode = 'INVENTORY'").all() as { product_code: string }[];
    for (const [p, { product_code }] of products.entries()) {
      for (let d = 2; d < 9; d++) aSessionRow(t.engine.ctx.sqlite, { productCode: product_code, startAt: `2030-01-0${d}T0${p}:00:00Z`, seats: 30 });
    }
    await loadDemoBookings(t.engine);
    const bookings = (await t.call('GET', '/v1/bookings')).body.bookings;
    expect(bookings.length).toBeGreaterThanOrEqual(10);
    expect(bookings.length).toBeLessThanOrEqual(20);
    expect(bookings.filter((b: any) => b.status === 'CANCELLED')).toHaveLength(1);
    expect(bookings.some((b: any) => b.totalPaid > 0)).toBe(true);
    for (const b of bookings) {
      expect(b.customer.name).toBeTruthy();
      expect(b.items[0].participants[0].fields[0]).toMatchObject({ label: 'First Name' });
    }
  });
});
