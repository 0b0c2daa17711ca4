import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seatsHeldBySession } from '../../../db/queries/seats';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, aProduct, aSessionRow } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const op = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), session: fc.nat(1), adults: fc.integer({ min: 1, max: 4 }), children: fc.nat(2), processing: fc.boolean() }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), status: fc.constantFrom('CONFIRMED', 'ABANDONED_CART', 'CANCELLED') }),
);

/** Held seats recounted from the quantity rows, independently of booking_items.seats_held. */
function recount(sessionId: number): number {
  const row = t.sql
    .prepare(
      `SELECT coalesce(sum(q.value * q.seats_used), 0) AS n FROM booking_item_quantities q
       JOIN booking_items i ON i.id = q.item_id JOIN bookings b ON b.order_number = i.order_number
       WHERE i.session_id = ? AND b.status NOT IN ('CANCELLED', 'ABANDONED_CART')`,
    )
    .get(sessionId) as { n: number };
  return row.n;
}

let run = 0;
describe('seats under random sequences of bookings', () => {
  it('never lets seatsAvailable go below 0 or disagree with a recount from the rows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 8 }), async (ops, seats) => {
        const product = (await t.call('POST', '/v1/products', { body: aProduct({ priceOptions: [{ label: 'Adult', price: 10 }, { label: 'Child', price: 5, seatsUsed: 2 }] }) })).body.product;
        const starts = [`2030-08-01T0${run % 10}:00:00Z`, `2030-08-02T0${run % 10}:00:00Z`];
        run++;
        const sessions = starts.map((startAt) => aSessionRow(t.sql, { productCode: product.productCode, startAt, seats }));
        const orders: string[] = [];
        for (const step of ops) {
          if (step.kind === 'create') {
            const quantities = [{ optionLabel: 'Adult', value: step.adults }, { optionLabel: 'Child', value: step.children }];
            const res = await t.call('POST', '/v1/bookings', { body: aBooking(product.productCode, starts[step.session], quantities, step.processing ? { status: 'PROCESSING' } : {}) });
            if (res.status === 200) orders.push(res.body.booking.orderNumber);
            else expect(res.body.requestStatus.error.errorCode).toBe('NO_SEATS');
          } else if (orders.length > 0) {
            const orderNumber = orders[step.pick % orders.length];
            const res =
              step.kind === 'cancel' ? await t.call('DELETE', `/v1/bookings/${orderNumber}`) : await t.call('PUT', `/v1/bookings/${orderNumber}`, { body: { status: step.status } });
            if (res.status !== 200) expect(res.body.requestStatus.error.errorCode).toBe('INVALID_STATE');
          }
          const held = await seatsHeldBySession(t.engine.ctx.db, sessions);
          for (const sessionId of sessions) {
            const available = seats - (held.get(sessionId) ?? 0);
            expect(available).toBeGreaterThanOrEqual(0);
            expect(held.get(sessionId) ?? 0).toBe(recount(sessionId));
          }
        }
      }),
      { numRuns: 30 },
    );
  });
});
