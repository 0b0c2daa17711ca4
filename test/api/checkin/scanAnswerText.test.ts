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

/** The scan's answer as the bytes on the wire, and the answer text stored with its SCAN row. */
async function scanned(body: object): Promise<{ text: string; stored: string }> {
  const response = await t.app.inject({ method: 'POST', url: '/v1/manifest/scan', headers: { host: '127.0.0.1', apikey: t.keys.checkin }, payload: body });
  expect(response.statusCode).toBe(200);
  const { eventId } = (response.json() as { scan: { eventId: string } }).scan;
  const row = t.sql.prepare('SELECT answer_json FROM checkin_events WHERE event_id = ?').get(eventId) as { answer_json: string };
  return { text: response.body, stored: row.answer_json };
}

describe('a scan answer sent as the text stored for its replays', () => {
  it('is byte for byte what serializing the envelope gives, its scan part the stored answer', async () => {
    const s = await aProductWithSession(t);
    const b = aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'PARTICIPANT', names: ['Zoë Ünal', 'Alan "Al" Turing'] });
    const eventId = randomUUID();
    const first = await scanned({ code: b.participantCodes[0], sessionId: s.sessionId, eventId, device: 'Pier tablet' });
    expect(first.text).toBe(JSON.stringify(JSON.parse(first.text)));
    expect(first.text).toBe(`{"requestStatus":${JSON.stringify(JSON.parse(first.text).requestStatus)},"scan":${first.stored}}`);
    // A resend answers the first answer again, the same bytes.
    expect((await scanned({ code: b.participantCodes[0], sessionId: s.sessionId, eventId, device: 'Pier tablet' })).text).toBe(first.text);
  });

  it('keeps the warning of a scan that checks in an unpaid booking', async () => {
    const s = await aProductWithSession(t);
    const b = aBookingRow(t.sql, { sessionId: s.sessionId, barcodes: 'PARTICIPANT', payments: [{ amountMinor: 3000 }] });
    const { text, stored } = await scanned({ code: b.participantCodes[0], sessionId: s.sessionId, eventId: randomUUID() });
    const envelope = JSON.parse(text) as { requestStatus: { warning: { warningMessage: string } }; scan: object };
    expect(envelope.requestStatus.warning.warningMessage).toMatch(/still to pay/);
    expect(text).toBe(JSON.stringify(envelope));
    expect(text.endsWith(`"scan":${stored}}`)).toBe(true);
  });
});
