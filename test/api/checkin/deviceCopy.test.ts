import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBookingRow } from '../../fixtures/bookingRows';
import { aProductWithSession } from '../../fixtures/manifest';
import type { DeviceBooking, DeviceCopy } from '../../../main/contract/deviceCopy';

/**
 * GET /v1/checkin/device-copy: a scanner device's copy of a window of days, whole, then changes only.
 * The world: a product with check-in settings, departures on 3 and 5 January 2030 (Sydney), and one
 * on 9 January outside the window; live, cancelled and reissued bookings.
 */

let t: TestApp;
let world: Awaited<ReturnType<typeof arrange>>;
beforeAll(async () => {
  t = await startTestApp();
  world = await arrange();
});
afterAll(() => t.close());

const WINDOW = 'from=2030-01-02&to=2030-01-05';
const copyOf = async (query: string, role: 'checkin' | 'supplier' = 'checkin'): Promise<{ status: number; copy: DeviceCopy; bytes: number }> => {
  const res = await t.call('GET', `/v1/checkin/device-copy?${query}`, { role });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { status: res.status, copy: res.body.deviceCopy, bytes: JSON.stringify(res.body.deviceCopy).length };
};
const entry = (copy: DeviceCopy, order: string) => copy.bookings.find((b) => b.context.orderNumber === order);

async function arrange() {
  t.clock.set('2030-01-02T22:30:00Z');
  const own = await aProductWithSession(t, { product: { checkinOpensMinutesBefore: 30, checkinRequiresPayment: true, enforceRequiredFields: true }, startTime: '2030-01-02T23:00:00Z' });
  const later = await aProductWithSession(t, { startTime: '2030-01-05T02:00:00Z' });
  const outside = await aProductWithSession(t, { startTime: '2030-01-09T02:00:00Z' });
  const live = aBookingRow(t.sql, { sessionId: own.sessionId, barcodes: 'PARTICIPANT', names: ['Grace', 'Alan'] });
  const other = aBookingRow(t.sql, { sessionId: own.sessionId, barcodes: 'PARTICIPANT', names: ['Ada'] });
  const cancelled = aBookingRow(t.sql, { sessionId: own.sessionId, barcodes: 'PARTICIPANT', names: ['Edsger'], status: 'CANCELLED' });
  const tomorrow = aBookingRow(t.sql, { sessionId: later.sessionId, barcodes: 'ORDER', names: ['Barbara'] });
  const far = aBookingRow(t.sql, { sessionId: outside.sessionId, barcodes: 'PARTICIPANT', names: ['Ken'] });
  const reissued = await t.call('POST', `/v1/bookings/${other.orderNumber}/barcodes/reissue`, { body: { participantId: String(other.participantIds[0]) } });
  expect(reissued.status).toBe(200);
  return { own, later, outside, live, other, cancelled, tomorrow, far };
}

describe('GET /v1/checkin/device-copy: the whole window', () => {
  it("holds every booking of the window's departures, cancelled ones too, and none outside it", async () => {
    const { copy } = await copyOf(WINDOW);
    expect(copy).toMatchObject({ from: '2030-01-02', to: '2030-01-05', full: true, restart: null, changedOrders: [] });
    expect(copy.sessions.map((s) => s.id).sort()).toEqual([world.own.sessionId, world.later.sessionId].sort());
    expect(copy.bookings.map((b) => b.context.orderNumber).sort()).toEqual([world.live, world.other, world.cancelled, world.tomorrow].map((b) => b.orderNumber).sort());
    expect(entry(copy, world.cancelled.orderNumber)).toMatchObject({ live: false, sessionId: world.own.sessionId });
    expect(entry(copy, world.cancelled.orderNumber)?.cancelledAtLocal).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(entry(copy, world.tomorrow.orderNumber)).toMatchObject({ live: true, sessionId: world.later.sessionId, orderCodes: [world.tomorrow.orderCode] });
  });

  it('carries the revoked codes, the codes, and the product facts the scan rules weigh', async () => {
    const { copy } = await copyOf(WINDOW);
    const other = entry(copy, world.other.orderNumber) as DeviceBooking;
    expect(other.revokedCodes).toEqual([{ code: world.other.participantCodes[0], participantId: world.other.participantIds[0], revokedAtLocal: '2030-01-03 09:30:00' }]);
    expect(other.participants[0].barcode).not.toBe(world.other.participantCodes[0]);
    expect(entry(copy, world.live.orderNumber)?.participants.map((p) => [p.name, p.barcode, p.checkin.state])).toEqual([
      ['Grace', world.live.participantCodes[0], 'EXPECTED'],
      ['Alan', world.live.participantCodes[1], 'EXPECTED'],
    ]);
    expect(copy.products.find((p) => p.productCode === world.own.productCode)).toEqual({ productCode: world.own.productCode, checkinOpensMinutesBefore: 30, checkinRequiresPayment: true, enforceRequiredFields: true });
    expect(copy.products.find((p) => p.productCode === world.later.productCode)).toMatchObject({ checkinOpensMinutesBefore: null, checkinRequiresPayment: false });
  });
});

describe('GET /v1/checkin/device-copy: changes only', () => {
  it('with since, answers only the bookings that changed, and nothing when nothing did', async () => {
    const first = await copyOf(WINDOW);
    const quiet = await copyOf(`${WINDOW}&since=${first.copy.cursor}`);
    expect(quiet.copy).toMatchObject({ full: false, restart: null, changedOrders: [], bookings: [] });

    const scan = await t.call('POST', '/v1/manifest/scan', { body: { code: world.live.participantCodes[0], device: 'Bus 2' }, role: 'checkin' });
    expect(scan.body.scan.checkedIn).toBe(true);
    const changed = await copyOf(`${WINDOW}&since=${quiet.copy.cursor}`);
    expect(changed.copy).toMatchObject({ full: false, changedOrders: [world.live.orderNumber] });
    expect(changed.copy.bookings.map((b) => b.context.orderNumber)).toEqual([world.live.orderNumber]);
    expect(changed.copy.bookings[0].participants[0].checkin).toMatchObject({ state: 'CHECKED_IN', device: 'Bus 2' });
    expect(changed.bytes).toBeLessThan(first.bytes / 2);
  });

  it('sends a booking cancelled since, marked cancelled', async () => {
    const before = await copyOf(WINDOW);
    expect((await t.call('DELETE', `/v1/bookings/${world.tomorrow.orderNumber}`)).status).toBe(200);
    const { copy } = await copyOf(`${WINDOW}&since=${before.copy.cursor}`);
    expect(copy.changedOrders).toEqual([world.tomorrow.orderNumber]);
    expect(copy.bookings).toHaveLength(1);
    expect(copy.bookings[0]).toMatchObject({ live: false, sessionId: world.later.sessionId });
  });

  it('sends the whole window again, saying why, for a cursor of another window or one it never gave', async () => {
    const { copy } = await copyOf(WINDOW);
    const other = await copyOf(`from=2030-01-03&to=2030-01-05&since=${copy.cursor}`);
    expect(other.copy).toMatchObject({ full: true, restart: 'the cursor was given for another window', changedOrders: [] });
    expect(other.copy.bookings.length).toBeGreaterThan(0);
    const garbage = await copyOf(`${WINDOW}&since=not-a-cursor`);
    expect(garbage.copy).toMatchObject({ full: true, restart: 'since is not a cursor this engine gave' });
    expect(garbage.copy.bookings.length).toBe(copy.bookings.length);
  });

  it('sends the whole window again for a cursor more than a day old', async () => {
    const { copy } = await copyOf(WINDOW);
    t.clock.set('2030-01-04T00:00:00Z');
    const stale = await copyOf(`${WINDOW}&since=${copy.cursor}`);
    t.clock.set('2030-01-02T22:30:00Z');
    expect(stale.copy).toMatchObject({ full: true, restart: 'the cursor is more than a day old' });
  });
});

describe('GET /v1/checkin/device-copy: seats and pickups as the guide reads them', () => {
  it("counts a booking's seats as availability does and carries its pickup, so an oversold departure reads the same offline", async () => {
    // Last in the file: a departure of its own on 4 January, inside the window the tests above read whole.
    const full = await aProductWithSession(t, { startTime: '2030-01-03T21:00:00Z', seats: 5 });
    const family = aBookingRow(t.sql, { sessionId: full.sessionId, quantities: [{ label: 'Family', value: 1, seatsUsed: 4 }], names: ['Mum', 'Kid'], pickup: { locationName: 'Pier 3', pickupTime: '2030-01-04T07:40:00' } });
    const couple = aBookingRow(t.sql, { sessionId: full.sessionId, quantities: [{ label: 'Adult', value: 2 }], names: ['Ann', 'Bob'] });
    const gone = aBookingRow(t.sql, { sessionId: full.sessionId, quantities: [{ label: 'Adult', value: 3 }], names: ['Cy'], status: 'CANCELLED' });
    const { copy } = await copyOf(WINDOW);
    expect(copy.sessions.find((s) => s.id === full.sessionId)?.seats).toBe(5);
    expect(entry(copy, family.orderNumber)).toMatchObject({ seats: 4, context: { pickup: { locationName: 'Pier 3', pickupTime: '2030-01-04T07:40:00' } } });
    expect(entry(copy, couple.orderNumber)).toMatchObject({ seats: 2, context: { pickup: null } });
    const liveSeats = copy.bookings.filter((b) => b.sessionId === full.sessionId && b.live).reduce((n, b) => n + b.seats, 0);
    expect(entry(copy, gone.orderNumber)?.live).toBe(false);
    const availability = await t.call('GET', `/v1/availability?productCode=${full.productCode}&startTimeLocal=2030-01-04&endTimeLocal=2030-01-04`);
    expect(availability.body.sessions[0]).toMatchObject({ id: full.sessionId, seats: 5, seatsAvailable: -1 });
    expect(5 - liveSeats).toBe(availability.body.sessions[0].seatsAvailable);
  });
});

describe('GET /v1/checkin/device-copy: bad input changes nothing and says what is wrong', () => {
  it.each([
    ['', /from/],
    ['from=2030-01-02', /to/],
    ['from=2030-13-02&to=2030-01-05', /from must be a date that exists/],
    ['from=2 January&to=2030-01-05', /from must be a date as YYYY-MM-DD/],
    ['from=2030-01-05&to=2030-01-02', /from must not be after to/],
    ['from=2030-01-01&to=2030-01-20', /at most 14 days/],
    [`${WINDOW}&since=${'x'.repeat(201)}`, /since is not a cursor/],
  ])('?%s is a 400', async (query, message) => {
    const res = await t.call('GET', `/v1/checkin/device-copy?${query}`, { role: 'checkin' });
    expect(res.status).toBe(400);
    expect(res.body.requestStatus.success).toBe(false);
    expect(res.body.requestStatus.error.errorMessage).toMatch(message);
  });

  it('asks for an API key, and refuses an agent key', async () => {
    expect((await t.call('GET', `/v1/checkin/device-copy?${WINDOW}`, { role: null })).status).toBe(401);
    expect((await t.call('GET', `/v1/checkin/device-copy?${WINDOW}`, { role: 'agent' })).status).toBe(403);
  });
});
