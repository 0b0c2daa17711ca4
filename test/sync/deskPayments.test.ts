import { describe, expect, it } from 'vitest';
import { aBooking, aProduct, aSession } from '../fixtures/builders';
import { exchange, nodesClosedAfterEach } from './nodes';

/** Issue 37: a payment taken at a desk reaches the hub with who took it and on which device (payments sync whole rows). */
const { node } = nodesClosedAfterEach();

describe('a payment taken at a desk, synced', () => {
  it('reaches the hub with its taker, device and payment id, and the hub answers totalDue 0', async () => {
    const hub = await node('hub', { instanceNo: 1 });
    const productCode = (await hub.call('POST', '/v1/products', aProduct())).body.product.productCode;
    expect((await hub.call('POST', '/v1/availability', aSession(productCode, { seats: 10 }))).status).toBe(200);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const order = (await hub.call('POST', '/v1/bookings', aBooking(productCode, '2030-02-01T09:00:00+11:00', [{ optionLabel: 'Adult', value: 2 }]))).body.booking.orderNumber;
    await exchange(desk, hub);
    const taken = await desk.call('POST', `/v1/bookings/${order}/payments`, { type: 'CASH', amount: 100, device: 'Wharf desk', paymentRef: 'sync-pay-0001' });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    await exchange(desk, hub);
    const atHub = (await hub.call('GET', `/v1/bookings/${order}`)).body.booking;
    expect(atHub).toMatchObject({ totalPaid: 100, totalDue: 0 });
    expect(atHub.payments).toEqual([expect.objectContaining({ type: 'CASH', amount: 100, device: 'Wharf desk', takenBy: taken.body.booking.payments[0].takenBy })]);
    expect(hub.sql.prepare("SELECT payment_ref FROM payments WHERE order_number = ?").get(order)).toEqual({ payment_ref: 'sync-pay-0001' });
    expect(await desk.dump()).toBe(await hub.dump());
  });
});
