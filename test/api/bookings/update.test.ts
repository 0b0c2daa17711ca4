import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, anExtraRow, aPickupListRow, aProduct, aSessionRow } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TABLES = ['bookings', 'booking_items', 'participants', 'payments', 'customers', 'op_log'];
let day = 0;
async function booked(overrides = {}, bookingOverrides = {}, seats = 20) {
  const p = (await t.call('POST', '/v1/products', { body: aProduct(overrides) })).body.product;
  const startTime = `2030-05-${String(++day).padStart(2, '0')}T00:00:00Z`;
  const sessionId = aSessionRow(t.sql, { productCode: p.productCode, startAt: startTime, seats });
  const res = await t.call('POST', '/v1/bookings', { body: aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }], bookingOverrides) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { p, startTime, sessionId, booking: res.body.booking };
}
const put = (orderNumber: string, body: unknown, role?: 'agent') => t.call('PUT', `/v1/bookings/${orderNumber}`, { body, role });
const held = (sessionId: number) =>
  (t.sql.prepare("SELECT coalesce(sum(i.seats_held), 0) AS n FROM booking_items i JOIN bookings b USING (order_number) WHERE i.session_id = ? AND b.status NOT IN ('CANCELLED','ABANDONED_CART')").get(sessionId) as { n: number }).n;

describe('status transitions', () => {
  it('confirms a PROCESSING booking (two-step flow) and it keeps holding its seats', async () => {
    const { booking, sessionId } = await booked({}, { status: 'PROCESSING' });
    expect(held(sessionId)).toBe(2);
    const res = await put(booking.orderNumber, { ...booking, status: 'CONFIRMED' });
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ status: 'CONFIRMED', dateConfirmed: '2030-01-01T00:00:00Z' });
    expect(held(sessionId)).toBe(2);
  });

  it('abandons a PROCESSING booking and gives its seats back', async () => {
    const { booking, sessionId } = await booked({}, { status: 'PROCESSING' });
    expect((await put(booking.orderNumber, { ...booking, status: 'ABANDONED_CART' })).body.booking.status).toBe('ABANDONED_CART');
    expect(held(sessionId)).toBe(0);
  });

  it('cancels any booking by PUT without recording a refund', async () => {
    const { booking, sessionId } = await booked({}, { payments: [{ type: 'CASH', amount: 100 }] });
    const res = await put(booking.orderNumber, { ...booking, status: 'CANCELLED' });
    expect(res.body.booking).toMatchObject({ status: 'CANCELLED', totalPaid: 100 });
    expect(res.body.booking.payments).toHaveLength(1);
    expect(held(sessionId)).toBe(0);
  });

  it('refuses other transitions with 409 INVALID_STATE and a clear message, changing nothing', async () => {
    const { booking } = await booked();
    const cases: [string, string][] = [['CONFIRMED', 'PROCESSING'], ['CONFIRMED', 'ABANDONED_CART']];
    for (const [, to] of cases) {
      const before = t.snapshot(...TABLES);
      const res = await put(booking.orderNumber, { ...booking, status: to });
      expect(res.status).toBe(409);
      expect(res.body.requestStatus.error.errorCode).toBe('INVALID_STATE');
      expect(res.body.requestStatus.error.errorMessage).toMatch(/CONFIRMED booking cannot become/);
      expect(t.snapshot(...TABLES)).toEqual(before);
    }
    await put(booking.orderNumber, { ...booking, status: 'CANCELLED' });
    const again = await put(booking.orderNumber, { ...booking, status: 'CONFIRMED' });
    expect(again.status).toBe(409);
    expect(again.body.requestStatus.error.errorMessage).toMatch(/cancelled/);
  });
});

describe('full replacement of the supported parts', () => {
  it('replaces customer, fields, participant fields, resellerComments and resellerReference; omitted ones are deleted', async () => {
    const { booking } = await booked({}, { resellerComments: 'old', resellerReference: 'REF-1' });
    const { resellerReference: _dropped, ...rest } = booking;
    const body = {
      ...rest,
      customer: { firstName: 'Alan', lastName: 'Turing', email: 'alan@example.test' },
      fields: [{ label: 'Hotel', value: 'Grand' }],
      resellerComments: 'new comment',
      items: [{ ...booking.items[0], participants: [{ fields: [{ label: 'First Name', value: 'Alan' }] }] }],
    };
    const updated = (await put(booking.orderNumber, body)).body.booking;
    expect(updated.customer).toMatchObject({ name: 'Alan Turing', email: 'alan@example.test', id: booking.customer.id });
    expect(updated.customer.phone).toBeUndefined();
    expect(updated.fields).toEqual([{ label: 'Hotel', value: 'Grand' }]);
    expect(updated.resellerComments).toBe('new comment');
    expect(updated.resellerReference).toBeUndefined();
    expect(updated.items[0].participants.map((p: any) => p.fields)).toEqual([[{ label: 'First Name', value: 'Alan' }], []]);
    const bare = (await put(booking.orderNumber, { status: 'CONFIRMED' })).body.booking;
    expect(bare.customer).toBeUndefined();
    expect(bare.fields).toEqual([]);
    expect(bare.resellerComments).toBeUndefined();
    expect(bare.items[0].participants).toHaveLength(2);
  });

  it('accepts the booking echoed back unchanged (PUT of what GET answered)', async () => {
    const { booking } = await booked();
    const res = await put(booking.orderNumber, booking);
    expect(res.status).toBe(200);
    const { dateUpdated: _a, ...after } = res.body.booking;
    const { dateUpdated: _b, ...before } = booking;
    expect(after).toEqual(before);
  });

  it('refuses changes to product, start time, quantities, amount or the number of items with 400, changing nothing', async () => {
    const { booking } = await booked();
    const item = booking.items[0];
    const attempts = [
      { items: [{ ...item, productCode: 'POTHER1' }] },
      { items: [{ ...item, startTime: '2030-06-01T00:00:00Z', startTimeLocal: undefined }] },
      { items: [{ ...item, quantities: [{ optionLabel: 'Adult', value: 3 }] }] },
      { items: [{ ...item, amount: 1 }] },
      { items: [item, item] },
      { items: [{ ...item, participants: [{}, {}, {}] }] },
      { internalNotes: 'changed' },
      { comments: 'changed' },
    ];
    for (const attempt of attempts) {
      const before = t.snapshot(...TABLES);
      const res = await put(booking.orderNumber, { ...booking, ...attempt });
      expect(res.status, JSON.stringify(attempt)).toBe(400);
      expect(res.body.requestStatus.error.errorMessage).toMatch(/items|internalNotes|comments/);
      expect(t.snapshot(...TABLES)).toEqual(before);
    }
  });

  it('refuses a change to payments, vouchers, createdBy, resellerUser, item extras, subtotal or endTime with 400 naming the field, changing nothing (issue 19)', async () => {
    const extra = anExtraRow(t.sql, { extraPriceType: 'QUANTITY', priceMinor: 500 });
    const user = { code: 'u1', email: 'desk@example.test' };
    const { booking } = await booked({ extras: [{ id: extra }] }, { payments: [{ type: 'CASH', amount: 20 }], createdBy: user, resellerUser: user });
    const withExtra = await booked({ extras: [{ id: extra }] });
    const echoed = (await put(booking.orderNumber, booking)).body.booking;
    expect(echoed.payments).toEqual(booking.payments);
    const item = booking.items[0];
    const attempts: [object, RegExp][] = [
      [{ payments: [] }, /payments cannot change/],
      [{ payments: [{ type: 'CASH', amount: 100 }] }, /payments\[0\] cannot change/],
      [{ payments: [...booking.payments, { type: 'CASH', amount: 80 }] }, /payments cannot change/],
      [{ vouchers: ['FREE100'] }, /vouchers cannot change/],
      [{ createdBy: { code: 'someone-else' } }, /createdBy cannot change/],
      [{ resellerUser: { ...user, email: 'other@example.test' } }, /resellerUser cannot change/],
      [{ items: [{ ...item, extras: [{ id: extra, quantity: 3 }] }] }, /items\[0\]\.extras cannot change/],
      [{ items: [{ ...item, subtotal: 1 }] }, /items\[0\]\.subtotal cannot change/],
      [{ items: [{ ...item, endTime: '2031-01-01T00:00:00Z' }] }, /items\[0\]\.endTime cannot change/],
      [{ items: [{ ...item, endTimeLocal: '2031-01-01 09:00:00' }] }, /items\[0\]\.endTimeLocal cannot change/],
    ];
    for (const [attempt, message] of attempts) {
      const before = t.snapshot(...TABLES, 'booking_item_extras', 'voucher_redemptions');
      const res = await put(booking.orderNumber, { ...booking, ...attempt });
      expect(res.status, JSON.stringify(attempt)).toBe(400);
      expect(res.body.requestStatus.error.errorMessage).toMatch(message);
      expect(t.snapshot(...TABLES, 'booking_item_extras', 'voucher_redemptions')).toEqual(before);
    }
    expect((await put(withExtra.booking.orderNumber, withExtra.booking)).status).toBe(200);
  });

  it('follows "omitted means deleted" when items are left out: participant fields and pickups are cleared, items kept (issue 19)', async () => {
    const pickupId = aPickupListRow(t.sql, { locations: [{ locationName: 'Pier 1', minutesPrior: 15 }] });
    const { booking } = await booked({ pickupId } as object);
    const named = { ...booking, items: [{ ...booking.items[0], participants: [{ fields: [{ label: 'First Name', value: 'Ada' }] }], pickupLocation: { locationName: 'Pier 1' } }] };
    const withDetails = (await put(booking.orderNumber, named)).body.booking;
    expect(withDetails.items[0].pickupLocation.locationName).toBe('Pier 1');
    const { items: _left, ...withoutItems } = withDetails;
    const after = (await put(booking.orderNumber, withoutItems)).body.booking;
    expect(after.items[0]).toMatchObject({ productCode: booking.items[0].productCode, totalQuantity: 2, amount: booking.items[0].amount });
    expect(after.items[0].participants.map((p: { fields: unknown }) => p.fields)).toEqual([[], []]);
    expect(after.items[0].pickupLocation).toBeUndefined();
  });

  it('lets an agent update its own booking only', async () => {
    const p = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product;
    const startTime = '2030-05-28T00:00:00Z';
    aSessionRow(t.sql, { productCode: p.productCode, startAt: startTime });
    const mine = (await t.call('POST', '/v1/bookings', { role: 'agent', body: aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]) })).body.booking;
    expect((await put(mine.orderNumber, { ...mine, resellerComments: 'voucher 123' }, 'agent')).body.booking.resellerComments).toBe('voucher 123');
    const { booking: desk } = await booked();
    const res = await put(desk.orderNumber, desk, 'agent');
    expect(res.status).toBe(404);
    expect(res.body.requestStatus.error.errorCode).toBe('24');
  });
});

describe('all-day items', () => {
  it('accepts the same date back on a NO_DATE item and refuses another date', async () => {
    const p = (await t.call('POST', '/v1/products', { body: aProduct({ bookingMode: 'NO_DATE' }) })).body.product;
    const b = (await t.call('POST', '/v1/bookings', { body: { items: [{ productCode: p.productCode, startTimeLocal: '2030-05-20', quantities: [{ optionLabel: 'Adult', value: 1 }] }] } })).body.booking;
    expect((await put(b.orderNumber, b)).status).toBe(200);
    const moved = await put(b.orderNumber, { ...b, items: [{ ...b.items[0], startTime: undefined, startTimeLocal: '2030-05-21 00:00:00' }] });
    expect(moved.status).toBe(400);
    expect(moved.body.requestStatus.error.errorMessage).toMatch(/start time\) cannot change/);
  });
});
