import { afterEach, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aBooking, aProduct, aSession } from '../fixtures/builders';
import { fixedClock } from '../fixtures/app';
import { FOLDER_MARK_FILE, readFolderMark } from '../../main/sync/incarnationMark';
import { listen, nodesClosedAfterEach, syncOk, type SyncNode } from './nodes';

/**
 * A database copied back by hand (docs/sync.md, "restored backup"): the operator stops the instance,
 * copies yesterday's tourdesk.sqlite over today's and starts it again; no `tourdesk restore`, so no
 * mark in the copy. The data folder's own mark says the database went back: it takes a new
 * incarnation like a restore, gets back what it lost, issues no number twice, and nobody re-pairs.
 * Real servers on loopback, real file copies.
 */
const folders: string[] = [];
// Registered before the nodes' hook: after-hooks run last-registered first, so nodes close before their folders go.
afterEach(() => {
  while (folders.length) rmSync(folders.pop()!, { recursive: true, force: true });
});
const { nodes, node } = nodesClosedAfterEach();

const folder = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `tourdesk-handcopy-${name}-`));
  folders.push(dir);
  return dir;
};

async function listening(name: string, instanceNo: number, dir: string, port = 0, hub?: SyncNode) {
  const n = await node(name, { instanceNo, clock: fixedClock('2030-01-15T00:00:00Z'), dir, dialect: 'sqlite', ...(hub ? { hub } : {}) });
  return { node: n, port: (await listen(n, port)).port };
}

async function stop(n: SyncNode) {
  await n.close();
  nodes.splice(nodes.indexOf(n), 1);
}

async function sell(n: SyncNode, productCode: string): Promise<string> {
  const answer = await n.call('POST', '/v1/bookings', aBooking(productCode, '2030-06-01T09:00:00+10:00', [{ optionLabel: 'Adult', value: 1 }]));
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.booking.orderNumber as string;
}

const orderNumbers = (n: SyncNode) => n.sql.prepare('SELECT order_number FROM bookings ORDER BY order_number').pluck().all() as string[];
const database = (dir: string) => join(dir, 'tourdesk.sqlite');

/** As an operator does it, the instance stopped: the database file alone, copied (no WAL is left by a clean stop). */
function copyDatabase(from: string, to: string) {
  expect(existsSync(`${from}-wal`) && existsSync(`${from}-shm`)).toBe(false);
  copyFileSync(from, to);
}

describe('a database copied back by hand', () => {
  it('is noticed on a hub: a new incarnation gets back from its desks what it lost, with fresh numbers and no re-pairing', async () => {
    const hubDir = folder('hub');
    const first = await listening('hub', 1, hubDir);
    const port = first.port;
    let hub = first.node;
    const productCode = (await hub.call('POST', '/v1/products', aProduct())).body.product.productCode as string;
    expect((await hub.call('POST', '/v1/availability', aSession(productCode, { seats: 500, startTimeLocal: '2030-06-01 09:00:00' }))).status).toBe(200);
    const desks: SyncNode[] = [];
    for (const i of [2, 3]) {
      const { node: desk } = await listening(`desk${i}`, i, folder(`desk${i}`), 0, hub);
      await desk.engine.sync.addPeer(`http://127.0.0.1:${port}`, hub.key);
      await syncOk(desk);
      desks.push(desk);
    }
    const made = [await sell(hub, productCode), await sell(desks[0], productCode)];
    for (const d of desks) await syncOk(d);

    // Yesterday: the hub stopped, its file copied aside, started again.
    const yesterday = join(folder('copies'), 'tourdesk.sqlite');
    const origin = hub.engine.replica.origin;
    await stop(hub);
    copyDatabase(database(hubDir), yesterday);
    ({ node: hub } = await listening('hub', 1, hubDir, port));
    // A plain restart is no restore.
    expect(hub.engine.replica.origin).toBe(origin);
    made.push(await sell(hub, productCode), await sell(desks[0], productCode), await sell(desks[1], productCode));
    for (const d of [...desks, desks[0]]) await syncOk(d);
    const given = new Set(orderNumbers(desks[0]));

    // Today: stopped, yesterday's file copied over, started.
    await stop(hub);
    copyDatabase(yesterday, database(hubDir));
    ({ node: hub } = await listening('hub', 1, hubDir, port));
    expect(hub.engine.replica.origin).not.toBe(origin);
    expect(readFolderMark(hubDir)?.origin).toBe(hub.engine.replica.origin);
    const fresh = await sell(hub, productCode);
    expect(given.has(fresh)).toBe(false);
    made.push(fresh);

    for (const d of [...desks, ...desks]) await syncOk(d);
    const dumps = await Promise.all([hub, ...desks].map((n) => n.dump()));
    for (const dump of dumps) expect(dump).toBe(dumps[0]);
    for (const n of [hub, ...desks]) expect(orderNumbers(n)).toEqual([...made].sort());
    for (const d of desks) expect(d.engine.replica.catalogueOwner()).toBe(hub.engine.replica.origin);
  });

  it('is noticed on a desk, which gets its lost sales back from the hub; a new database in the folder is not a restore', async () => {
    const { node: hub, port } = await listening('hub', 1, folder('hub'));
    const productCode = (await hub.call('POST', '/v1/products', aProduct())).body.product.productCode as string;
    expect((await hub.call('POST', '/v1/availability', aSession(productCode, { seats: 500, startTimeLocal: '2030-06-01 09:00:00' }))).status).toBe(200);
    const deskDir = folder('desk');
    let { node: desk } = await listening('desk', 2, deskDir, 0, hub);
    await desk.engine.sync.addPeer(`http://127.0.0.1:${port}`, hub.key);
    await syncOk(desk);
    const made = [await sell(desk, productCode)];
    await syncOk(desk);
    const yesterday = join(folder('copies'), 'tourdesk.sqlite');
    await stop(desk);
    copyDatabase(database(deskDir), yesterday);
    ({ node: desk } = await listening('desk', 2, deskDir));
    // Sold and synced, then nothing exchanged before the stop: the clean stop moved the mark too.
    made.push(await sell(desk, productCode), await sell(desk, productCode));
    await syncOk(desk);
    made.push(await sell(desk, productCode));
    const origin = desk.engine.replica.origin;
    await stop(desk);

    copyDatabase(yesterday, database(deskDir));
    ({ node: desk } = await listening('desk', 2, deskDir));
    expect(desk.engine.replica.origin).not.toBe(origin);
    const fresh = await sell(desk, productCode);
    expect(made).not.toContain(fresh);
    await syncOk(desk);
    await syncOk(desk);
    // The last sale before the copy never left the desk: gone with it (docs/sync.md's limit), all else is back.
    const lost = made.pop()!;
    expect(orderNumbers(desk)).toEqual([...made, fresh].sort());
    expect(orderNumbers(hub)).not.toContain(lost);
    expect(await desk.dump()).toBe(await hub.dump());

    // A database made anew in the folder (the old one deleted) gave nothing out: no incarnation.
    await stop(desk);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${database(deskDir)}${suffix}`, { force: true });
    expect(existsSync(join(deskDir, FOLDER_MARK_FILE))).toBe(true);
    ({ node: desk } = await listening('desk', 2, deskDir));
    expect(await desk.engine.sync.status()).toMatchObject({ instance: { origin: desk.engine.replica.origin } });
    expect(desk.sql.prepare('SELECT count(*) AS n FROM sync_incarnations').get()).toEqual({ n: 0 });
  });
});
