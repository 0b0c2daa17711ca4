import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aBooking, aScannableProduct, aSession } from '../fixtures/builders';
import { exchange, nodesClosedAfterEach, type SyncNode } from './nodes';

/** Issue 36, "every device signs its work": who checked a guest in reads the same on every instance. */
const { node } = nodesClosedAfterEach();

/** A guide's check-in key of that instance (keys never sync), and a call made with it. */
async function aGuideKey(n: SyncNode, name: string) {
  const { key } = await n.engine.apiKeys.create({ role: 'checkin', name });
  return async (method: string, url: string, body?: unknown) => {
    const response = await n.app.inject({ method: method as 'GET', url, headers: { host: '127.0.0.1', apikey: key }, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: response.statusCode, body: response.json() };
  };
}

const checkIn = (sessionId: number, participantId: number, device: string) => ({
  events: [{ eventId: randomUUID(), kind: 'CHECK_IN', sessionId, participantId, occurredAt: '2030-01-31T22:05:00Z', device }],
});

const signed = async (n: SyncNode, sessionId: number) => {
  const manifest = (await n.call('GET', `/v1/manifest?sessionId=${sessionId}`)).body.manifest;
  return manifest.bookings
    .flatMap((b: any) => b.participants)
    .map((p: any) => ({ id: p.id, checkin: p.checkin, history: p.history.map((h: any) => ({ kind: h.kind, device: h.device, by: h.by })) }));
};

describe('a check-in signed on one instance, read on another', () => {
  it('shows the same device and key name on the hub and the desk after an exchange, both ways', async () => {
    const hub = await node('hub', { instanceNo: 1 });
    const product = (await hub.call('POST', '/v1/products', aScannableProduct())).body.product;
    expect((await hub.call('POST', '/v1/availability', aSession(product.productCode, { seats: 6 }))).status).toBe(200);
    const sale = await hub.call('POST', '/v1/bookings', aBooking(product.productCode, '2030-02-01T09:00:00+11:00', [{ optionLabel: 'Adult', value: 2 }]));
    expect(sale.status, JSON.stringify(sale.body)).toBe(200);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);

    const sessionId = (await hub.call('GET', `/v1/availability?productCode=${product.productCode}&startTimeLocal=2030-02-01&endTimeLocal=2030-02-02`)).body.sessions[0].id;
    const [first, second] = (await signed(hub, sessionId)).map((p: { id: number }) => p.id);
    const anna = await aGuideKey(hub, 'Hub pier key');
    const ben = await aGuideKey(desk, 'Desk gate key');
    expect((await anna('POST', '/v1/manifest/events', checkIn(sessionId, first, "Anna's phone"))).status).toBe(200);
    expect((await ben('POST', '/v1/manifest/events', checkIn(sessionId, second, "Ben's phone"))).status).toBe(200);
    await exchange(desk, hub);

    const onHub = await signed(hub, sessionId);
    expect(await signed(desk, sessionId)).toEqual(onHub);
    expect(onHub.find((p: { id: number }) => p.id === first).checkin).toMatchObject({ state: 'CHECKED_IN', device: "Anna's phone", by: 'Hub pier key' });
    expect(onHub.find((p: { id: number }) => p.id === second).checkin).toMatchObject({ state: 'CHECKED_IN', device: "Ben's phone", by: 'Desk gate key' });
    expect(await desk.dump()).toBe(await hub.dump());

    // A rescan on the desk names the hub's device that let the guest in.
    const { barcode } = desk.sql.prepare('SELECT barcode FROM participants WHERE id = ?').get(first) as { barcode: string };
    const rescan = await ben('POST', '/v1/manifest/scan', { code: barcode, sessionId, device: "Ben's phone" });
    expect(rescan.body.scan).toMatchObject({ result: 'ALREADY_CHECKED_IN' });
    expect(rescan.body.scan.message).toContain("by Anna's phone");
  });
});
