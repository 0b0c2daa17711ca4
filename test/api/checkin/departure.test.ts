import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aPickupList, aProduct } from '../../fixtures/builders';

/**
 * A departure end to end through the API only, as the desk and a guide's scanner would do it:
 * the product and its session, a booking with named participants and a pickup, the manifest,
 * and scans at the pier. It ties availability, bookings and check-in together.
 */
let t: TestApp;
let productCode: string;
let session: any;
beforeAll(async () => {
  t = await startTestApp();
  const list = (await t.call('POST', '/v1/pickups', { body: aPickupList() })).body.pickupList;
  productCode = (await t.call('POST', '/v1/products', { body: aProduct({ name: 'Pier Cruise', qrCodeType: 'INTERNAL', barcodeOutputType: 'PARTICIPANT', pickupId: list.id }) })).body.product.productCode;
  session = (await t.call('POST', '/v1/availability', { body: { productCode, startTimeLocal: '2030-01-05 09:00:00', seats: 12 } })).body.session;
});
afterAll(() => t.close());

const book = (lastName: string, adults: number, extra: Record<string, unknown> = {}) =>
  t.call('POST', '/v1/bookings', {
    body: {
      customer: { firstName: 'Kim', lastName, phone: '+61 400 000 000' },
      items: [
        {
          productCode,
          startTimeLocal: session.startTimeLocal,
          quantities: [{ optionLabel: 'Adult', value: adults }],
          participants: Array.from({ length: adults }, (_, i) => ({ fields: [{ label: 'First Name', value: `Guest${i}` }, { label: 'Last Name', value: lastName }] })),
          pickupLocation: { locationName: 'Grand Hotel' },
        },
      ],
      ...extra,
    },
  });

describe('a departure, end to end', () => {
  it('takes seats from the session the availability API reports', async () => {
    const res = await book('Lee', 3, { payments: [{ type: 'CASH', amount: '150.00', currency: 'AUD' }] });
    expect(res.status).toBe(200);
    const sessions = (await t.call('GET', `/v1/availability?productCode=${productCode}&startTimeLocal=2030-01-05&endTimeLocal=2030-01-05`)).body.sessions;
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ id: session.id, seats: 12, seatsAvailable: 9 });
  });

  it('shows the booking on the manifest with names, pickup and payment', async () => {
    const manifest = (await t.call('GET', `/v1/manifest?sessionId=${session.id}`, { role: 'checkin' })).body.manifest;
    const booking = manifest.bookings.find((b: any) => b.customer.name === 'Kim Lee');
    expect(booking.participants.map((p: any) => p.name)).toEqual(['Guest0 Lee', 'Guest1 Lee', 'Guest2 Lee']);
    expect(booking.pickup.locationName).toBe('Grand Hotel');
    expect(booking.payment).toMatchObject({ paid: true, totalDue: 0 });
    expect(manifest.totals).toMatchObject({ booked: 3, checkedIn: 0 });
  });

  it('checks a participant in by the QR code the booking issued, once', async () => {
    const booking = (await t.call('GET', '/v1/bookings?search=Lee')).body.bookings[0];
    const code = booking.items[0].participants[1].barcode;
    expect(code).toMatch(/^[0-9A-Z]{16}$/);
    const first = await t.call('POST', '/v1/manifest/scan', { role: 'checkin', body: { code, sessionId: session.id, device: 'Pier tablet' } });
    expect(first.body.scan.result).toBe('CHECKED_IN');
    const again = await t.call('POST', '/v1/manifest/scan', { role: 'checkin', body: { code, sessionId: session.id, device: 'Pier tablet' } });
    expect(again.body.scan.result).toBe('ALREADY_CHECKED_IN');
    const manifest = (await t.call('GET', `/v1/manifest?sessionId=${session.id}`, { role: 'checkin' })).body.manifest;
    expect(manifest.totals).toMatchObject({ booked: 3, checkedIn: 1, remaining: 2 });
  });

  it('refuses the code of a booking cancelled before departure, and gives its seats back', async () => {
    const booking = (await book('Park', 2)).body.booking;
    const code = booking.items[0].participants[0].barcode;
    expect((await t.call('DELETE', `/v1/bookings/${booking.orderNumber}/cancel`)).body.booking.status).toBe('CANCELLED');
    const scan = await t.call('POST', '/v1/manifest/scan', { role: 'checkin', body: { code, sessionId: session.id } });
    expect(scan.body.scan.result).toBe('BOOKING_CANCELLED');
    const sessions = (await t.call('GET', `/v1/availability?productCode=${productCode}&startTimeLocal=2030-01-05`)).body.sessions;
    expect(sessions[0].seatsAvailable).toBe(9);
  });

  it('checks in the whole session through the spec operation and reports it', async () => {
    const ref = `productCode=${productCode}&startTimeLocal=${encodeURIComponent(session.startTimeLocal)}`;
    expect((await t.call('PUT', `/v1/manifest/checkinSession?${ref}&checkin=true`, { role: 'checkin' })).status).toBe(200);
    expect((await t.call('GET', `/v1/manifest/checkinSession?${ref}`, { role: 'checkin' })).body.checkin).toEqual({ isCheckedIn: true });
    const manifest = (await t.call('GET', `/v1/manifest?sessionId=${session.id}`, { role: 'checkin' })).body.manifest;
    expect(manifest.totals).toMatchObject({ booked: 3, checkedIn: 3, remaining: 0 });
  });
});
