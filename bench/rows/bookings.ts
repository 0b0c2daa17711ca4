import type BetterSqlite3 from 'better-sqlite3';
import Fastify from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../db/connection';
import { createEngine } from '../../main/engine';
import { createServer, LOOPBACK_NAMES } from '../../main/api/server';
import { SYSTEM_ACTOR } from '../../main/domain/context';
import type { BenchRow } from '../types';

const BOOKINGS = 600;
const CONCURRENCY = 8;

/**
 * POST /v1/bookings through the real server (HTTP, auth, validation, pricing, seat check, op log)
 * against the floor: the same rows (customer, booking, item, quantities, participants and the op
 * log entry) inserted with raw better-sqlite3 on the same file and connection (WAL,
 * synchronous=FULL, the same sync-capture triggers), one IMMEDIATE transaction per booking.
 * Three trend rows follow, floors for the goal: HTTP and fastify with only the baseline's inserts
 * (a transaction each, and grouped as the engine groups them), and the baseline's inserts plus the
 * sync ops the API stores for a booking (the sync issue's op log, in the write's transaction).
 */
export default async function (): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-bench-bookings-'));
  try {
    // Opened as `tourdesk serve` opens it (WAL checkpoints on a background thread); the raw baseline uses the same connection.
    const handle = await openDatabase(join(dir, 'tourdesk.sqlite'), { migrate: true, checkpointInBackground: true });
    const engine = createEngine({ db: handle, config: { dataDir: dir, instanceNo: 1 } });
    await engine.companies.configure({ companyName: 'Bench Tours', alias: 'bench', currency: 'AUD', timezone: 'Australia/Sydney', locale: 'en_AU' });
    const product = await engine.products.create({ name: 'Bench Walk', priceOptions: [{ label: 'Adult', price: 50 }, { label: 'Child', price: 25 }] }, SYSTEM_ACTOR);
    const startAt = Date.now() + 30 * 86_400_000;
    const sessionId = 9_999_001;
    handle.sqlite.prepare('INSERT INTO sessions (id, product_code, start_at, end_at, all_day, seats, created_at, updated_at) VALUES (?, ?, ?, ?, 0, 1000000, 0, 0)').run(sessionId, product.productCode, startAt, startAt + 7_200_000);
    const { key } = await engine.apiKeys.create({ role: 'supplier', name: 'bench' });
    const app = await createServer({ engine, allowedHosts: LOOPBACK_NAMES });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1/bookings`;
    const body = JSON.stringify({
      customer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.test' },
      items: [{ productCode: product.productCode, startTime: new Date(startAt).toISOString(), quantities: [{ optionLabel: 'Adult', value: 2 }, { optionLabel: 'Child', value: 1 }] }],
    });

    // The client is node:http on kept-alive sockets: it runs in this process, so a heavier client
    // (fetch/undici costs several times more per request) would be counted against the server.
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), apikey: key };
    /** Bookings per second POSTing BOOKINGS bookings to `target`, CONCURRENCY at a time. */
    const drive = async (target: string): Promise<number> => {
      const post = () =>
        new Promise<void>((resolve, reject) => {
          const req = request(target, { method: 'POST', agent, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`booking failed: ${res.statusCode} ${Buffer.concat(chunks).toString()}`))));
          });
          req.on('error', reject);
          req.end(body);
        });
      let sent = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (sent < BOOKINGS) {
            sent++;
            await post();
          }
        }),
      );
      return BOOKINGS / ((performance.now() - started) / 1000);
    };
    const apiPerSecond = await drive(url);
    await app.close();

    const sqlite = handle.sqlite;
    const insert = {
      customer: sqlite.prepare('INSERT INTO customers (id, first_name, last_name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)'),
      booking: sqlite.prepare("INSERT INTO bookings (order_number, id, status, customer_id, currency, total_amount_minor, created_at, updated_at) VALUES (?, ?, 'CONFIRMED', ?, 'AUD', 12500, ?, ?)"),
      item: sqlite.prepare('INSERT INTO booking_items (id, order_number, position, product_code, session_id, start_at, end_at, amount_minor, subtotal_minor, total_quantity, seats_held) VALUES (?, ?, 0, ?, ?, ?, ?, 12500, 12500, 3, 3)'),
      quantity: sqlite.prepare('INSERT INTO booking_item_quantities (item_id, position, option_id, option_label, option_price_minor, value) VALUES (?, ?, ?, ?, ?, ?)'),
      participant: sqlite.prepare("INSERT INTO participants (id, item_id, position, fields_json) VALUES (?, ?, ?, '[]')"),
      // The booking's entry in the op log, written in the same transaction as the API does.
      op: sqlite.prepare("INSERT INTO op_log (op_id, at, actor, entity, entity_id, action, payload_json) VALUES (?, ?, 'supplier:1', 'booking', ?, 'create', ?)"),
    };
    let id = 50_000_000;
    let orders = 0;
    /** The rows of one booking, as the API writes them, without anything the API decides or checks. */
    const rows = (payload: string): string => {
      const now = Date.now();
      const customerId = ++id;
      const order = `B1-${++orders}`;
      insert.customer.run(customerId, 'Ada', 'Lovelace', 'ada@example.test', now, now);
      insert.booking.run(order, ++id, customerId, now, now);
      const itemId = ++id;
      insert.item.run(itemId, order, product.productCode, sessionId, startAt, startAt + 7_200_000);
      insert.quantity.run(itemId, 0, product.priceOptions[0].id, 'Adult', 5000, 2);
      insert.quantity.run(itemId, 1, product.priceOptions[1].id, 'Child', 2500, 1);
      for (let p = 0; p < 3; p++) insert.participant.run(++id, itemId, p);
      insert.op.run(`1:${++id}`, now, order, payload);
      return order;
    };
    const one = sqlite.transaction(rows);
    const rawStart = performance.now();
    for (let n = 0; n < BOOKINGS; n++) one.immediate(body);
    const rawPerSecond = BOOKINGS / ((performance.now() - rawStart) / 1000);

    const floors = await floorsOf(sqlite, rows, drive);
    const withSync = syncRowsOf(sqlite, rows);
    const withSyncOps = perSecond(sqlite.transaction(() => withSync(body)));
    // The same storage as the engine keeps for a booking, over HTTP and grouped as the engine groups:
    // what is left between this and the API row is the engine's own work (auth, validation, rules, fold, answer).
    const syncGrouped = (await floorsOf(sqlite, withSync, drive, { each: false })).grouped;
    agent.destroy();
    await engine.close();
    const floorRow = (what: string, perSecond: number): BenchRow => ({
      name: `POST /v1/bookings floor: fastify, the JSON body and the baseline's inserts only, ${what}`,
      unit: 'bookings/s',
      subject: Math.round(perSecond),
      baseline: Math.round(rawPerSecond),
      baselineName: 'the same raw inserts, one transaction each',
      higherIsBetter: true,
    });
    return [
      { name: 'POST /v1/bookings (3 participants)', unit: 'bookings/s', subject: Math.round(apiPerSecond), baseline: Math.round(rawPerSecond), baselineName: 'raw better-sqlite3 inserts of the same rows + op log, one transaction each', higherIsBetter: true, goal: 3 },
      floorRow('one transaction each', floors.each),
      floorRow("a loop turn's bookings under one COMMIT", floors.grouped),
      {
        name: 'POST /v1/bookings floor: no HTTP, the raw inserts plus the sync ops and journal entries the API stores for a booking',
        unit: 'bookings/s',
        subject: Math.round(withSyncOps),
        baseline: Math.round(rawPerSecond),
        baselineName: 'the same raw inserts without them, one transaction each',
        higherIsBetter: true,
      },
      {
        name: "POST /v1/bookings floor: fastify, the JSON body, the raw inserts plus a booking's sync ops and journal entries, a loop turn's bookings under one COMMIT",
        unit: 'bookings/s',
        subject: Math.round(syncGrouped),
        baseline: Math.round(rawPerSecond),
        baselineName: 'the raw inserts without them, one transaction each',
        higherIsBetter: true,
      },
      {
        name: "POST /v1/bookings against the floor above (the engine's work beyond HTTP and storage)",
        unit: 'bookings/s',
        subject: Math.round(apiPerSecond),
        baseline: Math.round(syncGrouped),
        baselineName: 'the floor above',
        higherIsBetter: true,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What HTTP and the framework alone cost the bookings row: a bare fastify route that parses the same
 * body and writes only the baseline's rows (no auth, validation, pricing, seat check, sync ops or
 * answer read), driven by the same client. Once with a transaction per booking, once with the
 * bookings of one loop turn sharing a COMMIT (each in its own savepoint, answered after the COMMIT),
 * as the engine groups them. These floors are trend rows: they say how much of the row's goal is
 * left for the work the API must do beyond them.
 */
async function floorsOf(
  sqlite: BetterSqlite3.Database,
  rows: (payload: string) => string,
  drive: (url: string) => Promise<number>,
  { each = true } = {},
): Promise<{ each: number; grouped: number }> {
  const one = sqlite.transaction(rows);
  const savepoint = sqlite.prepare('SAVEPOINT booking');
  const release = sqlite.prepare('RELEASE booking');
  const rollbackTo = sqlite.prepare('ROLLBACK TO booking');
  let waiting: (() => void)[] | null = null;
  const commit = () => {
    const group = waiting ?? [];
    waiting = null;
    sqlite.exec('COMMIT');
    for (const answer of group) answer();
  };
  const inGroup = (payload: string): Promise<string> => {
    if (!waiting) {
      sqlite.exec('BEGIN IMMEDIATE');
      waiting = [];
      setImmediate(commit);
    }
    savepoint.run();
    let order: string;
    try {
      order = rows(payload);
      release.run();
    } catch (error) {
      rollbackTo.run();
      release.run();
      throw error;
    }
    const group = waiting;
    return new Promise((resolve) => group.push(() => resolve(order)));
  };
  const measure = async (grouped: boolean): Promise<number> => {
    const app = Fastify();
    app.post('/v1/bookings', async (req) => {
      const payload = JSON.stringify(req.body);
      return { booking: { orderNumber: grouped ? await inGroup(payload) : one.immediate(payload) } };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      return await drive(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/v1/bookings`);
    } finally {
      await app.close();
    }
  };
  return { each: each ? await measure(false) : NaN, grouped: await measure(true) };
}

/**
 * The storage the sync issue adds to a booking, with nothing else: the baseline's raw inserts plus,
 * in the same transaction, the sync ops the API stored for the last booking it took (8 for this
 * booking: customer, booking, item, 2 quantities, 3 participants) and the customer's journal entry,
 * each op under a fresh sequence number. Answers the row writer (the caller's transaction around it).
 */
function syncRowsOf(sqlite: BetterSqlite3.Database, rows: (payload: string) => string): (payload: string) => string {
  // As the store writes them (sync_op_rows, keyed by numbers: migration 20261206_31).
  type Stored = { origin: number; hlc: string; entity: number; k1: number; k2: number; key: string; kind: string; change_json: string | null; schema: number; null_columns: number | null; write_continues: number | null; change_shape: number | null; row_state: number | null };
  const last = sqlite.prepare<[], Stored & { arrival: number }>('SELECT * FROM sync_op_rows ORDER BY arrival DESC LIMIT 64').all();
  // The last write's ops: back from the newest op to the one before the previous write's last (write_continues unset).
  const write: Stored[] = [last[0]];
  for (const op of last.slice(1)) {
    if (op.write_continues !== 1) break;
    write.unshift(op);
  }
  let seq = (sqlite.prepare<[], { seq: number }>('SELECT max(seq) AS seq FROM sync_op_rows').get()?.seq ?? 0) + 1_000_000;
  const op = sqlite.prepare(
    'INSERT INTO sync_op_rows (origin, seq, hlc, entity, k1, k2, key, kind, change_json, schema, null_columns, write_continues, change_shape, row_state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const journal = sqlite.prepare("INSERT INTO op_log (op_id, at, actor, entity, entity_id, action, payload_json) VALUES (?, ?, 'supplier:1', 'customer', ?, 'create', ?)");
  return (payload) => {
    const order = rows(payload);
    journal.run(`1:c${seq}`, Date.now(), order, payload);
    for (const o of write) op.run(o.origin, ++seq, o.hlc, o.entity, o.k1, o.k2, o.key, o.kind, o.change_json, o.schema, o.null_columns, o.write_continues, o.change_shape, o.row_state);
    return order;
  };
}

/** Bookings per second of BOOKINGS calls of `one` (each its own IMMEDIATE transaction). */
function perSecond(one: BetterSqlite3.Transaction<() => void>): number {
  const started = performance.now();
  for (let n = 0; n < BOOKINGS; n++) one.immediate();
  return BOOKINGS / ((performance.now() - started) / 1000);
}
