import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { aBooking, aProduct, aSession } from '../fixtures/builders';
import { nodesClosedAfterEach } from './nodes';
import { pullOps, WIRE_COMPACT, WIRE_VALUES } from '../../main/sync/wire';
import { completeOp } from '../../main/sync/op';
import { markSeen } from '../../db/queries/syncPeers';
import { SCHEMA_VERSION } from '../../main/sync/core';

const { listening: open } = nodesClosedAfterEach();

/** A hub runs on the suite's dialect (PostgreSQL under the postgres project); a desk always on SQLite. */
const listening = (name: 'hub' | 'desk', instanceNo: number) => open(name, { instanceNo, ...(name === 'desk' ? { dialect: 'sqlite' as const } : {}) });

describe('sync over HTTP between two real servers', () => {
  it('pairs a desk with a hub, exchanges both ways, and reports status and an oversold session until acknowledged', async () => {
    const { node: hub, url: hubUrl } = await listening('hub', 1);
    const { node: desk } = await listening('desk', 2);
    const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
    expect((await hub.call('POST', '/v1/availability', aSession(product.productCode, { seats: 2 }))).status).toBe(200);

    const paired = await desk.engine.sync.addPeer(hubUrl, hub.key);
    expect(paired).toMatchObject({ instanceNo: 1, hub: true });
    const [first] = await desk.engine.sync.syncAll();
    expect(first.error).toBeNull();

    const startTime = '2030-02-01T09:00:00+11:00';
    expect((await desk.call('POST', '/v1/bookings', aBooking(product.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]))).status).toBe(200);
    expect((await hub.call('POST', '/v1/bookings', aBooking(product.productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]))).status).toBe(200);
    const [second] = await desk.engine.sync.syncAll();
    expect(second.error).toBeNull();
    expect(await desk.dump()).toBe(await hub.dump());

    const status = (await desk.call('GET', '/v1/sync/status')).body;
    expect(status.peers[0]).toMatchObject({ url: hubUrl, instanceNo: 1, lastError: null, opsToSend: 0, opsToReceive: 0 });
    // The hub has no peers of its own; it lists the desk that exchanges with it, and when it last did.
    const hubStatus = (await hub.call('GET', '/v1/sync/status')).body;
    expect(hubStatus.peers).toEqual([]);
    expect(hubStatus.seenBy).toEqual([{ origin: desk.engine.replica.origin, instanceNo: 2, lastSeenAt: hub.engine.ctx.clock.now().toISOString(), lastRefusal: null, summary: 'last exchange 2030-01-15 11:00 (Australia/Sydney)' }]);
    expect(status.seenBy).toEqual([]);
    expect(status.peers[0].lastSuccessAt).not.toBeNull();
    expect(JSON.stringify(status)).not.toContain(hub.key);

    for (const n of [hub, desk]) {
      const { conflicts } = (await n.call('GET', '/v1/sync/conflicts')).body;
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0]).toMatchObject({ productCode: product.productCode, productName: product.name, startTime: '2030-01-31T22:00:00Z', startTimeLocal: '2030-02-01 09:00:00', capacity: 2, seatsHeld: 3, acknowledged: false });
      expect(conflicts[0].bookings).toHaveLength(2);
    }
    const conflict = (await hub.call('GET', '/v1/sync/conflicts')).body.conflicts[0];
    const versionOnDesk = async () => (await desk.call('GET', `/v1/manifest/version?sessionId=${conflict.sessionId}`)).body.manifestVersion.version as string;
    const deskVersionBefore = await versionOnDesk();
    const stale = await hub.call('POST', `/v1/sync/conflicts/${conflict.sessionId}/acknowledge`, { bookingSet: 'NOT-THE-SET' });
    expect(stale.status).toBe(409);
    // The same bookings in another order are the same set.
    const reordered = conflict.bookingSet.split(',').reverse().join(', ');
    expect(reordered).not.toBe(conflict.bookingSet);
    expect((await hub.call('POST', `/v1/sync/conflicts/${conflict.sessionId}/acknowledge`, { bookingSet: reordered })).status).toBe(200);
    await desk.engine.sync.syncAll();
    expect((await desk.call('GET', '/v1/sync/conflicts')).body.conflicts[0].acknowledged).toBe(true);
    // A manifest open on the desk polls its version: the hub's acknowledgement moves it, so the notice turns.
    expect(await versionOnDesk()).not.toBe(deskVersionBefore);
    expect((await desk.call('GET', `/v1/manifest?sessionId=${conflict.sessionId}`)).body.manifest.session.oversold).toMatchObject({ acknowledged: true });

  });

  it('refuses pairing when both instances have the same number, saying what to do', async () => {
    const { node: hub, url } = await listening('hub', 7);
    const { node: desk } = await listening('desk', 7);
    await expect(desk.engine.sync.addPeer(url, hub.key)).rejects.toThrow(/Instance number 7 is already used.*--instance/);
  });

  it('refuses a second desk with a number a syncing desk holds, at the hub, and the first desk keeps syncing', async () => {
    const { node: hub, url: hubUrl } = await listening('hub', 1);
    const { node: first } = await listening('desk', 2);
    const { node: second } = await listening('desk', 2);
    await first.engine.sync.addPeer(hubUrl, hub.key);
    expect((await first.engine.sync.syncAll())[0].error).toBeNull();
    // The refused pairing names the desk that holds the number and what to do; nothing of it stays on the hub.
    await expect(second.engine.sync.addPeer(hubUrl, hub.key)).rejects.toThrow(new RegExp(`Instance number 2 is already used by instance ${first.engine.replica.origin}.*fresh data folder`));
    expect((await hub.call('GET', '/v1/sync/status')).body.seenBy.map((s: { origin: string }) => s.origin)).toEqual([first.engine.replica.origin]);
    // A desk that skips its own check is refused by the hub on its first page, and not recorded either.
    const pull = await hub.call('POST', '/v1/sync/pull', { origin: second.engine.replica.origin, instanceNo: 2, schema: { min: 1, max: 99 }, vector: {} });
    expect(pull.status).toBe(409);
    expect(pull.body.requestStatus.error.errorMessage).toMatch(/Instance number 2 is already used/);
    expect((await hub.call('GET', '/v1/sync/status')).body.seenBy).toHaveLength(1);
    expect((await hub.call('POST', '/v1/sync/push', { origin: second.engine.replica.origin, instanceNo: 2, schema: { min: 1, max: 99 }, ops: [] })).status).toBe(409);

    const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
    expect((await first.engine.sync.syncAll())[0].error).toBeNull();
    expect((await first.call('GET', `/v1/products/${product.productCode}`)).status).toBe(200);
  });

  it('refuses, at the hub, a caller with its own origin or number, or a schema range it cannot serve, recording nothing', async () => {
    const { node: hub } = await listening('hub', 1);
    const pull = (hello: object) => hub.call('POST', '/v1/sync/pull', { origin: 'CA11E400000000AA', instanceNo: 5, schema: { min: 1, max: 99 }, vector: {}, limit: 1, ...hello });
    const refusals: [object, number, RegExp][] = [
      [{ instanceNo: 1 }, 409, /Instance number 1 is already used/],
      [{ origin: hub.engine.replica.origin }, 409, /own origin id/],
      [{ schema: { min: 5, max: 1 } }, 400, /min must not be above max/],
      [{ schema: { min: 0, max: 1 } }, 400, /schema/],
      [{ schema: { min: 9999, max: 10000 } }, 409, /upgrade TourDesk here first/],
    ];
    for (const [hello, status, why] of refusals) {
      const res = await pull(hello);
      expect(res.status, JSON.stringify(hello)).toBe(status);
      expect(res.body.requestStatus.error.errorMessage).toMatch(why);
    }
    expect((await hub.call('GET', '/v1/sync/status')).body.seenBy).toEqual([]);
    expect((await pull({})).status).toBe(200);
  });

  it('forgets a number recorded from a refused pairing (an earlier build did) when the desk that holds it syncs', async () => {
    const { node: hub, url: hubUrl } = await listening('hub', 1);
    const { node: desk } = await listening('desk', 2);
    await desk.engine.sync.addPeer(hubUrl, hub.key);
    expect((await desk.engine.sync.syncAll())[0].error).toBeNull();
    // What an earlier hub kept of a second desk's refused hello: its origin with the same number, no op.
    await markSeen(hub.engine.ctx.db, 'GH05700000000002', 2, 1);
    expect((await desk.engine.sync.syncAll())[0].error).toBeNull();
    expect((await hub.call('GET', '/v1/sync/status')).body.seenBy.map((s: { origin: string }) => s.origin)).toEqual([desk.engine.replica.origin]);
  });

  it('answers a pull in the compact encoding only to a caller that asks for it, with the same ops as the plain one', async () => {
    const { node: hub } = await listening('hub', 1);
    const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
    expect((await hub.call('POST', '/v1/availability', aSession(product.productCode, { seats: 2 }))).status).toBe(200);
    expect((await hub.call('POST', '/v1/bookings', aBooking(product.productCode, '2030-02-01T09:00:00+11:00', [{ optionLabel: 'Adult', value: 1 }]))).status).toBe(200);
    const request = { origin: 'DESKAAAA', instanceNo: 2, schema: { min: 1, max: 99 }, vector: {} };
    // An older desk sends no `wire`: plain ops, as before.
    const plain = await hub.call('POST', '/v1/sync/pull', request);
    expect(plain.status).toBe(200);
    expect(plain.body.ops.length).toBeGreaterThan(3);
    expect(plain.body.rows).toBeUndefined();
    const compact = await hub.call('POST', '/v1/sync/pull', { ...request, wire: WIRE_COMPACT });
    expect(compact.body).toMatchObject({ wire: WIRE_COMPACT, hasMore: false });
    expect(compact.body.ops).toBeUndefined();
    expect(JSON.stringify(compact.body.rows)).not.toContain(':null');
    expect(JSON.stringify(compact.body).length).toBeLessThan(JSON.stringify(plain.body).length);
    const byId = (ops: { origin: string; seq: number }[]) => [...ops].sort((a, b) => a.seq - b.seq);
    expect(byId(pullOps(compact.body).ops.map(completeOp))).toEqual(byId(plain.body.ops));
    // A desk that reads value arrays gets the changes the hub stored as arrays as they are, with their columns listed once.
    const values = await hub.call('POST', '/v1/sync/pull', { ...request, wire: WIRE_VALUES });
    expect(values.body).toMatchObject({ wire: WIRE_VALUES, hasMore: false });
    const customerRow = values.body.rows.find((r: unknown[]) => r[3] === 'customers');
    if (hub.engine.ctx.handle.dialect === 'sqlite') {
      expect(Array.isArray(customerRow[6])).toBe(true);
      expect(values.body.shapes[customerRow[10]]).toContain('first_name');
      expect(JSON.stringify(values.body).length).toBeLessThan(JSON.stringify(compact.body).length);
    } else {
      // A PostgreSQL hub stores changes as objects (migration 99): they go out as wire 2 sends them.
      expect(customerRow[6]).toMatchObject({ first_name: expect.any(String) });
      expect(customerRow).toHaveLength(compact.body.rows.find((r: unknown[]) => r[3] === 'customers').length);
    }
    expect(byId(pullOps(values.body).ops.map(completeOp))).toEqual(byId(plain.body.ops));
    // A caller asking for a newer encoding than this build knows gets the newest it knows.
    expect((await hub.call('POST', '/v1/sync/pull', { ...request, wire: 9 })).body.wire).toBe(WIRE_VALUES);
  });

  it('answers bad pages with 4xx and the requestStatus envelope, and a gap with 409', async () => {
    const { node: hub } = await listening('hub', 1);
    const bad = await hub.call('POST', '/v1/sync/push', { origin: 'x', ops: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.requestStatus.success).toBe(false);
    const hello = { origin: 'DESKAAAA', instanceNo: 2, schema: { min: 1, max: 99 } };
    const op = { origin: 'DESKAAAA', seq: 5, hlc: '000001893456000000-000000-DESKAAAA'.slice(3), entity: 'checkin_events', entityId: '["e1"]', kind: 'insert', change: {}, schema: 1 };
    const gap = await hub.call('POST', '/v1/sync/push', { ...hello, ops: [op] });
    expect(gap.status).toBe(409);
    expect(gap.body.requestStatus.error.errorMessage).toMatch(/skips ops of origin DESKAAAA/);
  });

  it('answers a malformed op with 400 naming what is wrong, applies nothing of its page, and never 500', async () => {
    const { node: hub } = await listening('hub', 1);
    const hello = { origin: 'DE5CBAD0', instanceNo: 2, schema: { min: 1, max: SCHEMA_VERSION } };
    const hlc = `${String(hub.engine.ctx.clock.now().getTime()).padStart(15, '0')}-000000-DE5CBAD0`;
    const anOp = (patch: object) => ({ origin: 'DE5CBAD0', seq: 1, hlc, entity: 'customers', entityId: '[2002]', kind: 'insert', change: { id: 2002, first_name: 'Ann', created_at: 1, updated_at: 1 }, schema: SCHEMA_VERSION, ...patch });
    const before = await hub.dump();
    const cases: [object, RegExp][] = [
      [{ kind: 'delete', entityId: '[]', change: null }, /entityId: must be a JSON array of the row’s key values/],
      [{ entityId: '{}' }, /entityId: must be a JSON array/],
      [{ kind: 'update', entityId: 'nojson', change: { first_name: 'B' } }, /entityId: must be a JSON array/],
      [{ entityId: '[1,2,3]' }, /entityId must hold 1 key value\(s\) of customers \(id\)/],
      [{ change: null }, /change: must be the row's columns for an insert/],
      [{ change: { id: 2002, first_name: { a: 1 } } }, /change/],
      [{ entity: 'api_keys', entityId: '[1]', change: { id: 1, role: 'supplier' } }, /names api_keys, which does not sync/],
      [{ change: { id: 'abc', first_name: 'Ann', created_at: 1, updated_at: 1 } }, /does not fit this instance's tables \((SQLITE_|2[23])/],
      [{ entity: 'checkin_events', entityId: '["x"]', change: { event_id: 'x' } }, /does not fit this instance's tables/],
    ];
    for (const [patch, why] of cases) {
      const res = await hub.call('POST', '/v1/sync/push', { ...hello, ops: [anOp(patch)] });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.requestStatus).toMatchObject({ success: false, error: { errorCode: 'VALIDATION_ERROR', errorMessage: expect.stringMatching(why) } });
      expect(JSON.stringify(res.body), JSON.stringify(res.body)).not.toMatch(/SELECT |INSERT INTO|constraint failed|SqliteError/);
    }
    expect(await hub.dump()).toBe(before);
    expect((await hub.engine.replica.vector()).DE5CBAD0).toBeUndefined();
    // The same op, well formed, goes in.
    expect((await hub.call('POST', '/v1/sync/push', { ...hello, ops: [anOp({})] })).status).toBe(200);
  });

  it('syncs on demand with POST /v1/sync/run: what moved per peer and the status after, or why a peer failed', async () => {
    const { node: hub, url: hubUrl } = await listening('hub', 1);
    const { node: desk } = await listening('desk', 2);
    const alone = await desk.call('POST', '/v1/sync/run');
    expect(alone.status).toBe(409);
    expect(alone.body.requestStatus.error.errorMessage).toMatch(/no peers to sync with: pair it first/);
    await desk.engine.sync.addPeer(hubUrl, hub.key);
    const before = await desk.dump();
    const bad = await desk.call('POST', '/v1/sync/run', [hubUrl]);
    expect(bad.status).toBe(400);
    expect(bad.body.requestStatus).toMatchObject({ success: false, error: { errorCode: 'VALIDATION_ERROR' } });
    expect(await desk.dump()).toBe(before);

    // The first exchange of a fresh desk joins from a snapshot; the next one moves ops.
    expect((await desk.call('POST', '/v1/sync/run')).body.peers[0]).toMatchObject({ url: hubUrl, error: null });
    const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
    const run = await desk.call('POST', '/v1/sync/run');
    expect(run.status).toBe(200);
    expect(run.body.peers).toEqual([{ url: hubUrl, error: null, received: expect.any(Number), sent: expect.any(Number) }]);
    expect(run.body.peers[0].received).toBeGreaterThan(0);
    expect(run.body.status.peers[0]).toMatchObject({ url: hubUrl, lastError: null, opsToReceive: 0 });
    expect((await desk.call('GET', `/v1/products/${product.productCode}`)).status).toBe(200);

    await hub.app.close();
    const failed = await desk.call('POST', '/v1/sync/run');
    expect(failed.status).toBe(200);
    expect(failed.body.peers[0]).toMatchObject({ url: hubUrl, error: expect.stringMatching(/is not reachable/), received: 0, sent: 0 });
    expect(failed.body.status.peers[0].summary).toMatch(/^Not synced since /);
  });

  it('counts what waits for a peer as it is now, from the vector it last heard from that peer: a desk cut off from its hub says how much of its own work waits', async () => {
    const { node: hub, url: hubUrl } = await listening('hub', 1);
    const { node: desk } = await listening('desk', 2);
    const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
    expect((await hub.call('POST', '/v1/availability', aSession(product.productCode, { seats: 10 }))).status).toBe(200);
    await desk.engine.sync.addPeer(hubUrl, hub.key);
    expect((await desk.engine.sync.syncAll())[0].error).toBeNull();
    expect((await desk.engine.sync.syncAll())[0].error).toBeNull();
    expect((await desk.call('GET', '/v1/sync/status')).body.peers[0].opsToSend).toBe(0);

    await hub.app.close();
    const origin = desk.engine.replica.origin;
    const before = (await desk.engine.replica.vector())[origin] ?? 0;
    expect((await desk.call('POST', '/v1/bookings', aBooking(product.productCode, '2030-02-01T09:00:00+11:00', [{ optionLabel: 'Adult', value: 2 }]))).status).toBe(200);
    const made = ((await desk.engine.replica.vector())[origin] ?? 0) - before;
    expect(made).toBeGreaterThan(0);
    // Before the next try, and after it fails: the walk-up sale's changes are counted as waiting.
    expect((await desk.call('GET', '/v1/sync/status')).body.peers[0].opsToSend).toBe(made);
    expect((await desk.engine.sync.syncAll())[0].error).toMatch(/is not reachable/);
    const status = (await desk.call('GET', '/v1/sync/status')).body.peers[0];
    expect(status).toMatchObject({ opsToSend: made, summary: expect.stringMatching(/^Not synced since /) });
  });

  it('runs one exchange at a time: syncs asked for together (background and on demand) never overlap', async () => {
    const { node: hub, url: hubUrl } = await listening('hub', 1);
    const { node: desk } = await listening('desk', 2);
    // A pass-through in front of the hub that counts the requests in flight.
    let inFlight = 0;
    let most = 0;
    const proxy = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        try {
          await new Promise((resolve) => setTimeout(resolve, 20));
          const answer = await fetch(`${hubUrl}${req.url}`, { method: req.method, headers: { apikey: String(req.headers.apikey), 'content-type': 'application/json' }, body: body || undefined });
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
        } finally {
          inFlight--;
        }
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      await desk.engine.sync.addPeer(proxyUrl, hub.key);
      for (let i = 0; i < 3; i++) expect((await hub.call('POST', '/v1/products', aProduct())).status).toBe(200);
      most = 0;
      const results = await Promise.all([desk.engine.sync.syncAll(), desk.call('POST', '/v1/sync/run'), desk.engine.sync.syncAll()]);
      expect(results[0][0].error).toBeNull();
      expect(results[1].body.peers[0].error).toBeNull();
      expect(results[2][0].error).toBeNull();
      // Each exchange is a run of requests one after another; three at once would have overlapped.
      expect(most).toBe(1);
      expect(await desk.dump()).toBe(await hub.dump());
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('pairs and unpairs over the API as `tourdesk peer add/remove` do, refusing bad input, a clash or a silent peer with nothing stored', async () => {
    const { node: hub, url: hubUrl } = await listening('hub', 1);
    const { node: desk } = await listening('desk', 2);
    const { node: twin, url: twinUrl } = await listening('hub', 2);
    const peers = async () => (await desk.call('GET', '/v1/sync/status')).body.peers as { url: string }[];
    const refusals: [unknown, number, RegExp][] = [
      [{ url: hubUrl }, 400, /key: /],
      [{ url: hubUrl, key: 42 }, 400, /key: /],
      [{ url: 'not-a-url', key: hub.key }, 400, /is not a peer address/],
      [{ url: 'ftp://10.0.0.2/', key: hub.key }, 400, /a peer is reached over http:\/\/ or https:\/\//],
      [{ url: 'http://127.0.0.1:9', key: hub.key }, 409, /127\.0\.0\.1:9 is not reachable/],
      [{ url: hubUrl, key: 'td_not_a_key_of_the_hub' }, 409, /refused: The API key is not valid/],
      [{ url: twinUrl, key: twin.key }, 409, /Instance number 2 is already used/],
    ];
    for (const [body, status, why] of refusals) {
      const res = await desk.call('POST', '/v1/sync/peers', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.requestStatus).toMatchObject({ success: false, error: { errorMessage: expect.stringMatching(why) } });
      expect(await peers()).toEqual([]);
    }

    // Unknown fields are ignored, as everywhere in this API (api-facts: lenient in what is asked).
    const paired = await desk.call('POST', '/v1/sync/peers', { url: `${hubUrl}/`, key: hub.key, comment: 'the office hub' });
    expect(paired.status).toBe(200);
    expect(paired.body.peer).toEqual({ url: hubUrl, origin: hub.engine.replica.origin, instanceNo: 1, hub: true });
    expect(JSON.stringify(paired.body)).not.toContain(hub.key);
    expect((await peers()).map((p) => p.url)).toEqual([hubUrl]);
    expect((await desk.call('POST', '/v1/sync/run')).body.peers[0]).toMatchObject({ url: hubUrl, error: null });

    expect((await desk.call('DELETE', '/v1/sync/peers')).status).toBe(400);
    expect((await desk.call('DELETE', '/v1/sync/peers?url=')).status).toBe(400);
    const removed = await desk.call('DELETE', `/v1/sync/peers/?url=${encodeURIComponent(hubUrl)}&reason=moved`);
    expect(removed.status).toBe(200);
    expect(removed.body.removed).toBe(hubUrl);
    expect(await peers()).toEqual([]);
    expect((await desk.call('DELETE', `/v1/sync/peers?url=${encodeURIComponent(hubUrl)}`)).status).toBe(404);
  });

  it('says in its status how far a running exchange has come, page by page, and nothing once it is over', async () => {
    const { node: hub, url: hubUrl } = await listening('hub', 1);
    const { node: desk } = await listening('desk', 2);
    // A pass-through that holds every pull page after the first for a while, so the test can look in between.
    const proxy = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', async () => {
        if (req.url === '/v1/sync/pull' && JSON.parse(body).after !== undefined) await new Promise((resolve) => setTimeout(resolve, 1_500));
        const answer = await fetch(`${hubUrl}${req.url}`, { method: req.method, headers: { apikey: String(req.headers.apikey), 'content-type': 'application/json' }, body: body || undefined });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      await desk.engine.sync.addPeer(proxyUrl, hub.key);
      expect((await desk.engine.sync.syncAll())[0].error).toBeNull(); // joins from the hub's snapshot
      // More than a page of ops on the hub (a product and its price options are ops of their own).
      for (let i = 0; i < 200; i++) expect((await hub.call('POST', '/v1/products', aProduct({ name: `Tour ${i}` }))).status).toBe(200);
      expect((await desk.call('GET', '/v1/sync/status')).body.exchanging).toBeNull();
      const running = desk.engine.sync.syncAll();
      let seen: { url: string; received: number; remaining: number | null } | null = null;
      for (let waited = 0; !seen && waited < 10_000; waited += 25) {
        const now = (await desk.call('GET', '/v1/sync/status')).body.exchanging;
        if (now?.received > 0) seen = now;
        else await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // The first page: up to 500 ops, ending on a write's boundary.
      expect(seen).toMatchObject({ url: proxyUrl, snapshotRows: 0, sent: 0 });
      expect(seen!.received).toBeGreaterThan(400);
      expect(seen!.received).toBeLessThanOrEqual(500);
      expect(seen!.remaining).toBeGreaterThan(0);
      const [done] = await running;
      expect(done.error).toBeNull();
      expect(done.report!.received).toBe(seen!.received + seen!.remaining!);
      expect((await desk.call('GET', '/v1/sync/status')).body.exchanging).toBeNull();
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

