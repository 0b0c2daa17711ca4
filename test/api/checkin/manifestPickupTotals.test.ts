import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBookingRow } from '../../fixtures/bookingRows';
import { aProductWithSession } from '../../fixtures/manifest';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const events = (list: object[]) => t.call('POST', '/v1/manifest/events', { body: { events: list }, role: 'checkin' });
const manifestOf = async (sessionId: number) => (await t.call('GET', `/v1/manifest?sessionId=${sessionId}`)).body.manifest;
const sum = (rows: any[], key: string) => rows.reduce((total, row) => total + row[key], 0);

describe('GET /v1/manifest: counts per pickup point', () => {
  it('counts checked in, explicit no-shows and remaining per pickup, and they add up to the session totals', async () => {
    const s = await aProductWithSession(t);
    const sqlite = t.sql;
    const pier = aBookingRow(sqlite, { sessionId: s.sessionId, pickup: { locationName: 'Pier 1' }, quantities: [{ label: 'Adult', value: 3 }] });
    const hotel = aBookingRow(sqlite, { sessionId: s.sessionId, pickup: { locationName: 'Grand Hotel' }, quantities: [{ label: 'Adult', value: 2 }] });
    aBookingRow(sqlite, { sessionId: s.sessionId, pickup: { locationName: 'Grand Hotel' }, status: 'CANCELLED' });
    const noShowThenIn = randomUUID();
    await events([
      { eventId: randomUUID(), kind: 'CHECK_IN', participantId: pier.participantIds[0], sessionId: s.sessionId, occurredAt: '2030-01-02T22:50:00Z' },
      { eventId: randomUUID(), kind: 'NO_SHOW', participantId: pier.participantIds[1], sessionId: s.sessionId, occurredAt: '2030-01-02T23:05:00Z' },
      { eventId: noShowThenIn, kind: 'NO_SHOW', participantId: hotel.participantIds[0], sessionId: s.sessionId, occurredAt: '2030-01-02T23:05:00Z' },
      // A check-in beats a no-show, whenever it arrives.
      { eventId: randomUUID(), kind: 'CHECK_IN', participantId: hotel.participantIds[0], sessionId: s.sessionId, occurredAt: '2030-01-02T22:55:00Z' },
    ]);
    const manifest = await manifestOf(s.sessionId);
    expect(manifest.pickupTotals).toEqual([
      { locationName: 'Pier 1', booked: 3, checkedIn: 1, noShow: 1, remaining: 1 },
      { locationName: 'Grand Hotel', booked: 2, checkedIn: 1, noShow: 0, remaining: 1 },
    ]);
    expect(manifest.totals).toEqual({ booked: 5, checkedIn: 2, noShow: 1, remaining: 2 });
    for (const key of ['booked', 'checkedIn', 'noShow', 'remaining']) expect(sum(manifest.pickupTotals, key)).toBe(manifest.totals[key]);
  });

  it('turns every pickup point\'s remaining into no-shows when the session is closed, and back when it is reopened', async () => {
    const s = await aProductWithSession(t);
    const sqlite = t.sql;
    const pier = aBookingRow(sqlite, { sessionId: s.sessionId, pickup: { locationName: 'Pier 1' }, quantities: [{ label: 'Adult', value: 2 }] });
    aBookingRow(sqlite, { sessionId: s.sessionId, pickup: null, quantities: [{ label: 'Adult', value: 1 }] });
    await events([{ eventId: randomUUID(), kind: 'CHECK_IN', participantId: pier.participantIds[0], sessionId: s.sessionId, occurredAt: '2030-01-02T22:50:00Z' }]);
    const close = randomUUID();
    await events([{ eventId: close, kind: 'CLOSE', sessionId: s.sessionId, occurredAt: '2030-01-02T23:10:00Z' }]);
    const closed = await manifestOf(s.sessionId);
    expect(closed.pickupTotals).toEqual([
      { locationName: 'Pier 1', booked: 2, checkedIn: 1, noShow: 1, remaining: 0 },
      { locationName: null, booked: 1, checkedIn: 0, noShow: 1, remaining: 0 },
    ]);
    expect(closed.totals).toEqual({ booked: 3, checkedIn: 1, noShow: 2, remaining: 0 });
    await events([{ eventId: randomUUID(), kind: 'UNDO', undoesEventId: close, sessionId: s.sessionId, occurredAt: '2030-01-02T23:11:00Z' }]);
    const reopened = await manifestOf(s.sessionId);
    expect(reopened.pickupTotals.map((p: any) => [p.locationName, p.noShow, p.remaining])).toEqual([
      ['Pier 1', 0, 1],
      [null, 0, 1],
    ]);
  });

  it("counts each participant at their own item's pickup when one order has two items in the session", async () => {
    const s = await aProductWithSession(t);
    const sqlite = t.sql;
    const booking = aBookingRow(sqlite, { sessionId: s.sessionId, pickup: { locationName: 'Pier 1' }, quantities: [{ label: 'Adult', value: 1 }] });
    const item = sqlite.prepare('SELECT * FROM booking_items WHERE id = ?').get(booking.itemId) as Record<string, unknown>;
    const secondItem = booking.itemId + 1_000_000;
    sqlite
      .prepare('INSERT INTO booking_items (id, order_number, position, product_code, session_id, start_at, end_at, all_day, amount_minor, subtotal_minor, total_quantity, seats_held, pickup_json) VALUES (?, ?, 1, ?, ?, ?, ?, 0, 0, 0, 1, 1, ?)')
      .run(secondItem, booking.orderNumber, item.product_code, s.sessionId, item.start_at, item.end_at, JSON.stringify({ locationName: 'Grand Hotel' }));
    const second = booking.participantIds[0] + 1_000_000;
    sqlite.prepare("INSERT INTO participants (id, item_id, position, fields_json, barcode) VALUES (?, ?, 0, '[]', NULL)").run(second, secondItem);
    await events([{ eventId: randomUUID(), kind: 'CHECK_IN', participantId: second, sessionId: s.sessionId, occurredAt: '2030-01-02T22:50:00Z' }]);
    const manifest = await manifestOf(s.sessionId);
    expect(manifest.pickupTotals).toEqual([
      { locationName: 'Pier 1', booked: 1, checkedIn: 0, noShow: 0, remaining: 1 },
      { locationName: 'Grand Hotel', booked: 1, checkedIn: 1, noShow: 0, remaining: 0 },
    ]);
  });
});
