import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBookingRow } from '../../fixtures/bookingRows';
import { aProductWithSession, CHECKIN_TABLES } from '../../fixtures/manifest';
import type { ProductBody } from '../../../main/contract/products';

/**
 * A check-in by hand through POST /v1/manifest/events follows the scan's rules, whichever client
 * taps: what a scan would refuse is REJECTED (naming the person, the booking and the rule) until
 * the event names the rule in `override`, which is recorded with who did it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const post = (events: object[]) => t.call('POST', '/v1/manifest/events', { body: { events }, role: 'checkin' });
const manifestOf = async (sessionId: number) => (await t.call('GET', `/v1/manifest?sessionId=${sessionId}`)).body.manifest;
const tap = (sessionId: number, participantId: number, extra: object = {}) => ({ eventId: randomUUID(), kind: 'CHECK_IN', sessionId, participantId, occurredAt: '2030-01-02T22:00:00Z', device: 'Desk 1', ...extra });

async function aBooking(row: Partial<Parameters<typeof aBookingRow>[1]> = {}, product: Partial<ProductBody> = {}) {
  const s = await aProductWithSession(t, { product });
  return { ...s, ...aBookingRow(t.sql, { sessionId: s.sessionId, names: ['Ana Lima', 'Ben Ode'], quantities: [{ label: 'Adult', value: 2 }], ...row }) };
}

describe('check-in by hand follows the scan rules', () => {
  it('rejects a plain check-in of a cancelled booking, naming person, booking and rule, and stores nothing', async () => {
    const b = await aBooking({ status: 'CANCELLED', cancelledAt: Date.parse('2030-01-02T21:40:00Z') });
    const before = t.snapshot(...CHECKIN_TABLES);
    const res = await post([tap(b.sessionId, b.participantIds[0])]);
    expect(res.body.events[0]).toMatchObject({ result: 'REJECTED', rule: 'BOOKING_CANCELLED', overridable: true });
    expect(res.body.events[0].message).toMatch(new RegExp(`Ana Lima \\(booking ${b.orderNumber}\\) was not checked in: .*cancelled at Thu, 3 Jan 2030, 8:40 am`));
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
  });

  it('admits a cancelled booking only with an override naming it, records it, and flags the conflict', async () => {
    const b = await aBooking({ status: 'CANCELLED', cancelledAt: Date.parse('2030-01-02T21:40:00Z') });
    const event = tap(b.sessionId, b.participantIds[0]);
    expect((await post([{ ...event, override: ['CHECKIN_CLOSED'] }])).body.events[0].result).toBe('REJECTED');
    const res = await post([{ ...event, override: ['BOOKING_CANCELLED'] }]);
    expect(res.body.events[0]).toMatchObject({ result: 'RECORDED', overrides: ['BOOKING_CANCELLED'] });
    const stored = t.sql.prepare('SELECT override_json FROM checkin_events WHERE event_id = ?').get(event.eventId) as { override_json: string };
    expect(JSON.parse(stored.override_json)).toMatchObject({ rules: ['BOOKING_CANCELLED'], device: 'Desk 1' });
    const manifest = await manifestOf(b.sessionId);
    expect(manifest.conflicts).toEqual([expect.objectContaining({ orderNumber: b.orderNumber, participantId: b.participantIds[0] })]);
    expect(manifest.cancelled[0].participants).toEqual([
      expect.objectContaining({ id: b.participantIds[0], name: 'Ana Lima', checkin: expect.objectContaining({ state: 'CHECKED_IN' }) }),
      expect.objectContaining({ id: b.participantIds[1], name: 'Ben Ode', checkin: { state: 'EXPECTED' } }),
    ]);
  });

  it('rejects a plain check-in after Close check-in (a tap on a no-show row), and admits it with CHECKIN_CLOSED overridden', async () => {
    const b = await aBooking();
    await post([{ eventId: randomUUID(), kind: 'CLOSE', sessionId: b.sessionId, occurredAt: '2030-01-02T21:00:00Z' }]);
    const event = tap(b.sessionId, b.participantIds[1]);
    const refused = await post([event]);
    expect(refused.body.events[0]).toMatchObject({ result: 'REJECTED', rule: 'CHECKIN_CLOSED' });
    expect(refused.body.events[0].message).toMatch(/^Ben Ode \(booking .+\) was not checked in: Check-in is closed/);
    expect((await manifestOf(b.sessionId)).totals).toEqual({ booked: 2, checkedIn: 0, noShow: 2, remaining: 0 });
    const admitted = await post([{ ...event, override: ['CHECKIN_CLOSED'] }]);
    expect(admitted.body.events[0]).toMatchObject({ result: 'RECORDED', overrides: ['CHECKIN_CLOSED'] });
    const manifest = await manifestOf(b.sessionId);
    expect(manifest.totals).toEqual({ booked: 2, checkedIn: 1, noShow: 1, remaining: 0 });
    const history = manifest.bookings[0].participants[1].history;
    expect(history.at(-1).override).toMatchObject({ rules: ['CHECKIN_CLOSED'] });
  });

  it('rejects an unpaid booking only where the product requires payment', async () => {
    const required = await aBooking({ payments: [] }, { checkinRequiresPayment: true });
    const refused = await post([tap(required.sessionId, required.participantIds[0])]);
    expect(refused.body.events[0]).toMatchObject({ result: 'REJECTED', rule: 'NOT_PAID' });
    expect((await post([tap(required.sessionId, required.participantIds[0], { override: ['NOT_PAID'] })])).body.events[0]).toMatchObject({ result: 'RECORDED', overrides: ['NOT_PAID'] });
    const warned = await aBooking({ payments: [] });
    expect((await post([tap(warned.sessionId, warned.participantIds[0])])).body.events[0]).toMatchObject({ result: 'RECORDED', conflict: null });
  });

  it('records a plain check-in of a live, paid booking with no override, and a second tap changes nothing', async () => {
    const b = await aBooking();
    const first = await post([tap(b.sessionId, b.participantIds[0])]);
    expect(first.body.events[0]).toMatchObject({ result: 'RECORDED', conflict: null });
    expect(first.body.events[0].overrides).toBeUndefined();
    expect((await post([tap(b.sessionId, b.participantIds[0])])).body.events[0].result).toBe('RECORDED');
    expect((await manifestOf(b.sessionId)).totals.checkedIn).toBe(1);
  });
});

describe('the manifest for desks and offline scanners', () => {
  it("lists each booking's order codes", async () => {
    const b = await aBooking({ barcodes: 'ORDER' });
    const manifest = await manifestOf(b.sessionId);
    expect(manifest.bookings[0].orderCodes).toEqual([b.orderCode]);
  });

  it('answers a version that stays put until something in the manifest changes', async () => {
    const b = await aBooking();
    const version = async () => (await t.call('GET', `/v1/manifest/version?sessionId=${b.sessionId}`, { role: 'checkin' })).body.manifestVersion;
    const first = await version();
    expect(first).toEqual({ sessionId: b.sessionId, version: expect.any(String) });
    expect((await manifestOf(b.sessionId)).version).toBe(first.version);
    expect((await version()).version).toBe(first.version);
    await post([tap(b.sessionId, b.participantIds[0])]);
    const second = await version();
    expect(second.version).not.toBe(first.version);
    aBookingRow(t.sql, { sessionId: b.sessionId });
    expect((await version()).version).not.toBe(second.version);
    expect((await t.call('GET', '/v1/manifest/version?sessionId=999999001', { role: 'checkin' })).status).toBe(404);
  });
});

describe('the events answer for a desk that applies its own events', () => {
  it('names each session version before and after the batch', async () => {
    const b = await aBooking();
    const held = (await manifestOf(b.sessionId)).version;
    const res = await post([tap(b.sessionId, b.participantIds[0])]);
    expect(res.body.manifestVersions).toEqual([{ sessionId: b.sessionId, before: held, after: expect.any(String) }]);
    expect(res.body.manifestVersions[0].after).not.toBe(held);
    expect((await manifestOf(b.sessionId)).version).toBe(res.body.manifestVersions[0].after);
  });
});
