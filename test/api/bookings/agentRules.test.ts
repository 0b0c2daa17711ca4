import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, aProduct, aSessionRow, aVoucher } from '../../fixtures/builders';
import { expectError, expectRefusedUnchanged } from '../../fixtures/refusals';

/** Issue 19, part B: what an agent key may not do (vouchers it did not sell, confirming, pricing). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

let day = 0;
async function productWithSession(overrides = {}) {
  const p = (await t.call('POST', '/v1/products', { body: aProduct(overrides) })).body.product;
  const startTime = `2030-10-${String(++day).padStart(2, '0')}T00:00:00Z`;
  aSessionRow(t.sql, { productCode: p.productCode, startAt: startTime });
  return { p, startTime };
}
const agentBook = (body: unknown) => t.call('POST', '/v1/bookings', { body, role: 'agent' });
const BOOKING_TABLES = ['bookings', 'booking_items', 'participants', 'payments', 'voucher_redemptions', 'customers'];

describe('an agent and voucher codes', () => {
  it('lists and shows only the vouchers its own bookings issued, and still redeems a code a customer gives it', async () => {
    const card = (await t.call('POST', '/v1/products', { body: aProduct({ productType: 'GIFT_CARD', bookingMode: 'NO_DATE', priceOptions: [{ label: 'Card', price: 40 }] }) })).body.product;
    const customersCard = (await t.call('POST', '/v1/bookings', { body: aBooking(card.productCode, undefined, [{ value: 1 }]) })).body.booking.items[0].vouchers[0].code;
    const byHand = (await t.call('POST', '/v1/vouchers', { body: aVoucher({ code: 'SUPPLIER-ONLY', internalReference: 'agent code' }) })).body.voucher.code;
    const sold = (await agentBook(aBooking(card.productCode, undefined, [{ value: 1 }]))).body.booking.items[0].vouchers[0].code;

    const supplierList = (await t.call('GET', '/v1/vouchers')).body.vouchers.map((v: { code: string }) => v.code);
    expect(supplierList).toEqual(expect.arrayContaining([customersCard, byHand, sold]));
    const agentList = await t.call('GET', '/v1/vouchers', { role: 'agent' });
    expect(agentList.status).toBe(200);
    expect(agentList.body.vouchers.map((v: { code: string }) => v.code)).toEqual([sold]);
    expect((await t.call('GET', `/v1/vouchers?search=${customersCard.slice(0, 4)}`, { role: 'agent' })).body.vouchers.map((v: { code: string }) => v.code)).not.toContain(customersCard);
    expect((await t.call('GET', '/v1/vouchers?search=agent', { role: 'agent' })).body.vouchers).toEqual([]);
    expectError(await t.call('GET', `/v1/vouchers/${customersCard}`, { role: 'agent' }), 404, 'NOT_FOUND');
    expectError(await t.call('GET', `/v1/vouchers/${byHand}`, { role: 'agent' }), 404, 'NOT_FOUND');
    expect((await t.call('GET', `/v1/vouchers/${sold.toLowerCase()}`, { role: 'agent' })).body.voucher).toMatchObject({ code: sold, value: 40 });

    // The customer hands the agent the code: it pays for the agent's booking all the same.
    const { p, startTime } = await productWithSession();
    const redeemed = (await agentBook(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { vouchers: [customersCard] }))).body.booking;
    expect(redeemed.voucherRedemptions).toEqual([{ code: customersCard, amount: 40 }]);
    expect(redeemed.totalAmount).toBe(10);
  });
});

describe('an agent and confirmation', () => {
  it('cannot create as CONFIRMED a booking the supplier must confirm (MANUAL, MANUAL_THEN_AUTO below its threshold)', async () => {
    const manual = await productWithSession({ confirmMode: 'MANUAL' });
    const message = await expectRefusedUnchanged(t, BOOKING_TABLES, 409, () => agentBook(aBooking(manual.p.productCode, manual.startTime, [{ optionLabel: 'Adult', value: 1 }], { status: 'CONFIRMED' })), 'INVALID_STATE');
    expect(message).toMatch(/supplier/);
    const mixed = await productWithSession({ confirmMode: 'MANUAL_THEN_AUTO', confirmModeMinParticipants: 3 });
    await expectRefusedUnchanged(t, BOOKING_TABLES, 409, () => agentBook(aBooking(mixed.p.productCode, mixed.startTime, [{ optionLabel: 'Adult', value: 2 }], { status: 'CONFIRMED' })), 'INVALID_STATE');
    // At the threshold the product confirms itself, so CONFIRMED is what it would be anyway.
    expect((await agentBook(aBooking(mixed.p.productCode, mixed.startTime, [{ optionLabel: 'Adult', value: 3 }], { status: 'CONFIRMED' }))).body.booking.status).toBe('CONFIRMED');
    // Without status the agent's booking waits for the supplier; a supplier key may still create it CONFIRMED.
    expect((await agentBook(aBooking(manual.p.productCode, manual.startTime, [{ optionLabel: 'Adult', value: 1 }]))).body.booking.status).toBe('PENDING_SUPPLIER');
    expect((await t.call('POST', '/v1/bookings', { body: aBooking(manual.p.productCode, manual.startTime, [{ optionLabel: 'Adult', value: 1 }], { status: 'CONFIRMED' }) })).body.booking.status).toBe('CONFIRMED');
  });

  it('leaves an agent two-step booking of a MANUAL product to the supplier: PROCESSING then CONFIRMED lands as PENDING_SUPPLIER with a warning', async () => {
    const manual = await productWithSession({ confirmMode: 'MANUAL' });
    const held = (await agentBook(aBooking(manual.p.productCode, manual.startTime, [{ optionLabel: 'Adult', value: 1 }], { status: 'PROCESSING' }))).body.booking;
    expect(held.status).toBe('PROCESSING');
    const put = await t.call('PUT', `/v1/bookings/${held.orderNumber}`, { role: 'agent', body: { ...held, status: 'CONFIRMED' } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.booking.status).toBe('PENDING_SUPPLIER');
    expect(put.body.requestStatus.warning.warningMessage).toMatch(/supplier confirms/);
    expect((await t.call('PUT', `/v1/bookings/${held.orderNumber}`, { body: { ...put.body.booking, status: 'CONFIRMED' } })).body.booking.status).toBe('CONFIRMED');
  });
});

describe('an agent and prices', () => {
  const rateFor = async (productCode: string, productRate: object) => {
    const resellerId = (t.sql.prepare("SELECT reseller_id FROM api_keys WHERE role = 'agent'").get() as { reseller_id: number }).reseller_id;
    const rateId = (await t.call('POST', '/v1/rates', { body: { name: `Agents ${productCode}`, productRates: [{ productCode, ...productRate }] } })).body.rate.rateId;
    expect((await t.call('PUT', `/v1/rates/${rateId}/resellers/${resellerId}`)).status).toBe(200);
  };
  const cheap = (productCode: string, startTime: string, amount: number) => {
    const body = aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 2 }], { payments: [{ type: 'CASH', amount }] });
    body.items[0].amount = amount;
    return body;
  };

  it('refuses an agent amount under what the supplier is owed, on every product: the price without a rate, the net rates, the price less the commission', async () => {
    const plain = await productWithSession();
    const message = await expectRefusedUnchanged(t, BOOKING_TABLES, 422, () => agentBook(cheap(plain.p.productCode, plain.startTime, 0.01)), 'BUSINESS_RULE');
    expect(message).toMatch(/items\[0\]: amount must not be below the price .*100 AUD is what the supplier is owed, 0\.01 AUD was sent/);
    expect((await agentBook(cheap(plain.p.productCode, plain.startTime, 100))).status).toBe(200);
    // A supplier key may still give a discount.
    expect((await t.call('POST', '/v1/bookings', { body: cheap(plain.p.productCode, plain.startTime, 0.01) })).status).toBe(200);

    const net = await productWithSession();
    await rateFor(net.p.productCode, { commissionType: 'NET_RATE', netRates: [{ priceOptionLabel: 'Adult', netPrice: 40 }] });
    expect(await expectRefusedUnchanged(t, BOOKING_TABLES, 422, () => agentBook(cheap(net.p.productCode, net.startTime, 79.99)), 'BUSINESS_RULE')).toMatch(/net rates.*80 AUD/);
    expect((await agentBook(cheap(net.p.productCode, net.startTime, 80))).body.booking.items[0].commission).toBe(0);

    const percent = await productWithSession({ maxCommissionPercent: 15 });
    await rateFor(percent.p.productCode, { commissionType: 'PERCENT', percentageCommission: 20, percentageIncludeExtras: false });
    // 100 list price, commission 20 % capped at 15 %: the supplier is owed 85.
    expect(await expectRefusedUnchanged(t, BOOKING_TABLES, 422, () => agentBook(cheap(percent.p.productCode, percent.startTime, 84.99)), 'BUSINESS_RULE')).toMatch(/commission.*85 AUD/);
    expect((await agentBook(cheap(percent.p.productCode, percent.startTime, 85))).status).toBe(200);
  });

  it("marks the payments an agent records as the agent's, in the booking answer and at the check-in payment gate", async () => {
    const { p, startTime } = await productWithSession({ barcodeOutputType: 'PARTICIPANT', qrCodeType: 'INTERNAL', checkinRequiresPayment: true } as object);
    const booked = (await agentBook(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }], { payments: [{ type: 'CASH', amount: 30 }] }))).body.booking;
    expect(booked.payments).toEqual([expect.objectContaining({ type: 'CASH', amount: 30, recordedBy: 'AGENT' })]);
    const desk = (await t.call('POST', '/v1/bookings', { body: aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { payments: [{ type: 'CASH', amount: 10 }] }) })).body.booking;
    expect(desk.payments[0].recordedBy).toBeUndefined();
    expect(t.sql.prepare('SELECT recorded_by_reseller_id AS r FROM payments WHERE order_number = ?').get(booked.orderNumber)).toEqual({ r: booked.resellerId });

    const scan = await t.call('POST', '/v1/manifest/scan', { role: 'checkin', body: { code: booked.items[0].participants[0].barcode } });
    expect(scan.body.scan.result).toBe('NOT_PAID');
    expect(scan.body.scan.message).toMatch(/\$70\.00 still to pay before boarding; \$30\.00 of what is paid was recorded by the agent/);
    expect(scan.body.scan.booking.payment).toMatchObject({ totalPaid: 30, totalDue: 70, paidToAgent: 30 });
    const manifest = (await t.call('GET', `/v1/manifest?productCode=${p.productCode}&startTime=${startTime}`, { role: 'checkin' })).body.manifest;
    expect(manifest.bookings.find((b: { orderNumber: string }) => b.orderNumber === desk.orderNumber).payment.paidToAgent).toBeUndefined();
  });
});
