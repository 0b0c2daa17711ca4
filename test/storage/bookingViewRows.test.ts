import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBookingViewRows } from '../../db/queries/bookingView';
import { loadDemo } from '../../main/demo';
import { startTestApp, type TestApp } from '../fixtures/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await loadDemo(t.engine);
  // A booking of two items of several quantities each, so the item lists are read both ways too.
  const [first, second] = (await t.call('GET', '/v1/products')).body.products.filter((p: any) => p.bookingMode === 'NO_DATE');
  const two = await t.call('POST', '/v1/bookings', {
    body: {
      customer: { firstName: 'Two', lastName: 'Items', email: 'two@example.test' },
      items: [first, second].map((p: any) => ({ productCode: p.productCode, quantities: p.priceOptions.map((o: any) => ({ optionLabel: o.label, value: 1 })) })),
    },
  });
  expect(two.status, JSON.stringify(two.body)).toBe(200);
  // And one item of several quantities (its item lists read by one item id).
  const one = await t.call('POST', '/v1/bookings', {
    body: { customer: { firstName: 'One', lastName: 'Item', email: 'one@example.test' }, items: [{ productCode: first.productCode, quantities: first.priceOptions.map((o: any) => ({ optionLabel: o.label, value: 1 })) }] },
  });
  expect(one.status, JSON.stringify(one.body)).toBe(200);
});
afterAll(() => t.close());

describe('the rows a booking answer is built from', () => {
  it('are the same read for one booking (compiled-once `=` queries) as among all (`in` lists), in the same order', async () => {
    const db = t.engine.ctx.db;
    const orders = (t.sql.prepare('SELECT order_number FROM bookings ORDER BY order_number').all() as { order_number: string }[]).map((r) => r.order_number);
    expect(orders.length).toBeGreaterThanOrEqual(10);
    // Every list of every booking at once: `in` lists throughout.
    const all = await loadBookingViewRows(db, orders);
    expect(all.bookings).toHaveLength(orders.length);
    const seen = { multiItem: 0, oneItemSeveralQuantities: 0, payments: 0, customers: 0 };
    for (const order of orders) {
      const one = await loadBookingViewRows(db, [order]);
      const booking = all.bookings.filter((b) => b.order_number === order);
      const items = all.items.filter((i) => i.order_number === order);
      const itemIds = new Set(items.map((i) => i.id));
      const issued = all.issued.filter((v) => v.source_order === order);
      const codes = new Set(issued.map((v) => v.code));
      expect(one).toEqual({
        bookings: booking,
        customers: all.customers.filter((c) => booking.some((b) => b.customer_id === c.id)),
        resellers: all.resellers.filter((r) => booking.some((b) => b.reseller_id === r.id)),
        items,
        payments: all.payments.filter((p) => p.order_number === order),
        redemptions: all.redemptions.filter((r) => r.order_number === order),
        orderCodes: all.orderCodes.filter((c) => c.order_number === order),
        issued,
        giftUses: all.giftUses.filter((u) => codes.has(u.voucher_code)),
        quantities: all.quantities.filter((q) => itemIds.has(q.item_id)),
        extras: all.extras.filter((e) => itemIds.has(e.item_id)),
        participants: all.participants.filter((p) => itemIds.has(p.item_id)),
      });
      if (one.items.length > 1) seen.multiItem++;
      if (one.items.length === 1 && one.quantities.length > 1) seen.oneItemSeveralQuantities++;
      if (one.payments.length > 0) seen.payments++;
      if (one.customers.length > 0) seen.customers++;
    }
    // The demo and the two bookings above cover each list's one-key and several-key reads.
    expect(Object.values(seen).every((n) => n > 0), JSON.stringify(seen)).toBe(true);
  });
});
