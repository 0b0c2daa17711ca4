import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, aPickupList, aProduct } from '../../fixtures/builders';

/**
 * Seats everywhere: availability, the manifest and the departure board count a session's seats the
 * same way (Σ quantity × seatsUsed of live bookings), whatever participant rows stand for them.
 */
let t: TestApp;
let pickupId: number;
beforeAll(async () => {
  t = await startTestApp();
  pickupId = (await t.call('POST', '/v1/pickups', { body: aPickupList() })).body.pickupList.id;
});
afterAll(() => t.close());

const DAY = '2030-01-05';

async function sessionOf(product: Record<string, unknown>, seats: number, time = '09:00:00') {
  const productCode = (await t.call('POST', '/v1/products', { body: aProduct(product) })).body.product.productCode;
  const session = (await t.call('POST', '/v1/availability', { body: { productCode, startTimeLocal: `${DAY} ${time}`, seats } })).body.session;
  return { productCode, session };
}

async function book(productCode: string, startTime: string, quantities: { optionLabel: string; value: number }[], item: Record<string, unknown> = {}) {
  const body = aBooking(productCode, startTime, quantities);
  Object.assign(body.items[0], item);
  const res = await t.call('POST', '/v1/bookings', { body });
  expect(res.status, JSON.stringify(res.body.requestStatus)).toBe(200);
}

/** The seat numbers of one session as availability, the manifest and the board answer them. */
async function seatsEverywhere(productCode: string, sessionId: number) {
  const availability = (await t.call('GET', `/v1/availability?productCode=${productCode}&startTimeLocal=${DAY}&endTimeLocal=${DAY}`)).body.sessions[0];
  const manifest = (await t.call('GET', `/v1/manifest?sessionId=${sessionId}`)).body.manifest;
  const board = (await t.call('GET', `/v1/manifest/day?date=${DAY}`)).body.sessions.find((s: { id: number }) => s.id === sessionId);
  return { availability, manifest, board };
}

describe('seats in availability, the manifest and the departure board', () => {
  it('counts a Family 2+2 ticket as 4 seats (and 4 pickup seats) though it is one participant', async () => {
    const family = { label: 'Family (2+2)', price: 240, seatsUsed: 4, priceGroupType: 'TOTAL' };
    const { productCode, session } = await sessionOf({ name: 'Harbour Cruise', pickupId, priceOptions: [{ label: 'Adult', price: 50 }, family] as never }, 10);
    await book(productCode, session.startTime, [{ optionLabel: 'Family (2+2)', value: 1 }], { pickupLocation: { locationName: 'Grand Hotel' } });
    await book(productCode, session.startTime, [{ optionLabel: 'Adult', value: 1 }]);
    const { availability, manifest, board } = await seatsEverywhere(productCode, session.id);
    expect(availability).toMatchObject({ seats: 10, seatsAvailable: 5 });
    expect(manifest.session).toMatchObject({ seats: 10, seatsAvailable: 5, seatsBooked: 5 });
    expect(board).toMatchObject({ seats: 10, seatsAvailable: 5, seatsBooked: 5, pickupCount: 4 });
    // Each booking says how many seats it holds, so a pickup stop counts seats, not rows.
    expect(manifest.bookings.map((b: { seats: number }) => b.seats).sort()).toEqual([1, 4]);
    const html = (await t.call('GET', `/v1/manifest.html?sessionId=${session.id}`)).body as string;
    expect(html).toContain('10 seats: 5 booked, 5 available');
    // The people counts stay per participant row: two bookings, one row each.
    expect(manifest.totals).toEqual({ booked: 2, checkedIn: 0, noShow: 0, remaining: 2 });
    expect(board).toMatchObject({ booked: 2, remaining: 2 });
  });

  it('counts a private charter booked once as holding its whole boat', async () => {
    const boat = { label: 'Boat (up to 10)', price: 1800, priceGroupType: 'TOTAL', seatsUsed: 10 };
    const { productCode, session } = await sessionOf({ name: 'Private Charter', charter: true, priceOptions: [boat] as never }, 10, '08:00:00');
    await book(productCode, session.startTime, [{ optionLabel: 'Boat (up to 10)', value: 1 }]);
    const { availability, manifest, board } = await seatsEverywhere(productCode, session.id);
    expect(availability).toMatchObject({ seats: 10, seatsAvailable: 0 });
    expect(manifest.session).toMatchObject({ seats: 10, seatsAvailable: 0, seatsBooked: 10 });
    expect(board).toMatchObject({ seats: 10, seatsAvailable: 0, seatsBooked: 10, booked: 1 });
  });

  it('answers the same negative seatsAvailable for an oversold session in all three', async () => {
    const { productCode, session } = await sessionOf({ name: 'Sunset Walk' }, 6, '17:00:00');
    await book(productCode, session.startTime, [{ optionLabel: 'Adult', value: 3 }]);
    await book(productCode, session.startTime, [{ optionLabel: 'Adult', value: 2 }]);
    const cut = await t.call('PUT', `/v1/availability/${session.id}`, { body: { seats: 3 } });
    expect(cut.body.requestStatus.warning.warningMessage).toMatch(/overbooked/);
    const { availability, manifest, board } = await seatsEverywhere(productCode, session.id);
    expect(availability).toMatchObject({ seats: 3, seatsAvailable: -2 });
    expect(manifest.session).toMatchObject({ seats: 3, seatsAvailable: -2, seatsBooked: 5 });
    expect(board).toMatchObject({ seats: 3, seatsAvailable: -2, seatsBooked: 5 });
    // The printable page says the same "2 over" the screens do, not a clamped 0.
    const html = (await t.call('GET', `/v1/manifest.html?sessionId=${session.id}`)).body as string;
    expect(html).toContain('3 seats: 5 booked, 2 over');
    const week = (await t.call('GET', `/v1/manifest/week?from=${DAY}&days=1`)).body.week;
    expect(week.days[0].departures.find((d: { sessionId: number }) => d.sessionId === session.id)).toMatchObject({ seatsSold: 5, capacity: 3 });
  });
});
