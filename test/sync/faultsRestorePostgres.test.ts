import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openDatabase } from '../../db/connection';
import { openPostgres } from '../../db/postgres/connection';
import { createReplica } from '../../main/sync/replica';
import { runCli } from '../fixtures/cli';
import { freshPostgresDatabase } from '../fixtures/postgres';
import { postgresBinDir } from '../fixtures/postgresCluster';
import { expectConverged, type Converging } from './nodes';
import { aFolder, aHubAndTwoDesks, api, cleanup, restart, restoreDeskThenSell, runCleanup, sell, stop, syncUntilClean, type Sale, type ServeNode } from './faultsServe';

/**
 * Restores in the middle of a partitioned workload with the hub on PostgreSQL (issue 38): a
 * `tourdesk serve --database` hub and two SQLite desks, real processes, the desks syncing with the
 * CLI through a proxy that resets every connection while sales, edits and check-ins go on at all
 * three. The hub is dumped with `pg_dump --format=custom` mid-partition and desk A backed up; the day
 * goes on, synced and then partitioned again; the hub dies (SIGKILL) and its database is put back
 * with `pg_restore --clean --if-exists`, desk A with `tourdesk restore`. After healing, every write a
 * surviving instance held is on all three, no order number or id twice, no desk paired again.
 */
afterAll(runCleanup);

const SESSION = `productCode=%s&startTimeLocal=${encodeURIComponent('2030-02-01 09:00:00')}`;

/** pg_dump / pg_restore of the test cluster's own version. */
function pgTool(tool: 'pg_dump' | 'pg_restore', args: string[]): void {
  execFileSync(join(postgresBinDir(), tool), args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env: { ...process.env, LC_ALL: 'C', LANG: 'C' } });
}

/** What the survivors hold beyond the sales: each edited booking's last reference, the bookings checked in. */
interface Held {
  sales: Sale[];
  references: Map<string, string>;
  checkedIn: Set<string>;
}

/** An edit the instance acknowledged; `held` when a survivor will hold it (null: only the restored instance did, and lost it). */
async function edit(node: ServeNode, held: Held | null, orderNumber: string, reference: string): Promise<void> {
  const answer = await api(node, 'PUT', `/v1/bookings/${orderNumber}`, { resellerReference: reference });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  held?.references.set(orderNumber, reference);
}

const checkinPath = (productCode: string, orderNumber: string) => `/v1/manifest/checkinOrderSession?orderNumber=${orderNumber}&${SESSION.replace('%s', productCode)}`;

async function checkIn(node: ServeNode, held: Held | null, productCode: string, orderNumber: string): Promise<void> {
  const answer = await api(node, 'PUT', checkinPath(productCode, orderNumber));
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  held?.checkedIn.add(orderNumber);
}

/** Whether each instance (running) has the order checked in. */
async function checkedInOn(nodes: ServeNode[], productCode: string, orderNumber: string): Promise<boolean[]> {
  return Promise.all(nodes.map(async (n) => (await api(n, 'GET', checkinPath(productCode, orderNumber))).body.checkin?.isCheckedIn as boolean));
}

/**
 * One round at every instance: a sale, an edit of one booking and a check-in of another (instance i
 * the i-th of each list, so no two instances race on one row); answers the round's sales.
 */
async function round(nodes: ServeNode[], held: Held, productCode: string, targets: { edit: string[]; checkIn: string[] }, tag: string): Promise<string[]> {
  const sold: string[] = [];
  for (const [i, n] of nodes.entries()) {
    const sale = await sell(n, productCode, i + 1);
    held.sales.push(sale);
    sold.push(sale.orderNumber);
    await edit(n, held, targets.edit[i], `${tag}-${n.instanceNo}`);
    await checkIn(n, held, productCode, targets.checkIn[i]);
  }
  return sold;
}

/** Every instance answers the survivors' edits and check-ins (through its API, while running). */
async function expectHeldEverywhere(nodes: ServeNode[], held: Held, productCode: string): Promise<void> {
  for (const n of nodes) {
    for (const [orderNumber, reference] of held.references) {
      const booking = await api(n, 'GET', `/v1/bookings/${orderNumber}`);
      expect(booking.body.booking?.resellerReference, `${orderNumber}'s reference on instance ${n.instanceNo}`).toBe(reference);
    }
  }
  for (const orderNumber of held.checkedIn) expect(await checkedInOn(nodes, productCode, orderNumber), `${orderNumber} checked in`).toEqual(nodes.map(() => true));
  // The manifest counts each participant once (a group checked in on two instances too): one per seat.
  const seatsOf = (sales: Sale[]) => sales.reduce((sum, s) => sum + s.seats, 0);
  const totals = { booked: seatsOf(held.sales), checkedIn: seatsOf(held.sales.filter((s) => held.checkedIn.has(s.orderNumber))) };
  for (const n of nodes) expect((await api(n, 'GET', `/v1/manifest?${SESSION.replace('%s', productCode)}`)).body.manifest?.totals, `the manifest on instance ${n.instanceNo}`).toMatchObject(totals);
}

/** The stopped instances' stores as expectConverged reads them: the hub's PostgreSQL database, the desks' SQLite files. */
async function storesOf(hubUrl: string, desks: ServeNode[]): Promise<{ all: Converging[]; close: () => Promise<void> }> {
  const hubHandle = await openPostgres(hubUrl);
  const hubReplica = createReplica(hubHandle, Date.now);
  const client = new pg.Client({ connectionString: hubUrl });
  await client.connect();
  const all: Converging[] = [{ name: 'hub', dump: () => hubReplica.canonicalDump(), column: async (query) => (await client.query(query)).rows.map((row) => Object.values(row)[0]) }];
  const closers: (() => Promise<void> | void)[] = [() => hubHandle.close(), () => client.end()];
  for (const desk of desks) {
    const file = join(desk.dir, 'tourdesk.sqlite');
    const handle = await openDatabase(file);
    const replica = createReplica(handle, Date.now);
    const sql = new Database(file, { readonly: true });
    all.push({ name: `desk ${desk.instanceNo}`, dump: () => replica.canonicalDump(), column: (query) => sql.prepare(query).pluck().all() });
    closers.push(() => handle.close(), () => void sql.close());
  }
  return { all, close: async () => void (await Promise.all(closers.map((c) => c()))) };
}

describe('restores in a partitioned workload, the hub on PostgreSQL', () => {
  it('a hub put back with pg_restore and a desk restored from its backup rejoin: nothing a survivor held is lost, no number re-issued, no re-pairing', { timeout: 300_000 }, async () => {
    const database = await freshPostgresDatabase('faultsrestore');
    cleanup.push(() => database.drop());
    const { hub, deskA, deskB, proxy, productCode } = await aHubAndTwoDesks(['--database', database.url]);
    const all = [hub, deskA, deskB];
    for (const desk of [deskA, deskB]) await syncUntilClean(desk);
    const held: Held = { sales: [], references: new Map(), checkedIn: new Set() };
    for (const n of all) held.sales.push(await sell(n, productCode));
    const morning = held.sales.map((s) => s.orderNumber);
    for (const desk of [deskA, deskB, deskA]) await syncUntilClean(desk);
    const ownerBefore = (await api(deskA, 'GET', '/v1/sync/status')).body.instance.catalogueOwner as string;

    // A partition: every connection reset; the three go on alone. Then the hub's dump and desk A's backup.
    proxy.onConnection = 'reset';
    const partitioned = await round(all, held, productCode, { edit: morning, checkIn: [morning[1], morning[2], morning[0]] }, 'P1');
    const copies = aFolder('copies');
    pgTool('pg_dump', ['--format=custom', `--file=${join(copies, 'hub.pgdump')}`, `--dbname=${database.url}`]);
    const backedUp = await runCli(['backup', join(copies, 'deskA.tdbackup'), '--data-dir', deskA.dir]);
    expect(backedUp.code, backedUp.out).toBe(0);

    // Healed for a while: the day's writes reach everyone, desk A's to desk B only as the hub's relay.
    proxy.onConnection = 'pass';
    for (const desk of [deskA, deskB, deskA]) await syncUntilClean(desk);
    const healed = await round(all, held, productCode, { edit: [morning[1], morning[2], morning[0]], checkIn: [partitioned[1], partitioned[2], partitioned[0]] }, 'H');
    for (const desk of [deskA, deskB, deskA, deskB]) await syncUntilClean(desk);

    // Partitioned again: what the hub and desk A make now no one else sees, and their restores lose it.
    proxy.onConnection = 'reset';
    const lost = [await sell(hub, productCode), await sell(deskA, productCode)];
    await edit(hub, null, morning[1], 'LOST-1');
    await edit(deskA, null, morning[2], 'LOST-2');
    for (const [i, n] of [hub, deskA].entries()) await checkIn(n, null, productCode, healed[i + 1]);
    held.sales.push(await sell(deskB, productCode, 3));
    await edit(deskB, held, morning[0], 'P2-3');
    await checkIn(deskB, held, productCode, healed[0]);
    const cut = await runCli(['sync', '--data-dir', deskB.dir]);
    expect(cut.code, cut.out).toBe(1);
    const given = new Set([...held.sales, ...lost].map((s) => s.orderNumber));

    // The hub: a power cut, its database put back from the dump, started again. Desk A: restored from its backup.
    await stop(hub, 'SIGKILL');
    pgTool('pg_restore', ['--clean', '--if-exists', '--no-owner', `--dbname=${database.url}`, join(copies, 'hub.pgdump')]);
    await restart(hub);
    expect(hub.server.output()).toMatch(/restored from a backup: it continues as a new incarnation/);
    proxy.target = hub.server.baseUrl;
    // Both sell before anyone heals: numbers never given out before.
    const fresh = await restoreDeskThenSell(deskA, join(copies, 'deskA.tdbackup'), 'SIGKILL', hub, productCode, given);
    held.sales.push(...fresh);
    // And the restored hub changes what it lost and a survivor holds: a group desk B checked in, a booking edited since.
    await checkIn(hub, held, productCode, morning[0]);
    await edit(hub, held, morning[1], 'AFTER-1');

    // Healed: the same pairings as before, only exchanges.
    proxy.onConnection = 'pass';
    for (const desk of [deskB, deskA, deskB, deskA]) await syncUntilClean(desk);
    await expectHeldEverywhere(all, held, productCode);
    // What only the restored ones held stays lost (the restores really went back): not checked in anywhere.
    for (const orderNumber of healed.slice(1)) expect(await checkedInOn(all, productCode, orderNumber), orderNumber).toEqual([false, false, false]);
    const hubStatus = (await api(hub, 'GET', '/v1/sync/status')).body;
    expect(hubStatus.seenBy.map((s: { instanceNo: number }) => s.instanceNo).sort()).toEqual([2, 3]);
    for (const desk of [deskA, deskB]) {
      const status = (await api(desk, 'GET', '/v1/sync/status')).body;
      // The hub's new incarnation: the desks follow it as the catalogue's owner, still through their one pairing.
      expect(status.instance.catalogueOwner).toBe(hubStatus.instance.catalogueOwner);
      expect(status.instance.catalogueOwner).not.toBe(ownerBefore);
      expect(status.peers).toHaveLength(1);
      expect(status.peers[0]).toMatchObject({ lastError: null, opsToSend: 0 });
    }

    for (const n of [deskA, deskB, hub]) await stop(n, 'SIGTERM');
    const stores = await storesOf(database.url, [deskA, deskB]);
    try {
      await expectConverged(stores.all, held.sales.map((s) => s.orderNumber));
      const seats = await stores.all[0].column('SELECT coalesce(sum(seats_held), 0) FROM booking_items');
      expect(Number(seats[0])).toBe(held.sales.reduce((sum, s) => sum + s.seats, 0));
    } finally {
      await stores.close();
    }
  });
});
