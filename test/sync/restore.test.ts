import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aBooking, aProduct, aSession } from '../fixtures/builders';
import { fixedClock } from '../fixtures/app';
import { converging, expectConverged, nodesClosedAfterEach, syncOk, type SyncNode } from './nodes';
import { tourdesk } from './cliInProcess';

/**
 * Restores that rejoin (docs/sync.md): a hub or desk restored from an older backup mid-workload takes
 * a new incarnation, gets back from its peers what it lost, and never re-issues an id or order number.
 * Real servers paired over HTTP; the restore is `tourdesk backup` and `tourdesk restore` on the folder.
 */
const folders: string[] = [];
afterEach(() => {
  while (folders.length) rmSync(folders.pop()!, { recursive: true, force: true });
});
// Registered after the folders' hook, so it runs before it (vitest runs afterEach hooks as a stack): nodes close, then their folders go.
const { nodes, listening: open } = nodesClosedAfterEach();

const clock = () => fixedClock('2030-01-15T00:00:00Z');

const listening = (name: string, instanceNo: number, dir: string, port = 0, hub?: SyncNode) => open(name, { instanceNo, clock: clock(), dir, dialect: 'sqlite', ...(hub ? { hub } : {}) }, port);

const folder = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `tourdesk-restore-${name}-`));
  folders.push(dir);
  return dir;
};

async function sell(n: SyncNode, productCode: string): Promise<string> {
  const answer = await n.call('POST', '/v1/bookings', aBooking(productCode, '2030-06-01T09:00:00+10:00', [{ optionLabel: 'Adult', value: 1 }]));
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.booking.orderNumber as string;
}

const orderNumbers = (n: SyncNode) => n.sql.prepare('SELECT order_number FROM bookings ORDER BY order_number').pluck().all() as string[];

async function setUp() {
  const hubDir = folder('hub');
  const { node: hub, port } = await listening('hub', 1, hubDir);
  const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
  expect((await hub.call('POST', '/v1/availability', aSession(product.productCode, { seats: 500, startTimeLocal: '2030-06-01 09:00:00' }))).status).toBe(200);
  const desks: SyncNode[] = [];
  const deskDirs: string[] = [];
  for (const i of [2, 3]) {
    const dir = folder(`desk${i}`);
    const { node: desk } = await listening(`desk${i}`, i, dir, 0, hub);
    await desk.engine.sync.addPeer(`http://127.0.0.1:${port}`, hub.key);
    await syncOk(desk);
    desks.push(desk);
    deskDirs.push(dir);
  }
  return { hub, hubDir, port, desks, deskDirs, productCode: product.productCode as string };
}

/** A node's folder restored from `backup` and opened again (as `tourdesk serve` would, on the same port). */
async function restored(n: SyncNode, name: string, instanceNo: number, dir: string, backup: string, port: number, hub?: SyncNode) {
  await n.close();
  nodes.splice(nodes.indexOf(n), 1);
  const result = await tourdesk('restore', backup, '--data-dir', dir);
  expect(result.code, result.out).toBe(0);
  return (await listening(name, instanceNo, dir, port, hub)).node;
}

describe('a restored instance rejoins', () => {
  it('a hub restored from an older backup mid-workload gets back what it lost, issues fresh numbers, and its desks keep syncing', async () => {
    const { hub, hubDir, port, desks, productCode } = await setUp();
    const made = [await sell(hub, productCode), await sell(desks[0], productCode), await sell(desks[1], productCode)];
    for (const d of desks) await syncOk(d);
    const backup = join(folder('backups'), 'hub.tdbackup');
    expect((await tourdesk('backup', backup, '--data-dir', hubDir)).code).toBe(0);
    // After the backup: sales everywhere, synced (the desks hold the hub's, the hub acknowledged theirs, relays too).
    made.push(await sell(hub, productCode), await sell(hub, productCode), await sell(desks[0], productCode), await sell(desks[1], productCode));
    for (const d of [...desks, desks[0]]) await syncOk(d);
    // And a desk sale the hub never saw.
    made.push(await sell(desks[1], productCode));
    const before = new Set(orderNumbers(desks[0]));
    const oldOrigin = hub.engine.replica.origin;

    const back = await restored(hub, 'hub', 1, hubDir, backup, port);
    expect(back.engine.replica.origin).not.toBe(oldOrigin);
    // The restored hub sells before any desk came back: fresh numbers, none given out before.
    const fresh = [await sell(back, productCode), await sell(back, productCode)];
    for (const number of fresh) expect(before.has(number)).toBe(false);
    made.push(...fresh);

    for (const d of [...desks, ...desks]) await syncOk(d);
    // After what it lost came back, new sales still get numbers never given out.
    const later = await sell(back, productCode);
    expect(made).not.toContain(later);
    made.push(later);
    for (const d of [...desks, ...desks]) await syncOk(d);
    await expectConverged([back, ...desks].map(converging), made);
    // The desks follow the hub's new origin, and it lists them (no re-pairing).
    for (const d of desks) expect(d.engine.replica.catalogueOwner()).toBe(back.engine.replica.origin);
    const status = (await back.call('GET', '/v1/sync/status')).body;
    expect(status.seenBy.map((s: { instanceNo: number }) => s.instanceNo).sort()).toEqual([2, 3]);
  });

  it('a desk restored from an older backup gets its lost sales back from the hub and keeps syncing without re-pairing', async () => {
    const { hub, desks, deskDirs, productCode } = await setUp();
    const made = [await sell(desks[0], productCode), await sell(hub, productCode)];
    for (const d of desks) await syncOk(d);
    const backup = join(folder('backups'), 'desk.tdbackup');
    expect((await tourdesk('backup', backup, '--data-dir', deskDirs[0])).code).toBe(0);
    made.push(await sell(desks[0], productCode), await sell(desks[0], productCode), await sell(desks[1], productCode), await sell(hub, productCode));
    for (const d of desks) await syncOk(d);
    const before = new Set(orderNumbers(hub));

    const back = await restored(desks[0], 'desk2', 2, deskDirs[0], backup, 0);
    const fresh = await sell(back, productCode);
    expect(before.has(fresh)).toBe(false);
    made.push(fresh);
    for (const d of [back, desks[1], back, desks[1]]) await syncOk(d);
    await expectConverged([hub, back, desks[1]].map(converging), made);
  });
});
