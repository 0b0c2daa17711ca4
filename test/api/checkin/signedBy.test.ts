import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBookingRow } from '../../fixtures/bookingRows';
import { aProductWithSession } from '../../fixtures/manifest';

/** Issue 36, "every device signs its work": each check-in event keeps the device and the key's name. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A phone paired the way the desk pairs one: its own check-in key, named. */
async function aPairedPhone(name: string): Promise<string> {
  const res = await t.call('POST', '/v1/pairing/checkin', { body: { name, origin: 'https://192.168.1.20:8443' } });
  expect(res.status).toBe(200);
  return decodeURIComponent(new URL(res.body.pairing.url).hash.match(/key=([^&]+)/)![1]);
}

async function aBooking() {
  const s = await aProductWithSession(t);
  return { ...s, ...aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'PARTICIPANT', quantities: [{ label: 'Adult', value: 3 }], names: ['Grace', 'Alan', 'Ada'] }) };
}

const signatureOf = (eventId: string) =>
  t.sql.prepare('SELECT device, key_name, api_key_id FROM checkin_events WHERE event_id = ?').get(eventId) as { device: string | null; key_name: string | null; api_key_id: number | null };
const keyIdOf = (name: string) => Number((t.sql.prepare('SELECT id FROM api_keys WHERE name = ?').get(name) as { id: number }).id);
const participantOf = async (sessionId: number, participantId: number) =>
  (await t.call('GET', `/v1/manifest?sessionId=${sessionId}`)).body.manifest.bookings.flatMap((b: any) => b.participants).find((p: any) => p.id === participantId);

describe('a check-in signed by its device and key', () => {
  it('stores the device and the key name of a scan and its check-in, and the manifest and a rescan read them', async () => {
    const anna = await aPairedPhone("Anna's phone");
    const ben = await aPairedPhone("Ben's phone");
    const b = await aBooking();
    const eventId = randomUUID();
    const scanned = await t.call('POST', '/v1/manifest/scan', { key: anna, body: { code: b.participantCodes[0], eventId, device: "Anna's phone", occurredAt: '2030-01-02T22:10:00Z' } });
    expect(scanned.body.scan).toMatchObject({ result: 'CHECKED_IN', checkedIn: true });
    const expected = { device: "Anna's phone", key_name: "Anna's phone", api_key_id: keyIdOf("Anna's phone") };
    expect(signatureOf(eventId)).toEqual(expected);
    expect(signatureOf(`${eventId}.${b.participantIds[0]}`)).toEqual(expected);

    const participant = await participantOf(b.sessionId, b.participantIds[0]);
    expect(participant.checkin).toMatchObject({ state: 'CHECKED_IN', device: "Anna's phone", by: "Anna's phone" });
    expect(participant.history.find((h: any) => h.kind === 'CHECK_IN')).toMatchObject({ device: "Anna's phone", by: "Anna's phone" });

    // Ben's rescan is told who let the guest in, not who is scanning now.
    const again = await t.call('POST', '/v1/manifest/scan', { key: ben, body: { code: b.participantCodes[0], device: "Ben's phone" } });
    expect(again.body.scan).toMatchObject({ result: 'ALREADY_CHECKED_IN', checkedIn: false });
    expect(again.body.scan.message).toContain("by Anna's phone");
  });

  it('signs a device event (POST /v1/manifest/events) with the key name too, and a blank device reads as the key', async () => {
    const b = await aBooking();
    const named = { eventId: randomUUID(), kind: 'CHECK_IN', sessionId: b.sessionId, participantId: b.participantIds[0], occurredAt: '2030-01-02T22:00:00Z', device: '  Bus 1\t' };
    const blank = { eventId: randomUUID(), kind: 'CHECK_IN', sessionId: b.sessionId, participantId: b.participantIds[1], occurredAt: '2030-01-02T22:00:00Z', device: '   ' };
    const res = await t.call('POST', '/v1/manifest/events', { role: 'checkin', body: { events: [named, blank] } });
    expect(res.status).toBe(200);
    expect(signatureOf(named.eventId)).toEqual({ device: 'Bus 1', key_name: 'Test checkin', api_key_id: keyIdOf('Test checkin') });
    expect(signatureOf(blank.eventId)).toMatchObject({ device: null, key_name: 'Test checkin' });
    const rescan = await t.call('POST', '/v1/manifest/scan', { role: 'checkin', body: { code: b.participantCodes[1], device: 'Gate' } });
    expect(rescan.body.scan.message).toContain('by Test checkin');
  });

  it('reads the carried key name of an event from another instance, and an old event by its local key', async () => {
    const b = await aBooking();
    const insert = t.sql.prepare(
      "INSERT INTO checkin_events (event_id, kind, session_id, participant_id, device, api_key_id, key_name, occurred_at, recorded_at) VALUES (?, 'CHECK_IN', ?, ?, NULL, ?, ?, ?, ?)",
    );
    const at = Date.parse('2030-01-02T21:00:00Z');
    // A key of another instance (ids come from each instance's own sequence): only the name it carried reads.
    insert.run(`remote-${randomUUID()}`, b.sessionId, b.participantIds[0], 999_002, 'Hub office', at, at);
    // An event from before names were carried: this instance's key still names it.
    insert.run(`old-${randomUUID()}`, b.sessionId, b.participantIds[1], keyIdOf('Test checkin'), null, at, at);
    insert.run(`old-remote-${randomUUID()}`, b.sessionId, b.participantIds[2], 999_002, null, at, at);
    expect((await participantOf(b.sessionId, b.participantIds[0])).checkin).toMatchObject({ by: 'Hub office', device: null });
    expect((await participantOf(b.sessionId, b.participantIds[1])).checkin).toMatchObject({ by: 'Test checkin' });
    expect((await participantOf(b.sessionId, b.participantIds[2])).checkin).toMatchObject({ by: null, device: null });
    const rescan = async (code: string) => (await t.call('POST', '/v1/manifest/scan', { role: 'checkin', body: { code, device: 'Gate' } })).body.scan.message;
    expect(await rescan(b.participantCodes[0]!)).toContain('by Hub office');
    expect(await rescan(b.participantCodes[2]!)).toContain('by another device');
  });

  it('refuses a device name over 100 characters with a 400 and records nothing', async () => {
    const b = await aBooking();
    const before = t.snapshot('checkin_events');
    const res = await t.call('POST', '/v1/manifest/scan', { role: 'checkin', body: { code: b.participantCodes[0], device: 'x'.repeat(101) } });
    expect(res.status).toBe(400);
    expect(res.body.requestStatus).toMatchObject({ success: false });
    expect(JSON.stringify(res.body.requestStatus)).toMatch(/device/);
    expect(t.snapshot('checkin_events')).toEqual(before);
  });
});
