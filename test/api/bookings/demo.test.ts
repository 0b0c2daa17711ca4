import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PRODUCTS, loadDemo, loadDemoBookings } from '../../../main/demo';
import { SYSTEM_ACTOR } from '../../../main/domain/context';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aSessionRow } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('demo bookings', () => {
  it('books nothing while the demo products have no sessions', async () => {
    const bare = await startTestApp();
    try {
      for (const product of DEMO_PRODUCTS) await bare.engine.products.create(product, SYSTEM_ACTOR);
      await loadDemoBookings(bare.engine);
      expect(bare.snapshot('bookings')).toEqual([[]]);
    } finally {
      await bare.close();
    }
  });

  it('books on the demo sessions as part of the whole demo', async () => {
    await loadDemo(t.engine);
    const bookings = (await t.call('GET', '/v1/bookings')).body.bookings;
    expect(bookings.length).toBeGreaterThanOrEqual(10);
    expect(bookings.every((b: any) => b.items[0].startTimeLocal)).toBe(true);
    expect((await t.call('GET', '/v1/vouchers/WELCOME50')).body.voucher).toMatchObject({ status: 'PARTIALLY_REDEEMED', remainingValue: 15 });
  });

  it('books 10 to 20 bookings with customers, named participants, payments and one cancellation once sessions exist', async () => {
    const fresh = await startTestApp();
    try {
      for (const product of DEMO_PRODUCTS) await fresh.engine.products.create(product, SYSTEM_ACTOR);
      const products = fresh.sql.prepare("SELECT product_code FROM products WHERE booking_mode = 'INVENTORY'").all() as { product_code: string }[];
      for (const [p, { product_code }] of products.entries()) {
        for (let d = 2; d < 9; d++) aSessionRow(fresh.sql, { productCode: product_code, startAt: `2030-01-0${d}T0${p}:00:00Z`, seats: 30 });
      }
      await loadDemoBookings(fresh.engine);
      const bookings = (await fresh.call('GET', '/v1/bookings')).body.bookings;
      expect(bookings.length).toBeGreaterThanOrEqual(10);
      expect(bookings.length).toBeLessThanOrEqual(20);
      expect(bookings.filter((b: any) => b.status === 'CANCELLED')).toHaveLength(1);
      expect(bookings.some((b: any) => b.totalPaid > 0)).toBe(true);
      for (const b of bookings) {
        expect(b.customer.name).toBeTruthy();
        expect(b.items[0].participants[0].fields[0]).toMatchObject({ label: 'First Name' });
      }
    } finally {
      await fresh.close();
    }
  });
});
