import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, aProduct } from '../../fixtures/builders';

/**
 * Issue 37: the desk takes the balance. POST /v1/bookings/{orderNumber}/payments records the payment
 * with the key and device that took it, never more than is due, once per paymentRef; the booking
 * then answers totalDue 0. Runs on SQLite and on PostgreSQL.
 */
let t: TestApp;
let productCode: string;
let startTime: string;
beforeAll(async () => {
  t = await startTestApp();
  productCode = (await t.call('POST', '/v1/products', { body: aProduct({ name: 'Reef Day' }) })).body.product.productCode;
  startTime = (await t.call('POST', '/v1/availability', { body: { productCode, startTimeLocal: '2030-01-02 09:00:00', seats: 20 } })).body.session.startTime;
});
afterAll(() => t.close());

/** A booking of `adults` × 50 AUD with `paid` already paid in cash. */
async function booking(adults: number, paid = 0): Promise<string> {
  const payments = paid ? [{ type: 'CASH', amount: paid }] : [];
  const res = await t.call('POST', '/v1/bookings', { body: aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: adults }], { payments }) });
  expect(res.status).toBe(200);
  return res.body.booking.orderNumber;
}
const pay = (orderNumber: string, body: Record<string, unknown>, role: 'supplier' | 'agent' | 'checkin' = 'supplier') => t.call('POST', `/v1/bookings/${orderNumber}/payments`, { body, role });
const read = async (orderNumber: string) => (await t.call('GET', `/v1/bookings/${orderNumber}`)).body.booking;

describe('POST /v1/bookings/{orderNumber}/payments', () => {
  it('records the balance with the key and the device that took it, and the booking then owes nothing', async () => {
    const order = await booking(3, 50);
    expect((await read(order)).totalDue).toBe(100);
    const res = await pay(order, { type: 'creditcard', amount: '100.00', device: 'Front desk PC', paymentRef: 'pay-0001-front' });
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ totalPaid: 150, totalDue: 0 });
    const stored = await read(order);
    expect(stored).toMatchObject({ totalPaid: 150, totalDue: 0 });
    expect(stored.payments).toHaveLength(2);
    expect(stored.payments[1]).toMatchObject({ type: 'CREDITCARD', amount: 100, currency: 'AUD', takenBy: 'Test supplier', device: 'Front desk PC' });
    expect(stored.payments[1].recordedBy).toBeUndefined();
  });

  it('takes part of the balance, and then the rest', async () => {
    const order = await booking(2);
    expect((await pay(order, { type: 'CASH', amount: 30 })).body.booking.totalDue).toBe(70);
    expect((await pay(order, { type: 'OTHER', amount: 70 })).body.booking).toMatchObject({ totalDue: 0, totalPaid: 100 });
  });

  it('records a payment sent twice under the same paymentRef once (an outbox retry)', async () => {
    const order = await booking(2);
    const body = { type: 'CASH', amount: 100, paymentRef: 'retry-ref-0001', takenAt: '2029-12-31T22:30:00Z' };
    expect((await pay(order, body)).status).toBe(200);
    const again = await pay(order, body);
    expect(again.status).toBe(200);
    expect(again.body.booking).toMatchObject({ totalPaid: 100, totalDue: 0 });
    expect(again.body.booking.payments).toHaveLength(1);
    expect(again.body.booking.payments[0].date).toBe('2029-12-31T22:30:00Z');
    const other = await booking(1);
    const reused = await pay(other, { ...body, amount: 50 });
    expect(reused.status).toBe(409);
    expect(reused.body.requestStatus.error.errorMessage).toMatch(/already used for another payment/);
    expect((await read(other)).totalPaid).toBe(0);
  });

  it('refuses more than is due, a paid booking and a cancelled one, and changes nothing', async () => {
    const order = await booking(1);
    const more = await pay(order, { type: 'CASH', amount: 50.01 });
    expect(more.status).toBe(422);
    expect(more.body.requestStatus).toMatchObject({ success: false, error: { errorCode: 'BUSINESS_RULE', errorMessage: `50.01 AUD is more than the 50.00 AUD due on booking ${order}` } });
    expect((await pay(order, { type: 'CASH', amount: 50 })).status).toBe(200);
    const paid = await pay(order, { type: 'CASH', amount: 1 });
    expect(paid.status).toBe(422);
    expect(paid.body.requestStatus.error.errorMessage).toMatch(/nothing is due/);
    const cancelled = await booking(1);
    await t.call('DELETE', `/v1/bookings/${cancelled}`);
    const late = await pay(cancelled, { type: 'CASH', amount: 10 });
    expect(late.status).toBe(409);
    expect(late.body.requestStatus.error.errorCode).toBe('INVALID_STATE');
    expect((await read(order)).payments).toHaveLength(1);
  });

  it('refuses a body that is not a payment, naming the field', async () => {
    const order = await booking(1);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ type: 'CASH', amount: 'ten' }, /amount/],
      [{ type: 'CASH', amount: 0 }, /amount.*greater than 0/],
      [{ type: 'CASH', amount: 10.005 }, /more decimals than AUD/],
      [{ type: 'CHEQUE', amount: 10 }, /type.*CASH, CREDITCARD, OTHER/],
      [{ type: 'CASH', amount: 10, currency: 'NZD' }, /currency: NZD differs from the booking's AUD/],
      [{ type: 'CASH', amount: 10, paymentRef: 'x' }, /paymentRef/],
      [{ type: 'CASH', amount: 10, takenAt: 'yesterday-ish' }, /takenAt/],
    ];
    for (const [body, message] of cases) {
      const res = await pay(order, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(`${res.body.requestStatus.error.errorMessage}`, JSON.stringify(body)).toMatch(message);
    }
    expect((await pay('NOSUCH', { type: 'CASH', amount: 10 })).status).toBe(404);
    expect((await read(order)).totalPaid).toBe(0);
  });

  it("takes an agent's payment only on its own bookings, marked as the agent's; a checkin key may not", async () => {
    const order = await booking(1);
    expect((await pay(order, { type: 'CASH', amount: 10 }, 'checkin')).status).toBe(403);
    expect((await pay(order, { type: 'CASH', amount: 10 }, 'agent')).status).toBe(404);
    expect((await read(order)).totalPaid).toBe(0);
  });

  it('says who took the payments a booking was made with, and who recorded a refund', async () => {
    const order = await booking(1, 50);
    await t.call('DELETE', `/v1/bookings/${order}`);
    const { payments } = await read(order);
    expect(payments.map((p: { takenBy?: string; refund?: boolean }) => [p.takenBy, p.refund ?? false])).toEqual([
      ['Test supplier', false],
      ['Test supplier', true],
    ]);
  });
});
