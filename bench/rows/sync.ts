import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { openDatabase } from '../../db/connection';
import { SYSTEM_ACTOR } from '../../main/domain/context';
import { createEngine, type Engine } from '../../main/engine';
import { createServer, LOOPBACK_NAMES } from '../../main/api/server';
import { exchangeWith } from '../../main/sync/exchange';
import { PAGE_LIMIT, PAGE_MAX_BYTES } from '../../main/contract/sync';
import { pullOps, WIRE_VALUES } from '../../main/sync/wire';
import type { LocalSide } from '../../main/sync/peers';
import { httpTransport } from '../../main/sync/peerClient';
import { advanceVector, type Vector } from '../../main/sync/vector';
import type { BenchRow } from '../types';
import { OP_LOG_COLUMNS, opLogFloor, pagesFloor, rawDatabase, TEXT_OP_LOG_DDL, type FloorOps, type FloorRows } from '../syncFloors';

const OPS = Number(process.env.BENCH_SYNC_OPS ?? 100_000);

const customer = (i: number) => ({
  id: i * 1000 + 1,
  first_name: `Guest${i}`,
  last_name: 'Traveller',
  email: `guest${i}@bench.example`,
  phone: `+61 400 ${String(i).padStart(6, '0')}`,
  city: 'Sydney',
  country_code: 'AU',
  created_at: 1_894_665_600_000 + i,
  updated_at: 1_894_665_600_000 + i,
});
const COLUMNS = Object.keys(customer(0));
const FLOOR_ROWS: FloorRows = { count: OPS, columns: COLUMNS, argsOf: (i) => Object.values(customer(i)) };

async function anEngine(dir: string, instanceNo: number): Promise<Engine> {
  const handle = await openDatabase(join(dir, 'tourdesk.sqlite'), { migrate: true });
  return createEngine({ db: handle, config: { dataDir: dir, instanceNo } });
}

interface HubReady {
  url: string;
  key: string;
  origin: string;
  ddl: { sql: string }[];
}

/**
 * The hub, in a worker thread of its own: in the field hub and desk are two machines, so the hub's
 * reading and serving of pages is not part of the desk's catch-up (it overlaps it, as the desk asks
 * for the next page while applying one). Writes the backlog, serves it, closes when told.
 */
async function serveHub(dir: string): Promise<void> {
  const hub = await anEngine(dir, 1);
  // The backlog: OPS customers written on the hub (each row one op: captured by the triggers, folded into ops by the write).
  await hub.companies.configure({ companyName: 'Bench Tours', alias: 'bench', currency: 'AUD', timezone: 'Australia/Sydney', locale: 'en_AU', email: 'b@bench.example' });
  const insert = hub.ctx.handle.sqlite.prepare(`INSERT INTO customers (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`);
  for (let start = 0; start < OPS; start += 10_000) {
    await hub.ctx.write(SYSTEM_ACTOR, async () => {
      for (let i = start; i < Math.min(OPS, start + 10_000); i++) insert.run(...Object.values(customer(i)));
    });
  }
  const { key } = await hub.apiKeys.create({ role: 'sync', name: 'bench desk' });
  const app = await createServer({ engine: hub, allowedHosts: LOOPBACK_NAMES });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // The table as the engine has it, indexes included: the baseline maintains them for every row too.
  const ddl = hub.ctx.handle.sqlite.prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'customers' AND type IN ('table', 'index') AND sql IS NOT NULL ORDER BY type DESC").all() as { sql: string }[];
  parentPort!.once('message', () => {
    void (async () => {
      await app.close();
      await hub.close();
      parentPort!.postMessage('closed');
    })();
  });
  parentPort!.postMessage({ url, key, origin: hub.replica.origin, ddl } satisfies HubReady);
}

if (!isMainThread && (workerData as { syncBenchHub?: string } | null)?.syncBenchHub) void serveHub((workerData as { syncBenchHub: string }).syncBenchHub);

/** Starts the hub's worker (this module again, through tsx, since workers do not inherit its loader). */
function startHub(dir: string): { worker: Worker; ready: Promise<HubReady>; close: () => Promise<void> } {
  const worker = new Worker(`import('tsx/esm/api').then((api) => api.tsImport(${JSON.stringify(import.meta.url)}, ${JSON.stringify(import.meta.url)}))`, { eval: true, workerData: { syncBenchHub: dir } });
  const ready = new Promise<HubReady>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const close = () =>
    new Promise<void>((resolve) => {
      worker.once('message', () => void worker.terminate().then(() => resolve()));
      worker.postMessage('close');
    });
  return { worker, ready, close };
}

/**
 * Catching up a 100,000-op backlog: a desk pulls every page from a hub over loopback HTTP (paged,
 * each page applied in one transaction with its ops, merge states and vector), against inserting
 * the same rows with raw better-sqlite3 into the same table, one transaction per page of the same
 * size, same pragmas. Also bytes on the wire per op.
 */
export default async function (): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-bench-sync-'));
  const rawDir = mkdtempSync(join(dir, 'r-'));
  const hubProcess = startHub(mkdtempSync(join(dir, 'h-')));
  const desk = await anEngine(mkdtempSync(join(dir, 'd-')), 2);
  let hubOpen = true;
  let deskOpen = true;
  try {
    const { url, key, origin, ddl } = await hubProcess.ready;
    await desk.replica.setHub(origin);
    // The desk's own share: the time inside its page applies (each one transaction, commit included).
    let applyNs = 0n;
    const apply: typeof desk.replica.apply = async (ops, hubAheadMs) => {
      const from = process.hrtime.bigint();
      const result = await desk.replica.apply(ops, hubAheadMs);
      applyNs += process.hrtime.bigint() - from;
      return result;
    };
    const side: LocalSide = { replica: { ...desk.replica, apply }, instanceNo: 2, now: () => Date.now(), knownInstances: () => ({}) };
    // Of the page applies: the new rows' and their ops' INSERT statements (the store's insertNewRows, a
    // call a run; on SQLite the page's store is this one), and the question which rows have a state.
    const storeNs = { insertNewRows: 0n, withRowState: 0n };
    const store = desk.replica.store as unknown as Record<keyof typeof storeNs, (...args: unknown[]) => unknown>;
    for (const name of Object.keys(storeNs) as (keyof typeof storeNs)[]) {
      const method = store[name];
      store[name] = (...args) => {
        const from = process.hrtime.bigint();
        try {
          return method(...args);
        } finally {
          storeNs[name] += process.hrtime.bigint() - from;
        }
      };
    }
    const counter = { sent: 0, received: 0 };
    const started = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    // The product's transport without its snapshot call: a desk this far behind that has no rows yet
    // would join from a snapshot; this row measures the op-by-op catch-up of a desk that has rows.
    const { pull, push } = httpTransport(url, key, { counter });
    const report = await exchangeWith(side, { pull, push });
    const syncSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    // CPU of the whole process (desk and hub threads): steadier than wall time on a shared machine.
    const cpu = process.cpuUsage(cpuBefore);
    const cpuPerOp = (cpu.user + cpu.system) / report.received;
    const transportPerSecond = await transportFloor(httpTransport(url, key), { origin: desk.replica.origin, instanceNo: 2 });
    await hubProcess.close();
    hubOpen = false;
    if (report.received < OPS) throw new Error(`caught up only ${report.received} of ${OPS} ops: ${JSON.stringify(report).slice(0, 500)}`);
    // The op log as the desk stored the catch-up (sync_op_rows, its table and indexes: the floor rows below insert these rows raw), and by name (the sync_ops view).
    const sqlite = desk.ctx.handle.sqlite;
    const opLogDdl = sqlite.prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'sync_op_rows' AND type IN ('table', 'index') AND sql IS NOT NULL ORDER BY type DESC").all() as { sql: string }[];
    const storedColumns = (sqlite.prepare("SELECT name FROM pragma_table_info('sync_op_rows') WHERE name <> 'arrival'").pluck().all() as string[]);
    const stored: FloorOps = { table: 'sync_op_rows', columns: storedColumns, ops: sqlite.prepare(`SELECT ${storedColumns.join(', ')} FROM sync_op_rows ORDER BY arrival`).raw(true).all() as unknown[][] };
    const byName: FloorOps = { table: 'sync_ops', columns: OP_LOG_COLUMNS, ops: sqlite.prepare(`SELECT ${OP_LOG_COLUMNS.join(', ')} FROM sync_ops WHERE origin = ? ORDER BY seq`).raw(true).all(origin) as unknown[][] };
    await desk.close();
    deskOpen = false;

    // Baseline: the same rows, raw better-sqlite3, same table definition and indexes, same pragmas, a transaction per page.
    const { db: raw, insertRow: rawInsert } = rawDatabase(join(rawDir, 'raw.sqlite'), ddl, FLOOR_ROWS);
    const page = raw.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) rawInsert.run(...Object.values(customer(i)));
    });
    const rawStarted = process.hrtime.bigint();
    const rawCpuBefore = process.cpuUsage();
    for (let start = 0; start < OPS; start += PAGE_LIMIT) page(start, Math.min(OPS, start + PAGE_LIMIT));
    const rawSeconds = Number(process.hrtime.bigint() - rawStarted) / 1e9;
    const rawCpu = process.cpuUsage(rawCpuBefore);
    raw.close();
    // The op-log floor, the same with each insert's change left out of its op (read from its row
    // until the row changes: issue 38), without the op rows' two indexes, and in the text layout the
    // numbers replaced; interleaved twice, the better of each, so none has the cache's favour.
    const byReference: FloorOps = { ...stored, ops: stored.ops.map((op) => op.map((value, i) => (['change_json', 'change_shape', 'null_columns'].includes(stored.columns[i]) ? null : value))) };
    const floors = { stored: 0, byReference: 0, unindexed: 0, text: 0 };
    for (let round = 0; round < 2; round++) {
      const floor = (name: keyof typeof floors, opLog: { sql: string }[], ops: FloorOps) => (floors[name] = Math.max(floors[name], opLogFloor(join(rawDir, `floor-${name}-${round}.sqlite`), [...ddl, ...opLog], FLOOR_ROWS, ops)));
      floor('stored', opLogDdl, stored);
      floor('byReference', opLogDdl, byReference);
      floor('unindexed', opLogDdl.filter((d) => !/^CREATE (UNIQUE )?INDEX/i.test(d.sql)), stored);
      floor('text', TEXT_OP_LOG_DDL, byName);
    }
    const floorPerSecond = floors.stored;
    const pagesPerSecond = pagesFloor(join(rawDir, 'floor-pages.sqlite'), ddl, FLOOR_ROWS, byName.ops);

    // The desk's thread does both floors' work, one after the other: receiving a page, then writing it.
    const floorsPerSecond = 1 / (1 / floorPerSecond + 1 / transportPerSecond);
    const opsPerSecond = report.received / syncSeconds;
    const rawPerSecond = OPS / rawSeconds;
    const bytesPerOp = (counter.sent + counter.received) / report.received;
    // A floor of the op log's rows with the transport's, as a ratio of the raw inserts (the goal's terms).
    const withTransport = (perSecond: number) => (1 / (1 / perSecond + 1 / transportPerSecond) / rawPerSecond).toFixed(3);
    process.stderr.write(`sync catch-up: ${report.received} ops in ${syncSeconds.toFixed(1)} s = ${opsPerSecond.toFixed(0)} ops/s; raw inserts ${rawPerSecond.toFixed(0)} rows/s; ratio ${(opsPerSecond / rawPerSecond).toFixed(3)}× (goal ≥ 0.3×; the floors alone ${(floorsPerSecond / rawPerSecond).toFixed(3)}×, in the text layout before migration 20261206_31 ${withTransport(floors.text)}×, with inserts by reference ${withTransport(floors.byReference)}×, without the op rows' two indexes ${withTransport(floors.unindexed)}×, with pages kept whole ${withTransport(pagesPerSecond)}×); ${bytesPerOp.toFixed(0)} bytes per op; the desk's page applies ${(Number(applyNs) / 1e3 / report.received).toFixed(1)} µs per op (their floor ${(1e6 / floorPerSecond).toFixed(1)}; of them the rows' and ops' inserts ${(Number(storeNs.insertNewRows) / 1e3 / report.received).toFixed(1)}, which rows have a state ${(Number(storeNs.withRowState) / 1e3 / report.received).toFixed(2)}); CPU ${cpuPerOp.toFixed(1)} µs per op (desk and hub threads) against ${((rawCpu.user + rawCpu.system) / OPS).toFixed(1)} µs per raw row\n`);
    return [
      { name: `sync: catch up ${OPS} ops over loopback`, unit: 'ops/s', subject: opsPerSecond, baseline: rawPerSecond, baselineName: 'raw better-sqlite3 inserts of the same rows, a transaction per page', higherIsBetter: true, goal: 3.3 },
      {
        name: 'sync catch-up floor: no HTTP, no parsing, no merge: the same raw inserts plus the op log rows as the desk stored them',
        unit: 'ops/s',
        subject: floorPerSecond,
        baseline: rawPerSecond,
        baselineName: 'the raw inserts alone, a transaction per page',
        higherIsBetter: true,
      },
      {
        name: "sync catch-up floor if an insert's change were read from its row: the raw inserts plus op log rows without their changes",
        unit: 'ops/s',
        subject: floors.byReference,
        baseline: rawPerSecond,
        baselineName: 'the raw inserts alone, a transaction per page',
        higherIsBetter: true,
      },
      {
        name: 'sync catch-up floor in the op log\'s text layout before migration 20261206_31 (origin, entity and key as text)',
        unit: 'ops/s',
        subject: floors.text,
        baseline: rawPerSecond,
        baselineName: 'the raw inserts alone, a transaction per page',
        higherIsBetter: true,
      },
      {
        name: 'sync catch-up floor if op rows had no index but their arrival (the bound of any work on the two indexes)',
        unit: 'ops/s',
        subject: floors.unindexed,
        baseline: rawPerSecond,
        baselineName: 'the raw inserts alone, a transaction per page',
        higherIsBetter: true,
      },
      {
        name: 'sync catch-up floor if a page of ops were kept whole: the raw inserts plus one row per page holding its ops as received',
        unit: 'ops/s',
        subject: pagesPerSecond,
        baseline: rawPerSecond,
        baselineName: 'the raw inserts alone, a transaction per page',
        higherIsBetter: true,
      },
      {
        name: 'sync catch-up transport floor: every page pulled over loopback and parsed, nothing applied (the desk thread\'s busy time)',
        unit: 'ops/s',
        subject: transportPerSecond,
        baseline: rawPerSecond,
        baselineName: 'the raw inserts alone, a transaction per page',
        higherIsBetter: true,
      },
      {
        name: 'sync catch-up: the two floors together (op log rows + transport), before any merge work',
        unit: 'ops/s',
        subject: floorsPerSecond,
        baseline: rawPerSecond,
        baselineName: 'the raw inserts alone, a transaction per page',
        higherIsBetter: true,
      },
      { name: 'sync: bytes on the wire per op (both ways)', unit: 'bytes/op', subject: bytesPerOp, baseline: JSON.stringify(customer(OPS)).length, baselineName: 'the row as compact JSON', higherIsBetter: false },
    ];
  } finally {
    if (hubOpen) await hubProcess.worker.terminate();
    if (deskOpen) await desk.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What receiving a catch-up costs the desk's thread before it writes anything: every page pulled
 * from the hub with the product's transport (compact values encoding) and turned into ops, the
 * vector advanced from each page to ask for the next, nothing applied. Measured as the desk
 * thread's busy time (event loop utilization), since the hub serving the next page in its own
 * thread overlaps it in the real catch-up. Ops per second of that busy time.
 */
async function transportFloor(transport: ReturnType<typeof httpTransport>, me: { origin: string; instanceNo: number }): Promise<number> {
  const hello = { ...me, schema: { min: 1, max: 999 } };
  let vector: Vector = {};
  let after: number | undefined;
  let ops = 0;
  const before = performance.eventLoopUtilization();
  for (;;) {
    const page = pullOps(await transport.pull({ ...hello, vector, limit: PAGE_LIMIT, maxBytes: PAGE_MAX_BYTES, after, wire: WIRE_VALUES }));
    vector = advanceVector(vector, page.ops);
    ops += page.ops.length;
    after = page.cursor;
    if (!page.hasMore) break;
  }
  const busyMs = performance.eventLoopUtilization(before).active;
  return ops / (busyMs / 1000);
}
