import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { bootEngine } from '../../main/boot';
import type { Engine } from '../../main/engine';
import { createServer, LOOPBACK_NAMES, type TourDeskServer } from '../../main/api/server';
import { aBooking, aProduct, aSession } from '../fixtures/builders';
import { fixedClock } from '../fixtures/app';
import { freshPostgresDatabase, type TestPostgresDatabase } from '../fixtures/postgres';
import { postgresBinDir } from '../fixtures/postgresCluster';
import { aSyncNode, converging, expectConverged, syncOk, type SyncNode } from '../sync/nodes';

/**
 * Restores that rejoin on a PostgreSQL hub (docs/sync.md): the hub's database dumped with
 * `pg_dump --format=custom` mid-workload and put back with `pg_restore --clean --if-exists` into the
 * same database while the hub is down. Reopened through `bootEngine` (what `tourdesk serve --database`
 * runs), it notices the restore by sync_instance's new oid, takes a new incarnation, and gets back
 * from its two SQLite desks what it lost, without re-issuing an id or order number.
 */
const KEY = 'td_pgrestoretest_0123456789abcdefghijk';
const PRODUCT_START = '2030-06-01T09:00:00+10:00';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface Hub {
  engine: Engine;
  app: TourDeskServer;
  port: number;
  said: string[];
  call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** The hub as `tourdesk serve --database` opens it (bootEngine, restore check included), listening on `port` (0: any). */
async function openHub(database: TestPostgresDatabase, dataDir: string, port = 0): Promise<Hub> {
  const said: string[] = [];
  const { engine } = await bootEngine({ dataDir, database: database.url, instanceNo: 1, apiKey: KEY, companyName: 'Test Tours', currency: 'AUD', timezone: 'Australia/Sydney', say: (line) => said.push(line) });
  const app = await createServer({ engine, allowedHosts: LOOPBACK_NAMES });
  await app.listen({ port, host: '127.0.0.1' });
  const address = app.server.address();
  let open = true;
  const hub: Hub = {
    engine,
    app,
    port: typeof address === 'object' && address ? address.port : 0,
    said,
    async call(method, url, body) {
      const response = await app.inject({ method: method as 'GET', url, headers: { host: '127.0.0.1', apikey: KEY }, ...(body === undefined ? {} : { payload: body as object }) });
      return { status: response.statusCode, body: response.json() };
    },
    async close() {
      if (!open) return;
      open = false;
      await app.close();
      await engine.close();
    },
  };
  cleanups.push(() => hub.close());
  return hub;
}

/** pg_dump / pg_restore of the cluster's own version (the fixture's binaries), run against the test database's URL. */
function pgTool(tool: 'pg_dump' | 'pg_restore', args: string[]): void {
  execFileSync(join(postgresBinDir(), tool), args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env: { ...process.env, LC_ALL: 'C', LANG: 'C' } });
}

async function hubRows<T>(database: TestPostgresDatabase, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(text)).rows.map((row) => Object.values(row)[0] as T);
  } finally {
    await client.end();
  }
}

async function sell(n: Pick<Hub, 'call'>, productCode: string): Promise<string> {
  const answer = await n.call('POST', '/v1/bookings', aBooking(productCode, PRODUCT_START, [{ optionLabel: 'Adult', value: 1 }]));
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.booking.orderNumber as string;
}

async function setUp() {
  const database = await freshPostgresDatabase('restore');
  const folder = (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), `tourdesk-pgrestore-${name}-`));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  cleanups.push(() => database.drop());
  const hubDir = folder('hub');
  const hub = await openHub(database, hubDir);
  const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
  expect((await hub.call('POST', '/v1/availability', aSession(product.productCode, { seats: 500, startTimeLocal: '2030-06-01 09:00:00' }))).status).toBe(200);
  const desks: SyncNode[] = [];
  for (const i of [2, 3]) {
    // The hub runs on the machine's clock (bootEngine): the desks' clocks must not run ahead of it.
    const desk = await aSyncNode(`desk${i}`, { instanceNo: i, dialect: 'sqlite', follows: hub.engine.replica.origin, clock: fixedClock(new Date(Date.now() - 60_000).toISOString()) });
    cleanups.push(() => desk.close());
    await desk.engine.sync.addPeer(`http://127.0.0.1:${hub.port}`, KEY);
    await syncOk(desk);
    desks.push(desk);
  }
  return { database, hub, hubDir, twinDir: folder('twin'), desks, backupDir: folder('backups'), productCode: product.productCode as string };
}

describe('a PostgreSQL hub restored with pg_dump and pg_restore rejoins', () => {
  it('notices the restore at boot, issues fresh numbers, gets back what it lost from its desks, and all three converge', async () => {
    const { database, hub, hubDir, twinDir, desks, backupDir, productCode } = await setUp();
    // A second hub process writes under an origin of its own (migration 20261207_21), before the dump and after it.
    const second = await openHub(database, twinDir);
    const made = [await sell(hub, productCode), await sell(second, productCode), await sell(desks[0], productCode), await sell(desks[1], productCode)];
    for (const d of desks) await syncOk(d);
    const backup = join(backupDir, 'hub.pgdump');
    pgTool('pg_dump', ['--format=custom', `--file=${backup}`, `--dbname=${database.url}`]);
    // After the dump: sales everywhere, synced (the desks hold the hub's, the hub acknowledged theirs, relays too).
    made.push(await sell(hub, productCode), await sell(second, productCode), await sell(hub, productCode), await sell(desks[0], productCode), await sell(desks[1], productCode));
    for (const d of [...desks, desks[0]]) await syncOk(d);
    // And a desk sale the hub never saw.
    made.push(await sell(desks[1], productCode));
    const given = new Set([...made]);
    const oldOrigin = hub.engine.replica.origin;
    const oldOid = (await hubRows<string>(database, `SELECT 'sync_instance'::regclass::oid::text`))[0];

    // One origin per connection that wrote (migration 20261207_21): at least the hub's own and the second process's.
    const oldOrigins = await hubRows<string>(database, 'SELECT origin FROM hub_origins');
    expect(oldOrigins.length).toBeGreaterThanOrEqual(2);
    expect(oldOrigins).toContain(oldOrigin);
    await hub.close();
    await second.close();
    pgTool('pg_restore', ['--clean', '--if-exists', '--no-owner', `--dbname=${database.url}`, backup]);
    // The restore really put the older database back: the hub's later sales are gone, the table is new.
    expect(await hubRows<string>(database, 'SELECT order_number FROM bookings')).toHaveLength(4);
    expect((await hubRows<string>(database, `SELECT 'sync_instance'::regclass::oid::text`))[0]).not.toBe(oldOid);

    // Two hub processes start on the restored database at once: one takes the new incarnation, and
    // both go on under it (the other must not keep the origin it read when it opened).
    const [back, twin] = await Promise.all([openHub(database, hubDir, hub.port), openHub(database, twinDir)]);
    expect(back.engine.replica.origin).not.toBe(oldOrigin);
    expect(twin.engine.replica.origin).toBe(back.engine.replica.origin);
    expect([...back.said, ...twin.said].filter((line) => line.includes('restored from a backup'))).toHaveLength(1);
    // Every origin a process wrote under before is retired with the hub's own: an earlier self of the new one, never numbered again.
    const earlier = await hubRows<string>(database, `SELECT origin FROM sync_incarnations WHERE successor = '${back.engine.replica.origin}'`);
    for (const origin of oldOrigins) expect(earlier).toContain(origin);
    // The restored hub sells before any desk came back: fresh numbers, none given out before.
    const fresh = [await sell(back, productCode), await sell(twin, productCode)];
    for (const number of fresh) expect(given.has(number)).toBe(false);
    for (const origin of await hubRows<string>(database, 'SELECT origin FROM hub_origins')) expect(oldOrigins).not.toContain(origin);
    made.push(...fresh);

    for (const d of [...desks, ...desks]) await syncOk(d);
    // After what it lost came back, new sales still get numbers never given out.
    const later = await sell(back, productCode);
    expect(made).not.toContain(later);
    made.push(later);
    for (const d of [...desks, ...desks]) await syncOk(d);
    await expectConverged([{ name: 'hub', dump: () => back.engine.replica.canonicalDump(), column: (query) => hubRows(database, query) }, ...desks.map(converging)], made);
    // The desks follow the hub's new origin, and it lists them (no re-pairing).
    for (const d of desks) expect(d.engine.replica.catalogueOwner()).toBe(back.engine.replica.origin);
    const status = (await back.call('GET', '/v1/sync/status')).body;
    expect(status.seenBy.map((s: { instanceNo: number }) => s.instanceNo).sort()).toEqual([2, 3]);
    // A second boot of the restored hub is not a restore again.
    await back.close();
    await twin.close();
    const again = await openHub(database, hubDir, hub.port);
    expect(again.engine.replica.origin).toBe(back.engine.replica.origin);
  });
});
