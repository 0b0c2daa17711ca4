import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, expect } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/connection';
import type { Dialect } from '../../db/dialect';
import { openPostgres } from '../../db/postgres/connection';
import { createEngine, type Engine } from '../../main/engine';
import { createServer, LOOPBACK_NAMES, type TourDeskServer } from '../../main/api/server';
import { exchangeWith, type PeerTransport } from '../../main/sync/exchange';
import { answerPull, answerPush, answerSnapshot } from '../../main/sync/serving';
import type { LocalSide } from '../../main/sync/peers';
import { fixedClock, TEST_COMPANY, testDialect } from '../fixtures/app';
import { freshPostgresDatabase } from '../fixtures/postgres';
import { earlierOrigins } from '../../db/queries/syncIncarnation';
import { followIncarnations } from '../../main/sync/incarnation';
import type { Hello } from '../../main/sync/wire';
import { postgresSyncSql } from '../fixtures/pgSync';
import { incarnateIfRestored } from '../../main/sync/incarnation';

/**
 * One instance for sync tests: a real engine on its own SQLite file, behind the real HTTP server.
 * Under the postgres vitest project (TOURDESK_TEST_DIALECT=postgres) a hub runs on PostgreSQL instead,
 * as TWO hub engines on one database (each with its own pool and caches, as two `tourdesk serve`
 * processes have): calls and sync answers alternate between them. Desks stay on SQLite.
 */
export interface SyncNode {
  name: string;
  dialect: Dialect;
  /** The first (on a PostgreSQL hub, one of two) engine. */
  engine: Engine;
  /** Synchronous SQL on the node's database (better-sqlite3's own, or test/fixtures/pgSync.ts on PostgreSQL). */
  sql: BetterSqlite3.Database;
  /** Makes every write of sync_vector fail (a throw at the end of applying a page) until the returned undo. */
  failVectorWrites(): () => void;
  app: TourDeskServer;
  dir: string;
  clock: ReturnType<typeof fixedClock>;
  key: string;
  side: LocalSide;
  call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }>;
  dump(): Promise<string>;
  close(): Promise<void>;
}

/** A hub (configured company) or a desk (no catalogue of its own, following `hub`). */
export async function aSyncNode(
  name: string,
  options: { instanceNo: number; hub?: SyncNode; clock?: ReturnType<typeof fixedClock>; dir?: string; dialect?: Dialect; /** A desk following a hub known only by its origin (a hub in other processes). */ follows?: string },
): Promise<SyncNode> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), `tourdesk-sync-${name}-`));
  const dialect = options.dialect ?? (options.hub || options.follows ? 'sqlite' : testDialect());
  const clock = options.clock ?? fixedClock('2030-01-15T00:00:00Z');
  const handles: DbHandle[] = [];
  let sql: BetterSqlite3.Database;
  let dropDatabase = async () => {};
  if (dialect === 'postgres') {
    const database = await freshPostgresDatabase('sync');
    handles.push(await openPostgres(database.url, { migrate: true }), await openPostgres(database.url, { migrate: true }));
    const pgSql = postgresSyncSql(database.url);
    sql = pgSql;
    dropDatabase = async () => {
      await pgSql.end();
      await database.drop();
    };
  } else {
    handles.push(await openDatabase(join(dir, 'tourdesk.sqlite'), { migrate: true }));
    sql = handles[0].sqlite;
  }
  // As boot does: a restored database takes a new incarnation before its engine reads the origin.
  for (const handle of handles) await incarnateIfRestored(handle, clock.now().getTime(), { folder: dir });
  const engines = handles.map((handle) => createEngine({ db: handle, clock, config: { dataDir: dir, instanceNo: options.instanceNo } }));
  const [engine] = engines;
  const hubOrigin = options.hub?.engine.replica.origin ?? options.follows;
  if (hubOrigin) await engine.replica.setHub(hubOrigin);
  else if (!(await engine.companies.supplierOrNull())) await engine.companies.configure(TEST_COMPANY);
  const { key } = await engine.apiKeys.create({ role: 'supplier', name: `${name} supplier` });
  const apps: TourDeskServer[] = [];
  for (const e of engines) {
    const app = await createServer({ engine: e, allowedHosts: LOOPBACK_NAMES });
    await app.ready();
    apps.push(app);
  }
  // A PostgreSQL hub's engines write under origins of their own, named in the hello and followed from it as the service does (main/sync/service.ts).
  const sides: LocalSide[] = engines.map((e, i) => {
    let earlier: string[] = [];
    const refresh = async () => void (earlier = await earlierOrigins(handles[i].db, e.replica.origin));
    const hub = { now: () => e.replica.store.hubOriginNow(), set: (origin: string) => e.replica.setHub(origin) };
    const recorded = new Set<string>();
    const onPeerHello = (hello: Hello) => followIncarnations(handles[i].db, hello, hub, clock.now().getTime(), recorded);
    return { replica: e.replica, instanceNo: options.instanceNo, now: () => clock.now().getTime(), knownInstances: () => ({}), earlierOrigins: () => earlier, beforeHello: refresh, onPeerHello };
  });
  let turn = 0;
  const next = () => turn++ % engines.length;
  return {
    name,
    dialect,
    engine,
    sql,
    app: apps[0],
    dir,
    clock,
    key,
    get side() {
      return sides[next()];
    },
    async call(method, url, body) {
      const response = await apps[next()].inject({ method: method as 'GET', url, headers: { host: '127.0.0.1', apikey: key }, ...(body === undefined ? {} : { payload: body as object }) });
      return { status: response.statusCode, body: response.json() };
    },
    dump: () => engines[next()].replica.canonicalDump(),
    failVectorWrites() {
      if (dialect === 'postgres') {
        sql.exec(`CREATE FUNCTION test_fail_apply() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`);
        sql.exec('CREATE TRIGGER test_fail_apply BEFORE INSERT OR UPDATE ON sync_vector FOR EACH ROW EXECUTE FUNCTION test_fail_apply()');
        return () => void sql.exec('DROP TRIGGER test_fail_apply ON sync_vector; DROP FUNCTION test_fail_apply()');
      }
      sql.exec(`CREATE TEMP TRIGGER fail_apply BEFORE UPDATE ON main.sync_vector BEGIN SELECT RAISE(ABORT, 'injected failure'); END;
                CREATE TEMP TRIGGER fail_apply_insert BEFORE INSERT ON main.sync_vector BEGIN SELECT RAISE(ABORT, 'injected failure'); END;`);
      return () => void sql.exec('DROP TRIGGER temp.fail_apply; DROP TRIGGER temp.fail_apply_insert;');
    },
    async close() {
      for (const app of apps) await app.close();
      for (const e of engines) await e.close();
      await dropDatabase();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A transport straight into another node's answer functions (no HTTP), with optional faults. */
export function directTransport(to: SyncNode, faults: { beforePull?: () => void; beforePush?: () => void; snapshots?: boolean } = {}): PeerTransport {
  return {
    ...(faults.snapshots === false ? {} : { snapshot: async (request) => JSON.parse(JSON.stringify(await answerSnapshot(to.side, request))) }),
    pull: async (request) => {
      faults.beforePull?.();
      return JSON.parse(JSON.stringify(await answerPull(to.side, request)));
    },
    push: async (request) => {
      faults.beforePush?.();
      return answerPush(to.side, JSON.parse(JSON.stringify(request)));
    },
  };
}

/** A full exchange from `from` with `to`. */
export function exchange(from: SyncNode, to: SyncNode) {
  return exchangeWith(from.side, directTransport(to));
}

/** `n` behind a real port on the loopback (0: any free one); its base URL and the port. */
export async function listen(n: SyncNode, port = 0): Promise<{ url: string; port: number }> {
  await n.app.listen({ port, host: '127.0.0.1' });
  const address = n.app.server.address();
  const bound = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${bound}`, port: bound };
}

/**
 * The nodes a test file opens, each closed after its test (call once, at the file's top): `node`
 * opens one (aSyncNode's arguments), `listening` opens one behind a real port (listen). `nodes` is
 * the list, for a test that closes one itself (a restore) and takes it out.
 */
export function nodesClosedAfterEach() {
  const nodes: SyncNode[] = [];
  afterEach(async () => {
    while (nodes.length) await nodes.pop()!.close();
  });
  const node = async (...args: Parameters<typeof aSyncNode>) => {
    const n = await aSyncNode(...args);
    nodes.push(n);
    return n;
  };
  const listening = async (name: string, options: Parameters<typeof aSyncNode>[1], port = 0) => {
    const n = await node(name, options);
    return { node: n, ...(await listen(n, port)) };
  };
  return { nodes, node, listening };
}

/** A sync run with every stored peer of `n`, each of which went through. */
export async function syncOk(n: SyncNode): Promise<void> {
  for (const r of await n.engine.sync.syncAll()) expect(r.error).toBeNull();
}

/** An instance as expectConverged reads it: its canonical dump and one column of a query. */
export interface Converging {
  name: string;
  dump(): Promise<string>;
  column(query: string): Promise<unknown[]> | unknown[];
}

export const converging = (n: SyncNode): Converging => ({ name: n.name, dump: () => n.dump(), column: (query) => n.sql.prepare(query).pluck().all() });

/** The tables whose ids come from the per-instance sequence: a restore must never give one out twice. */
const SEQUENCED = ['bookings', 'customers', 'booking_items', 'participants'];

/**
 * Every booking made anywhere (`made`, each order number once) is on every instance, once; no
 * instance holds an id twice; the instances' dumps agree.
 */
export async function expectConverged(all: Converging[], made: string[]): Promise<void> {
  const dumps = await Promise.all(all.map((n) => n.dump()));
  for (const [i, dump] of dumps.entries()) expect(dump, `${all[i].name} differs from ${all[0].name}`).toBe(dumps[0]);
  expect(new Set(made).size, 'an order number given out twice').toBe(made.length);
  const expected = [...made].sort();
  for (const n of all) {
    expect(((await n.column('SELECT order_number FROM bookings')) as string[]).sort(), `the bookings on ${n.name}`).toEqual(expected);
    for (const table of SEQUENCED) {
      const ids = await n.column(`SELECT id FROM ${table}`);
      expect(new Set(ids).size, `${table} ids on ${n.name}`).toBe(ids.length);
    }
  }
}
