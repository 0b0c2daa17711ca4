import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBookingRow } from '../../fixtures/bookingRows';
import { aProductWithSession, CHECKIN_TABLES } from '../../fixtures/manifest';
import { loadBookingRows } from '../../../db/queries/manifest';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const post = (events: object[], role: 'supplier' | 'checkin' | 'agent' = 'checkin') => t.call('POST', '/v1/manifest/events', { body: { events }, role });
const manifestOf = async (sessionId: number) => (await t.call('GET', `/v1/manifest?sessionId=${sessionId}`)).body.manifest;
const stateOf = (manifest: any, participantId: number) =>
  manifest.bookings.flatMap((b: any) => b.participants).find((p: any) => p.id === participantId)?.checkin.state;

async function setup() {
  const s = await aProductWithSession(t);
  const booking = aBookingRow(t.sql, { sessionId: s.sessionId, quantities: [{ label: 'Adult', value: 3 }] });
  return { ...s, ...booking };
}

const ev = (kind: string, sessionId: number, extra: object = {}) => ({ eventId: randomUUID(), kind, sessionId, occurredAt: '2030-01-02T22:00:00Z', ...extra });

describe('POST /v1/manifest/events', () => {
  it('records check-in, no-show and undo events and answers each stored outcome', async () => {
    const s = await setup();
    const checkIn = ev('CHECK_IN', s.sessionId, { participantId: s.participantIds[0], device: 'Bus 1' });
    const noShow = ev('NO_SHOW', s.sessionId, { participantId: s.participantIds[1] });
    const res = await post([checkIn, noShow]);
    expect(res.status).toBe(200);
    expect(res.body.events).toEqual([
      expect.objectContaining({ eventId: checkIn.eventId, kind: 'CHECK_IN', result: 'RECORDED', participantId: s.participantIds[0], conflict: null }),
      expect.objectContaining({ eventId: noShow.eventId, kind: 'NO_SHOW', result: 'RECORDED' }),
    ]);
    let manifest = await manifestOf(s.sessionId);
    expect(manifest.totals).toEqual({ booked: 3, checkedIn: 1, noShow: 1, remaining: 1 });
    const stored = t.sql.prepare('SELECT occurred_at, recorded_at, device, api_key_id FROM checkin_events WHERE event_id = ?').get(checkIn.eventId) as any;
    expect(stored).toMatchObject({ occurred_at: Date.parse('2030-01-02T22:00:00Z'), recorded_at: Date.parse('2030-01-01T00:00:00Z'), device: 'Bus 1' });
    expect(stored.api_key_id).toBeGreaterThan(0);
    await post([ev('UNDO', s.sessionId, { undoesEventId: checkIn.eventId })]);
    manifest = await manifestOf(s.sessionId);
    expect(stateOf(manifest, s.participantIds[0])).toBe('EXPECTED');
  });

  it('undoes every check-in of an order-code scan with one UNDO naming the scan', async () => {
    const s = await aProductWithSession(t);
    const booking = aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'ORDER', quantities: [{ label: 'Adult', value: 3 }] });
    const scanId = randomUUID();
    const scanned = await t.call('POST', '/v1/manifest/scan', { body: { code: booking.orderCode, eventId: scanId }, role: 'checkin' });
    expect(scanned.body.scan.checkedInParticipantIds).toHaveLength(3);
    expect((await manifestOf(s.sessionId)).totals.checkedIn).toBe(3);
    const undo = await post([ev('UNDO', s.sessionId, { undoesEventId: scanId })]);
    expect(undo.body.events[0].result).toBe('RECORDED');
    expect((await manifestOf(s.sessionId)).totals).toEqual({ booked: 3, checkedIn: 0, noShow: 0, remaining: 3 });
    // The scanner sees them as not checked in any more.
    expect((await t.call('POST', '/v1/manifest/scan', { body: { code: booking.orderCode }, role: 'checkin' })).body.scan.result).toBe('CHECKED_IN');
  });

  it("a participant's scan reads that participant's events, the undo of its scan among them, and decides as before", async () => {
    const s = await aProductWithSession(t);
    const b = aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'PARTICIPANT', quantities: [{ label: 'Adult', value: 3 }] });
    const [first, second] = b.participantIds;
    const scanOf = async (code: string, eventId: string = randomUUID()) => (await t.call('POST', '/v1/manifest/scan', { body: { code, eventId }, role: 'checkin' })).body.scan;
    const scanId = randomUUID();
    expect((await scanOf(b.participantCodes[0]!, scanId)).result).toBe('CHECKED_IN');
    expect((await scanOf(b.participantCodes[1]!)).result).toBe('CHECKED_IN');
    expect((await post([ev('UNDO', s.sessionId, { undoesEventId: scanId })])).body.events[0].result).toBe('RECORDED');
    // What a scan of the first participant's code reads: their scan, its check-in and the undo naming the scan; nothing of the second's.
    const scoped = await loadBookingRows(t.engine.ctx.db, b.orderNumber, s.sessionId, [first]);
    expect(scoped.events.map((e) => e.kind).sort()).toEqual(['CHECK_IN', 'SCAN', 'UNDO']);
    expect(scoped.events.some((e) => e.participant_id === second)).toBe(false);
    const whole = await loadBookingRows(t.engine.ctx.db, b.orderNumber, s.sessionId);
    expect(whole.events.filter((e) => e.participant_id === second).map((e) => e.kind).sort()).toEqual(['CHECK_IN', 'SCAN']);
    // The undo is seen: the first participant checks in again; the second is still in.
    expect((await scanOf(b.participantCodes[0]!)).result).toBe('CHECKED_IN');
    expect((await scanOf(b.participantCodes[1]!)).result).toBe('ALREADY_CHECKED_IN');
  });

  it('is idempotent by eventId: a resent batch returns the first answers and changes nothing', async () => {
    const s = await setup();
    const batch = [ev('CHECK_IN', s.sessionId, { participantId: s.participantIds[0] })];
    const first = await post(batch);
    const before = t.snapshot(...CHECKIN_TABLES);
    const again = await post(batch);
    expect(again.body.events).toEqual(first.body.events);
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
  });

  it('merges two devices in either arrival order to the same state: a check-in beats a no-show', async () => {
    const states = [];
    for (const order of ['checkInFirst', 'noShowFirst']) {
      const s = await setup();
      const checkIn = ev('CHECK_IN', s.sessionId, { participantId: s.participantIds[0], device: 'A', occurredAt: '2030-01-02T22:05:00Z' });
      const noShow = ev('NO_SHOW', s.sessionId, { participantId: s.participantIds[0], device: 'B', occurredAt: '2030-01-02T22:10:00Z' });
      if (order === 'checkInFirst') {
        await post([checkIn]);
        await post([noShow]);
      } else {
        await post([noShow]);
        await post([checkIn]);
      }
      states.push(stateOf(await manifestOf(s.sessionId), s.participantIds[0]));
    }
    expect(states).toEqual(['CHECKED_IN', 'CHECKED_IN']);
  });

  it('counts everyone not checked in as a no-show after CLOSE, and REOPEN takes that back', async () => {
    const s = await setup();
    await post([ev('CHECK_IN', s.sessionId, { participantId: s.participantIds[0] }), ev('CLOSE', s.sessionId, { occurredAt: '2030-01-02T23:05:00Z' })]);
    let manifest = await manifestOf(s.sessionId);
    expect(manifest.totals).toEqual({ booked: 3, checkedIn: 1, noShow: 2, remaining: 0 });
    expect(manifest.session.checkinClosed).toBe(true);
    await post([ev('REOPEN', s.sessionId, { occurredAt: '2030-01-02T23:06:00Z' })]);
    manifest = await manifestOf(s.sessionId);
    expect(manifest.totals).toEqual({ booked: 3, checkedIn: 1, noShow: 0, remaining: 2 });
  });

  it('stores a check-in a device made offline for a booking cancelled meanwhile, and flags it in the manifest', async () => {
    const s = await aProductWithSession(t);
    const gone = aBookingRow(t.sql, { sessionId: s.sessionId, status: 'CANCELLED', cancelledAt: Date.parse('2030-01-02T21:40:00Z') });
    const res = await post([ev('CHECK_IN', s.sessionId, { participantId: gone.participantIds[0], occurredAt: '2030-01-02T21:52:00Z', decidedOffline: true })]);
    expect(res.body.events[0].result).toBe('RECORDED');
    expect(res.body.events[0].conflict).toMatch(/cancelled/);
    const manifest = await manifestOf(s.sessionId);
    expect(manifest.bookings).toEqual([]);
    expect(manifest.cancelled).toEqual([expect.objectContaining({ orderNumber: gone.orderNumber, cancelledAtLocal: '2030-01-03 08:40:00' })]);
    expect(manifest.conflicts).toEqual([
      expect.objectContaining({ orderNumber: gone.orderNumber, participantId: gone.participantIds[0], message: 'Checked in at 8:52 am, but the booking was cancelled at Thu, 3 Jan 2030, 8:40 am' }),
    ]);
  });

  it('rejects, without storing, events naming an unknown session or a participant of another session', async () => {
    const s = await setup();
    const other = await setup();
    const before = t.snapshot(...CHECKIN_TABLES);
    const res = await post([ev('CHECK_IN', 999_999_001, { participantId: s.participantIds[0] }), ev('CHECK_IN', other.sessionId, { participantId: s.participantIds[0] }), ev('NO_SHOW', s.sessionId)]);
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: any) => e.result)).toEqual(['REJECTED', 'REJECTED', 'REJECTED']);
    expect(res.body.events[0].message).toMatch(/Session 999999001 was not found/);
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
  });

  it('refuses malformed events with 400 and changes nothing', async () => {
    const s = await setup();
    const before = t.snapshot(...CHECKIN_TABLES);
    const cases: [object, RegExp][] = [
      [{ events: [] }, /at least one event/],
      [{}, /events/],
      [{ events: [{ ...ev('CHECK_IN', s.sessionId, { participantId: s.participantIds[0] }), eventId: 'abc' }] }, /eventId/],
      [{ events: [ev('ARRIVE', s.sessionId, { participantId: s.participantIds[0] })] }, /kind: must be one of/],
      [{ events: [ev('CHECK_IN', s.sessionId, { participantId: s.participantIds[0], occurredAt: '2030-01-02 09:00' })] }, /occurredAt/],
      [{ events: [{ ...ev('CHECK_IN', s.sessionId), sessionId: undefined }] }, /sessionId/],
    ];
    for (const [body, message] of cases) {
      const res = await t.call('POST', '/v1/manifest/events', { body, role: 'checkin' });
      expect(res.status).toBe(400);
      expect(res.body.requestStatus.error.errorMessage).toMatch(message);
    }
    expect((await post([ev('CHECK_IN', s.sessionId, { participantId: s.participantIds[0] })], 'agent')).status).toBe(403);
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
  });
});
