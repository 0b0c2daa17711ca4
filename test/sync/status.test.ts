import { describe, expect, it } from 'vitest';
import { aBooking, aProduct, aSession } from '../fixtures/builders';
import { nodesClosedAfterEach } from './nodes';
import { SCHEMA_VERSION } from '../../main/sync/core';

/**
 * What GET /v1/sync/status tells about why sync does not go through: a hub keeps each caller's last
 * refusal, and a desk whose changes the hub refuses for their clock stamps says until when.
 */
const { listening: open } = nodesClosedAfterEach();

/** A hub runs on the suite's dialect (PostgreSQL under the postgres project); a desk always on SQLite. */
const listening = (name: 'hub' | 'desk', instanceNo: number) => open(name, { instanceNo, ...(name === 'desk' ? { dialect: 'sqlite' as const } : {}) });

const MINUTE = 60_000;

describe('sync status that tells the truth', () => {
  it('keeps on the hub a desk’s refused push (its clock ahead), and tells on the desk until when its changes wait once its clock is set back', async () => {
    const { node: hub, url: hubUrl } = await listening('hub', 1);
    const { node: desk } = await listening('desk', 2);
    const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
    expect((await hub.call('POST', '/v1/availability', aSession(product.productCode, { seats: 20 }))).status).toBe(200);
    await desk.engine.sync.addPeer(hubUrl, hub.key);
    expect((await desk.engine.sync.syncAll())[0].error).toBeNull();

    // The desk's clock runs an hour ahead while it sells: the hub refuses the push.
    desk.clock.advance(60 * MINUTE);
    expect((await desk.call('POST', '/v1/bookings', aBooking(product.productCode, '2030-02-01T09:00:00+11:00', [{ optionLabel: 'Adult', value: 1 }]))).status).toBe(200);
    expect((await desk.engine.sync.syncAll())[0].error).toMatch(/refused: An op is stamped 3600 s ahead/);
    let peer = (await desk.call('GET', '/v1/sync/status')).body.peers[0];
    expect(peer).toMatchObject({ pushesWaitUntil: null, opsToSend: expect.any(Number) });
    expect(peer.summary).toContain('this machine’s clock is 60 min ahead of the peer’s: the peer refuses its changes until the clock is set right');

    const hubStatus = (await hub.call('GET', '/v1/sync/status')).body;
    expect(hubStatus.seenBy).toHaveLength(1);
    expect(hubStatus.seenBy[0]).toMatchObject({
      instanceNo: 2,
      lastRefusal: { at: '2030-01-15T00:00:00.000Z', reason: 'CLOCK_AHEAD', message: expect.stringMatching(/^An op is stamped 3600 s ahead of this machine's clock \(origin \w+\)/) },
    });
    expect(hubStatus.seenBy[0].summary).toMatch(/^last exchange 2030-01-15 11:00 \(Australia\/Sydney\) · refused 2030-01-15 11:00 \(Australia\/Sydney\): An op is stamped 3600 s ahead .* \(CLOCK_AHEAD\)$/);
    expect(hubStatus.turnedAway).toEqual([]);

    // Its clock set right: its stamps stay an hour ahead, so the hub takes them 55 minutes from now.
    desk.clock.advance(-60 * MINUTE);
    expect((await desk.engine.sync.syncAll())[0].error).toMatch(/refused: An op is stamped/);
    peer = (await desk.call('GET', '/v1/sync/status')).body.peers[0];
    expect(peer.pushesWaitUntil).toBe('2030-01-15T00:55:00.000Z');
    expect(peer.summary).toContain('its changes wait for this machine’s clock until 2030-01-15 11:55 (Australia/Sydney): the clock ran ahead and was set back');

    // Then they go through; the hub still answers the last refusal, but no longer says it in its summary.
    for (const n of [hub, desk]) n.clock.advance(56 * MINUTE);
    expect((await desk.engine.sync.syncAll())[0].error).toBeNull();
    peer = (await desk.call('GET', '/v1/sync/status')).body.peers[0];
    expect(peer).toMatchObject({ pushesWaitUntil: null, opsToSend: 0, lastError: null });
    expect(peer.summary).toBe('Synced at 2030-01-15 11:56 (Australia/Sydney)');
    const after = (await hub.call('GET', '/v1/sync/status')).body.seenBy[0];
    expect(after).toMatchObject({ lastRefusal: { reason: 'CLOCK_AHEAD' }, summary: 'last exchange 2030-01-15 11:56 (Australia/Sydney)' });
  });

  it('lists callers the hub turned away that never synced there (a number another desk holds), but not a bare hello', async () => {
    const { node: hub, url: hubUrl } = await listening('hub', 1);
    const { node: desk } = await listening('desk', 2);
    await desk.engine.sync.addPeer(hubUrl, hub.key);
    expect((await desk.engine.sync.syncAll())[0].error).toBeNull();

    const clash = { origin: 'DE5C0000BBBB2222', instanceNo: 2, schema: { min: 1, max: SCHEMA_VERSION }, vector: {} };
    expect((await hub.call('POST', '/v1/sync/pull', { ...clash, limit: 0 })).status).toBe(409);
    expect((await hub.call('GET', '/v1/sync/status')).body.turnedAway).toEqual([]);
    const refused = await hub.call('POST', '/v1/sync/pull', { ...clash, limit: 500 });
    expect(refused.status).toBe(409);

    const status = (await hub.call('GET', '/v1/sync/status')).body;
    expect(status.seenBy.map((s: { origin: string }) => s.origin)).toEqual([desk.engine.replica.origin]);
    expect(status.turnedAway).toEqual([
      {
        origin: 'DE5C0000BBBB2222',
        instanceNo: 2,
        lastRefusal: { at: '2030-01-15T00:00:00.000Z', reason: 'PAIRING', message: refused.body.requestStatus.error.errorMessage },
        summary: `never exchanged here · refused 2030-01-15 11:00 (Australia/Sydney): ${refused.body.requestStatus.error.errorMessage} (PAIRING)`,
      },
    ]);
    // The refused desk is not an instance that holds number 2: the one that syncs keeps syncing.
    expect((await desk.engine.sync.syncAll())[0].error).toBeNull();
  });
});

describe('a hub forgets a desk', () => {
  it('drops a desk from the status over the API (404 for an unknown one, 400 for bad input, nothing changed), and records it again when it comes back', async () => {
    const { node: hub, url: hubUrl } = await listening('hub', 1);
    const { node: desk } = await listening('desk', 2);
    await desk.engine.sync.addPeer(hubUrl, hub.key);
    expect((await desk.engine.sync.syncAll())[0].error).toBeNull();
    const clash = { origin: 'DE5C0000BBBB2222', instanceNo: 2, schema: { min: 1, max: SCHEMA_VERSION }, vector: {}, limit: 500 };
    expect((await hub.call('POST', '/v1/sync/pull', clash)).status).toBe(409);
    const before = (await hub.call('GET', '/v1/sync/status')).body;
    expect(before.seenBy).toHaveLength(1);
    expect(before.turnedAway).toHaveLength(1);

    for (const [path, status, code] of [
      ['/v1/sync/instances/7', 404, 'NOT_FOUND'],
      ['/v1/sync/instances/0', 400, 'VALIDATION_ERROR'],
      ['/v1/sync/instances/1000', 400, 'VALIDATION_ERROR'],
      ['/v1/sync/instances/two', 400, 'VALIDATION_ERROR'],
    ] as const) {
      const res = await hub.call('DELETE', path);
      expect(res.status, path).toBe(status);
      expect(res.body.requestStatus).toMatchObject({ success: false, error: { errorCode: code } });
    }
    expect((await hub.call('GET', '/v1/sync/status')).body).toEqual(before);

    // The desk and the caller refused with its number both go.
    expect(await hub.call('DELETE', '/v1/sync/instances/2')).toMatchObject({ status: 200, body: { forgotten: 2 } });
    const after = (await hub.call('GET', '/v1/sync/status')).body;
    expect(after).toMatchObject({ seenBy: [], turnedAway: [] });
    expect((await hub.call('DELETE', '/v1/sync/instances/2')).status).toBe(404);
    // Its number stays taken: another desk still cannot sync with it.
    expect((await hub.call('POST', '/v1/sync/pull', clash)).status).toBe(409);

    hub.clock.advance(MINUTE);
    expect((await desk.engine.sync.syncAll())[0].error).toBeNull();
    expect((await hub.call('GET', '/v1/sync/status')).body.seenBy).toMatchObject([{ origin: desk.engine.replica.origin, instanceNo: 2, lastSeenAt: '2030-01-15T00:01:00.000Z' }]);
  });
});
