import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, aProduct, aSessionRow } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TABLES = ['bookings', 'booking_items', 'booking_item_quantities', 'participants', 'payments', 'customers', 'op_log', 'sequences'];
const product = async (overrides = {}) => (await t.call('POST', '/v1/products', { body: aProduct(overrides) })).body.product;
let day = 0;
/** A product with a fresh session (each test its own day in February 2030). */
async function productWithSession(overrides = {}, seats = 20) {
  const p = await product(overrides);
  const startTime = `2030-02-${String(++day).padStart(2, '0')}T00:00:00Z`;
  aSessionRow(t.sql, { productCode: p.productCode, startAt: startTime, seats });
  return { p, startTime };
}
const book = (body: unknown, role?: 'agent' | 'supplier') => t.call('POST', '/v1/bookings', { body, role });
const expectRefused = async (body: unknown, status: number, code: string, message?: RegExp) => {
  const before = t.snapshot(...TABLES);
  const res = await book(body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.requestStatus.error.errorCode).toBe(code);
  if (message) expect(res.body.requestStatus.error.errorMessage).toMatch(message);
  expect(t.snapshot(...TABLES)).toEqual(before);
};

describe('create and get bookings', () => {
  it('books a session, prices it exactly and answers the booking with every computed field', async () => {
    const { p, startTime } = await productWithSession();
    const res = await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }, { optionLabel: 'Child', value: 1 }], { resellerReference: 'R-1', comments: 'window seat', sourceChannel: 'desk' }));
    expect(res.status).toBe(200);
    const b = res.body.booking;
    expect(b.orderNumber).toMatch(/^T1-\d{5}$/);
    expect(b).toMatchObject({ status: 'CONFIRMED', totalAmount: 125, totalCurrency: 'AUD', totalPaid: 0, totalDue: 125, source: 'INTERNAL', comments: 'window seat', sourceChannel: 'desk', supplierAlias: 'testtours', resellerReference: 'R-1' });
    expect(b.dateCreated).toBe('2030-01-01T00:00:00Z');
    expect(b.dateConfirmed).toBe('2030-01-01T00:00:00Z');
    expect(b.customer).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.test' });
    expect(b.items[0]).toMatchObject({ productCode: p.productCode, productName: 'Old Town Walk', startTime, startTimeLocal: '2030-02-01 11:00:00', amount: 125, subtotal: 125, totalQuantity: 3 });
    expect(b.items[0].quantities).toEqual([
      { optionId: p.priceOptions[0].id, optionLabel: 'Adult', optionPrice: 50, value: 2 },
      { optionId: p.priceOptions[1].id, optionLabel: 'Child', optionPrice: 25, value: 1 },
    ]);
    expect(b.items[0].participants).toHaveLength(3);
    expect((await t.call('GET', `/v1/bookings/${b.orderNumber}`)).body.booking).toEqual(b);
  });

  it('round-trips every writable Booking, Customer and BookingField field', async () => {
    const { p, startTime } = await productWithSession();
    const user = { code: 'U1', email: 'desk@test.example', firstName: 'Desk', lastName: 'Person' };
    const customer = { firstName: 'Grace', middleName: 'B', lastName: 'Hopper', title: 'MS', gender: 'FEMALE', dob: '1906-12-09', email: 'g@example.test', phone: '1', mobile: '2', fax: '3', messengerAlias: 'gh', companyName: 'Navy', addressLine: 'a1', addressLine2: 'a2', city: 'c', state: 's', postCode: '22201', countryCode: 'US', preferredLanguage: 'en', aboutUs: 'friend', marketing: true, newsletter: false };
    const field = { fieldType: 'String', label: 'Hotel', listOptions: '', requiredPerBooking: false, requiredPerParticipant: false, visiblePerBooking: true, visiblePerParticipant: false, value: 'Grand' };
    const body = aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { customer, fields: [field], createdBy: user, resellerUser: user, resellerComments: 'rc', resellerReference: 'rr', internalNotes: 'in', orderNumber: 'MINE-1' });
    const b = (await book(body)).body.booking;
    expect(b.orderNumber).not.toBe('MINE-1');
    expect(b).toMatchObject({ fields: [field], createdBy: user, resellerUser: user, resellerComments: 'rc', resellerReference: 'rr', internalNotes: 'in' });
    expect(b.customer).toMatchObject({ ...customer, name: 'Grace B Hopper' });
  });

  it('writes the rows of the contract: items, quantities, participants and seats held', async () => {
    const { p, startTime } = await productWithSession({ priceOptions: [{ label: 'Adult', price: 10, seatsUsed: 2 }] });
    const b = (await book(aBooking(p.productCode, startTime, [{ value: 3 }]))).body.booking;
    const item = t.sql.prepare('SELECT * FROM booking_items WHERE order_number = ?').get(b.orderNumber) as any;
    expect(item).toMatchObject({ position: 0, total_quantity: 3, seats_held: 6, amount_minor: 3000, subtotal_minor: 3000, all_day: 0 });
    expect(item.session_id).toBeGreaterThan(0);
    expect(t.sql.prepare('SELECT count(*) AS n FROM participants WHERE item_id = ?').get(item.id)).toEqual({ n: 3 });
    const booking = t.sql.prepare('SELECT * FROM bookings WHERE order_number = ?').get(b.orderNumber) as any;
    expect(booking).toMatchObject({ status: 'CONFIRMED', currency: 'AUD', total_amount_minor: 3000, fields_json: '[]' });
  });

  it('takes startTimeLocal, and a single-option product needs only value', async () => {
    const { p } = await productWithSession({ priceOptions: [{ label: 'Ticket', price: 12.5 }] });
    const res = await book({ items: [{ productCode: p.productCode, startTimeLocal: `2030-02-${String(day).padStart(2, '0')} 11:00:00`, quantities: [{ value: '2' }] }] });
    expect(res.status).toBe(200);
    expect(res.body.booking.totalAmount).toBe(25);
    expect(res.body.booking.customer).toBeUndefined();
  });

  it('books NO_DATE products for any date as an all-day item without a session', async () => {
    const p = await product({ bookingMode: 'NO_DATE' });
    const b = (await book({ items: [{ productCode: p.productCode, startTimeLocal: '2030-03-05', quantities: [{ optionLabel: 'Adult', value: 1 }] }] })).body.booking;
    expect(b.items[0]).toMatchObject({ startTimeLocal: '2030-03-05 00:00:00', endTimeLocal: '2030-03-06 00:00:00', allDay: true });
    const item = t.sql.prepare('SELECT session_id, seats_held, all_day FROM booking_items WHERE order_number = ?').get(b.orderNumber);
    expect(item).toEqual({ session_id: null, seats_held: 0, all_day: 1 });
  });

  it('refuses an unknown product, session or option naming the item index, and changes nothing', async () => {
    const { p, startTime } = await productWithSession();
    const ok = { productCode: p.productCode, startTime, quantities: [{ optionLabel: 'Adult', value: 1 }] };
    await expectRefused({ items: [ok, { ...ok, productCode: 'PNOPE00' }] }, 400, 'VALIDATION_ERROR', /items\[1\]: there is no product PNOPE00/);
    await expectRefused({ items: [ok, { ...ok, startTime: '2030-02-28T09:00:00Z' }] }, 400, 'VALIDATION_ERROR', /items\[1\]: product P\w+ has no session at 2030-02-28T09:00:00Z/);
    await expectRefused({ items: [{ ...ok, quantities: [{ optionLabel: 'Senior', value: 1 }] }] }, 400, 'VALIDATION_ERROR', /items\[0\]: quantities\[0\]: .*no price option "Senior"/);
    await expectRefused({ items: [{ ...ok, quantities: [{ value: 1 }] }] }, 400, 'VALIDATION_ERROR', /optionId or optionLabel/);
    await expectRefused({ items: [] }, 400, 'VALIDATION_ERROR');
    await expectRefused({ items: [{ ...ok, quantities: [{ optionLabel: 'Adult', value: -1 }] }] }, 400, 'VALIDATION_ERROR');
  });

  it('links an existing customer by id for supplier keys, and refuses an unknown customer id', async () => {
    const { p, startTime } = await productWithSession();
    const customer = (await t.call('POST', '/v1/customers', { body: { firstName: 'Known', lastName: 'Person' } })).body.customer;
    const b = (await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { customer: { id: customer.id } }))).body.booking;
    expect(b.customer).toMatchObject({ id: customer.id, name: 'Known Person' });
    await expectRefused(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { customer: { id: 123456789 } }), 400, 'VALIDATION_ERROR', /customer.id 123456789/);
  });

  it('answers errorCode 24 with 404 for a missing order', async () => {
    const res = await t.call('GET', '/v1/bookings/T1-99999');
    expect(res.status).toBe(404);
    expect(res.body.requestStatus.error).toMatchObject({ errorCode: '24' });
    expect((await t.call('DELETE', '/v1/bookings/T1-99999')).body.requestStatus.error.errorCode).toBe('24');
    expect((await t.call('PUT', '/v1/bookings/T1-99999', { body: {} })).body.requestStatus.error.errorCode).toBe('24');
  });
});

describe('quantity rules', () => {
  it("enforces each option's minQuantity and maxQuantity and the product's total bounds with 422", async () => {
    const { p, startTime } = await productWithSession({ quantityRequiredMin: 2, quantityRequiredMax: 5, priceOptions: [{ label: 'Adult', price: 10, minQuantity: 1, maxQuantity: 4 }, { label: 'Child', price: 5 }] });
    const body = (q: { optionLabel: string; value: number }[]) => aBooking(p.productCode, startTime, q);
    await expectRefused(body([{ optionLabel: 'Adult', value: 5 }]), 422, 'BUSINESS_RULE', /allows at most 4/);
    await expectRefused(body([{ optionLabel: 'Child', value: 1 }]), 422, 'BUSINESS_RULE', /at least 2 in total/);
    await expectRefused(body([{ optionLabel: 'Adult', value: 4 }, { optionLabel: 'Child', value: 2 }]), 422, 'BUSINESS_RULE', /at most 5 in total/);
    expect((await book(body([{ optionLabel: 'Adult', value: 1 }, { optionLabel: 'Child', value: 1 }]))).status).toBe(200);
  });

  it('refuses a zero quantity when quantityRequired, and a booking inside the minimum notice', async () => {
    const { p, startTime } = await productWithSession({ minimumNoticeMinutes: 60 * 24 * 60 });
    await expectRefused(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 0 }]), 422, 'BUSINESS_RULE', /quantity above 0/);
    await expectRefused(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]), 422, 'BUSINESS_RULE', /minutes before it starts/);
  });

  it('gives a charter session exactly one live booking (409 CHARTER_TAKEN)', async () => {
    const { p, startTime } = await productWithSession({ charter: true });
    const first = await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]));
    expect(first.status).toBe(200);
    await expectRefused(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]), 409, 'CHARTER_TAKEN');
    await t.call('DELETE', `/v1/bookings/${first.body.booking.orderNumber}`);
    expect((await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]))).status).toBe(200);
  });

  it('refuses more seats than are left with 409 NO_SEATS; a cancelled booking gives its seats back', async () => {
    const { p, startTime } = await productWithSession({}, 3);
    const first = (await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]))).body.booking;
    await expectRefused(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]), 409, 'NO_SEATS', /only 1 seat\(s\) left/);
    await t.call('DELETE', `/v1/bookings/${first.orderNumber}`);
    expect((await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 3 }]))).status).toBe(200);
  });
});

describe('status', () => {
  it('follows the confirmMode without a status, including the participant thresholds', async () => {
    const cases: [object, number, string][] = [
      [{ confirmMode: 'AUTOCONFIRM' }, 1, 'CONFIRMED'],
      [{ confirmMode: 'MANUAL' }, 1, 'PENDING_SUPPLIER'],
      [{ confirmMode: 'MANUAL_THEN_AUTO', confirmModeMinParticipants: 3 }, 2, 'PENDING_SUPPLIER'],
      [{ confirmMode: 'MANUAL_THEN_AUTO', confirmModeMinParticipants: 3 }, 3, 'CONFIRMED'],
      [{ confirmMode: 'AUTO_THEN_MANUAL', confirmModeMinParticipants: 3 }, 2, 'CONFIRMED'],
      [{ confirmMode: 'AUTO_THEN_MANUAL', confirmModeMinParticipants: 3 }, 3, 'PENDING_SUPPLIER'],
      [{ confirmMode: 'AUTO_THEN_MANUAL' }, 5, 'CONFIRMED'],
    ];
    for (const [overrides, value, status] of cases) {
      const { p, startTime } = await productWithSession(overrides);
      const b = (await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value }]))).body.booking;
      expect(b.status, JSON.stringify(overrides) + value).toBe(status);
    }
  });

  it('creates with status CONFIRMED or PROCESSING, and refuses any other status with 409', async () => {
    const { p, startTime } = await productWithSession({ confirmMode: 'MANUAL' });
    expect((await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { status: 'CONFIRMED' }))).body.booking.status).toBe('CONFIRMED');
    expect((await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { status: 'PROCESSING' }))).body.booking.status).toBe('PROCESSING');
    await expectRefused(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { status: 'CANCELLED' }), 409, 'INVALID_STATE');
    await expectRefused(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { status: 'BOGUS' }), 400, 'VALIDATION_ERROR');
  });
});

describe('cancel', () => {
  it('cancels with DELETE (and its /cancel alias), refunds what was paid, and refuses a second cancel', async () => {
    const { p, startTime } = await productWithSession();
    const body = aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }], { payments: [{ type: 'CASH', amount: '60.00', label: 'deposit' }] });
    const b = (await book(body)).body.booking;
    expect(b).toMatchObject({ totalPaid: 60, totalDue: 40 });
    const cancelled = await t.call('DELETE', `/v1/bookings/${b.orderNumber}?sendNotifications=false`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.booking).toMatchObject({ status: 'CANCELLED', totalPaid: 0 });
    expect(cancelled.body.booking.payments[1]).toMatchObject({ amount: 60, refund: true });
    const again = await t.call('DELETE', `/v1/bookings/${b.orderNumber}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.requestStatus.error.errorMessage).toMatch(/already cancelled/);
    const other = (await book(body)).body.booking;
    expect((await t.call('DELETE', `/v1/bookings/${other.orderNumber}/cancel`)).body.booking.status).toBe('CANCELLED');
  });
});

describe('roles', () => {
  it('lets an agent see and change only its own bookings (others answer 24), and checkin keys none', async () => {
    const { p, startTime } = await productWithSession();
    const mine = (await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]), 'agent')).body.booking;
    expect(mine).toMatchObject({ source: 'API', resellerName: 'Test agent' });
    expect(mine.resellerId).toBeGreaterThan(0);
    const desk = (await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]))).body.booking;
    expect((await t.call('GET', `/v1/bookings/${mine.orderNumber}`, { role: 'agent' })).status).toBe(200);
    const hidden = await t.call('GET', `/v1/bookings/${desk.orderNumber}`, { role: 'agent' });
    expect(hidden.status).toBe(404);
    expect(hidden.body.requestStatus.error.errorCode).toBe('24');
    expect((await t.call('DELETE', `/v1/bookings/${desk.orderNumber}`, { role: 'agent' })).status).toBe(404);
    const listed = (await t.call('GET', '/v1/bookings', { role: 'agent' })).body.bookings.map((b: any) => b.orderNumber);
    expect(listed).toContain(mine.orderNumber);
    expect(listed).not.toContain(desk.orderNumber);
    expect((await t.call('GET', '/v1/bookings', { role: 'checkin' })).status).toBe(403);
    expect((await t.call('POST', '/v1/bookings', { role: 'checkin', body: {} })).status).toBe(403);
    expect((await t.call('GET', `/v1/bookings/${desk.orderNumber}`, { role: 'checkin' })).status).toBe(403);
  });
});
