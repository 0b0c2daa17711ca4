import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, aPickupListRow, aProduct, aSessionRow } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TABLES = ['bookings', 'booking_items', 'participants', 'order_barcodes', 'external_codes', 'op_log'];
let day = 0;
async function productWithSession(overrides = {}) {
  const p = (await t.call('POST', '/v1/products', { body: aProduct(overrides) })).body.product;
  const startTime = `2030-06-${String(++day).padStart(2, '0')}T00:00:00Z`;
  aSessionRow(t.sql, { productCode: p.productCode, startAt: startTime });
  return { p, startTime };
}
const book = (body: unknown) => t.call('POST', '/v1/bookings', { body });
const CODE = /^[0-9A-HJKMNP-TV-Z]{16}$/;

describe('barcodes and QR codes', () => {
  it('gives each participant a unique unguessable INTERNAL code and renders it as PNG and SVG', async () => {
    const { p, startTime } = await productWithSession({ qrCodeType: 'INTERNAL', barcodeOutputType: 'PARTICIPANT' });
    const b = (await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 3 }]))).body.booking;
    const codes = b.items[0].participants.map((x: any) => x.barcode);
    expect(codes).toHaveLength(3);
    for (const code of codes) expect(code).toMatch(CODE);
    expect(new Set(codes).size).toBe(3);
    const png = await t.call('GET', `/v1/bookings/${b.orderNumber}/qr/${codes[0]}.png`);
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    const svg = await t.call('GET', `/v1/bookings/${b.orderNumber}/qr/${codes[1]}.svg`);
    expect(svg.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(String(svg.body)).toContain('<svg');
    expect((await t.call('GET', `/v1/bookings/${b.orderNumber}/qr/NOTACODE.png`)).status).toBe(404);
  });

  it("refuses another booking's code with 404", async () => {
    const { p, startTime } = await productWithSession({ qrCodeType: 'INTERNAL' });
    const a = (await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]))).body.booking;
    const b = (await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]))).body.booking;
    expect((await t.call('GET', `/v1/bookings/${b.orderNumber}/qr/${a.items[0].participants[0].barcode}.png`)).status).toBe(404);
  });

  it('gives the order one code with barcodeOutputType ORDER', async () => {
    const { p, startTime } = await productWithSession({ qrCodeType: 'INTERNAL', barcodeOutputType: 'ORDER' });
    const b = (await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]))).body.booking;
    expect(b.barcode).toMatch(CODE);
    expect(b.items[0].participants[0].barcode).toBeUndefined();
    expect(t.sql.prepare('SELECT item_id FROM order_barcodes WHERE order_number = ?').all(b.orderNumber)).toEqual([{ item_id: null }]);
    expect((await t.call('GET', `/v1/bookings/${b.orderNumber}/qr/${b.barcode}.svg`)).status).toBe(200);
  });

  it('takes EXTERNAL codes from the imported list and refuses with 409 when none are left', async () => {
    const { p, startTime } = await productWithSession({ qrCodeType: 'EXTERNAL' });
    for (const code of ['EXT-1', 'EXT-2']) t.sql.prepare('INSERT INTO external_codes (code, product_code, assigned_to, imported_at) VALUES (?, ?, NULL, 0)').run(code, p.productCode);
    const b = (await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]))).body.booking;
    expect(b.items[0].participants.map((x: any) => x.barcode).sort()).toEqual(['EXT-1', 'EXT-2']);
    expect(t.sql.prepare('SELECT DISTINCT assigned_to FROM external_codes WHERE product_code = ?').all(p.productCode)).toEqual([{ assigned_to: b.orderNumber }]);
    const before = t.snapshot(...TABLES);
    const res = await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]));
    expect(res.status).toBe(409);
    expect(res.body.requestStatus.error.errorMessage).toMatch(/no external QR codes left/);
    expect(t.snapshot(...TABLES)).toEqual(before);
  });
});

describe('participants and booking fields', () => {
  const fields = [
    { label: 'Diet', fieldType: 'List', listOptions: 'None\r\nVegan\r\nGluten free', requiredPerParticipant: true, visiblePerParticipant: true },
    { label: 'Insured', fieldType: 'Boolean', visiblePerBooking: true },
    { label: 'Birthday', fieldType: 'Date', visiblePerParticipant: true },
    { label: 'Hotel', fieldType: 'String', requiredPerBooking: true, visiblePerBooking: true },
  ];

  it('pads participants to the quantity and accepts fields with only label and value', async () => {
    const { p, startTime } = await productWithSession();
    const body = aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 3 }]);
    body.items[0].participants = [{ fields: [{ label: 'First Name', value: 'Ada' }, { label: 'Last Name', value: 'L' }] }, {}];
    const b = (await book(body)).body.booking;
    expect(b.items[0].participants.map((x: any) => x.fields)).toEqual([[{ label: 'First Name', value: 'Ada' }, { label: 'Last Name', value: 'L' }], [], []]);
  });

  it('checks list, boolean and date values against the product fields (400, nothing written)', async () => {
    const { p, startTime } = await productWithSession({ bookingFields: fields });
    const bad = [
      { fields: [{ label: 'Hotel', value: 'H' }], participants: [{ fields: [{ label: 'diet', value: 'Carnivore' }] }], message: /"diet" must be one of None, Vegan, Gluten free/ },
      { fields: [{ label: 'Hotel', value: 'H' }, { label: 'Insured', value: 'maybe' }], participants: [], message: /"Insured" must be true or false/ },
      { fields: [{ label: 'Hotel', value: 'H' }], participants: [{ fields: [{ label: 'Birthday', value: '2030-02-30' }] }], message: /items\[0\]\.participants\[0\]: "Birthday" must be a date/ },
    ];
    for (const { fields: bookingFields, participants, message } of bad) {
      const body = aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { fields: bookingFields });
      body.items[0].participants = participants;
      const before = t.snapshot(...TABLES);
      const res = await book(body);
      expect(res.status).toBe(400);
      expect(res.body.requestStatus.error.errorMessage).toMatch(message);
      expect(t.snapshot(...TABLES)).toEqual(before);
    }
  });

  it('warns about missing required fields, and fills fieldType from the product', async () => {
    const { p, startTime } = await productWithSession({ bookingFields: fields });
    const body = aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]);
    body.items[0].participants = [{ fields: [{ label: 'Diet', value: 'Vegan' }] }];
    const res = await book(body);
    expect(res.status).toBe(200);
    expect(res.body.requestStatus.warning.warningMessage).toMatch(/"Hotel" is required/);
    expect(res.body.requestStatus.warning.warningMessage).toMatch(/"Diet" is required for each participant \(1 missing\)/);
    expect(res.body.booking.items[0].participants[0].fields).toEqual([{ label: 'Diet', value: 'Vegan', fieldType: 'List' }]);
  });

  it('enforces required fields with 400 when the product sets enforceRequiredFields', async () => {
    const { p, startTime } = await productWithSession({ bookingFields: fields, enforceRequiredFields: true });
    expect(p.enforceRequiredFields).toBe(true);
    const before = t.snapshot(...TABLES);
    const res = await book(aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]));
    expect(res.status).toBe(400);
    expect(res.body.requestStatus.error.errorMessage).toMatch(/Required booking fields are missing/);
    expect(t.snapshot(...TABLES)).toEqual(before);
    const ok = aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { fields: [{ label: 'Hotel', value: 'Grand' }] });
    ok.items[0].participants = [{ fields: [{ label: 'Diet', value: 'None' }] }];
    const done = await book(ok);
    expect(done.status).toBe(200);
    expect(done.body.requestStatus.warning).toBeUndefined();
  });
});

describe('pickups', () => {
  it('stores a location of the product list with its pickup time and instructions', async () => {
    const pickupId = aPickupListRow(t.sql, { additionalNotes: 'Wear a hat.', locations: [{ locationName: 'Central Station', address: '1 Eddy Ave', minutesPrior: 30, additionalInstructions: 'Bus bay 3' }] });
    const { p, startTime } = await productWithSession({ pickupId });
    const body = aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]);
    body.items[0].pickupLocation = { locationName: 'central station' };
    const b = (await book(body)).body.booking;
    expect(b.items[0].pickupLocation).toEqual({ locationName: 'Central Station', address: '1 Eddy Ave', minutesPrior: 30, additionalInstructions: 'Bus bay 3', pickupInstructions: 'Wear a hat.\nBus bay 3', pickupTime: `2030-06-${String(day).padStart(2, '0')} 09:30:00` });
    const moved = await t.call('PUT', `/v1/bookings/${b.orderNumber}`, { body: { ...b, items: [{ ...b.items[0], pickupLocation: { locationName: 'Nowhere' } }] } });
    expect(moved.body.booking.items[0].pickupLocation).toBeUndefined();
  });

  it('keeps free text only when the list has otherLocationInstructions, and ignores it otherwise', async () => {
    const open = aPickupListRow(t.sql, { otherLocationInstructions: 'We will call to confirm.', locations: [] });
    const closed = aPickupListRow(t.sql, { locations: [{ locationName: 'Pier 1' }] });
    for (const [pickupId, expected] of [
      [open, { locationName: 'My hotel', pickupInstructions: 'We will call to confirm.' }],
      [closed, undefined],
    ] as const) {
      const { p, startTime } = await productWithSession({ pickupId });
      const body = aBooking(p.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]);
      body.items[0].pickupLocation = { locationName: 'My hotel' };
      expect((await book(body)).body.booking.items[0].pickupLocation).toEqual(expected);
    }
  });
});
