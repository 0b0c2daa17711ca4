import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startPostgresCluster } from '../../test/fixtures/postgresCluster';
import { startServe, type RunningServer } from '../hubProcess';
import type { BenchRow } from '../types';
import { processCpuMs, processTreeCpuMs } from '../officeDay/cpu';

/** Where each server writes its write-turn counts on SIGUSR2 (db/postgres/writeTurn.ts). */
const turnFiles = new WeakMap<RunningServer, string>();

/** A real `tourdesk serve` process that counts how long its writes hold the hub-wide write turn. */
async function startCountingServe(args: string[], env: Record<string, string>, turnFile: string): Promise<RunningServer> {
  const server = await startServe(args, { ...env, TOURDESK_TURN_STATS_FILE: turnFile });
  turnFiles.set(server, turnFile);
  return server;
}

interface TurnCounts {
  /** Milliseconds held, and turns taken. */
  heldMs: number;
  turns: number;
}

/** How long a server's writes have held the hub-wide write turn so far, and how often (it writes them on SIGUSR2). */
async function turnCounts(server: RunningServer): Promise<TurnCounts> {
  const turnFile = turnFiles.get(server)!;
  const read = () => (existsSync(turnFile) ? (JSON.parse(readFileSync(turnFile, 'utf8')) as TurnCounts & { dumps: number }) : { heldMs: 0, turns: 0, dumps: 0 });
  const before = read().dumps;
  server.child.kill('SIGUSR2');
  for (let waited = 0; waited < 200; waited++) {
    const now = read();
    if (now.dumps > before) return now;
    await sleep(25);
  }
  throw new Error(`serve did not write its write-turn counts to ${turnFile}`);
}

/**
 * Statements the hub's database ran, counted by the server (pg_stat_statements, top-level statements
 * only: a trigger's are not round trips). Every statement a client sends is one round trip (pg sends
 * parse, bind and execute together), BEGIN and COMMIT included, but for the write turn's lock, sent
 * with BEGIN in one message. Read from another database of the cluster, so the counting itself is
 * not counted.
 */
async function statementCounter(adminUrl: string, database: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const ofDatabase = 'FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)';
  return {
    reset: async () => void (await admin.query('SELECT pg_stat_statements_reset()')),
    // The turn's LOCK TABLE travels in BEGIN's message (db/postgres/transaction.ts): a statement, not a round trip.
    count: async () => Number((await admin.query(`SELECT coalesce(sum(calls), 0) AS n ${ofDatabase} AND query NOT ILIKE 'lock table tourdesk_write_turn%'`, [database])).rows[0].n),
    /** Write transactions begun: a retried write begins again (the statement that failed is not counted). */
    begins: async () => Number((await admin.query(`SELECT coalesce(sum(calls), 0) AS n ${ofDatabase} AND query ILIKE 'begin%'`, [database])).rows[0].n),
    /** The statements by calls, for BENCH_HUB_STATEMENTS=1: where a booking's round trips go. */
    top: async (per: number) =>
      (await admin.query(`SELECT calls, total_exec_time, query ${ofDatabase} ORDER BY calls DESC LIMIT 40`, [database])).rows.map((r) => `${(Number(r.calls) / per).toFixed(2).padStart(6)} ${(Number(r.total_exec_time) / per).toFixed(2).padStart(8)} ms  ${String(r.query).replace(/\s+/g, ' ').slice(0, 160)}`).join('\n'),
    end: () => admin.end(),
  };
}

const BOOKINGS = Number(process.env.BENCH_HUB_BOOKINGS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_HUB_CLIENTS ?? 8);
const KEY = 'td_bench_hub_0123456789abcdefghijklmnopq';

/**
 * The office hub on PostgreSQL: POST /v1/bookings through one and through two real
 * `tourdesk serve --database` processes on one database (clients spread round-robin, as a load
 * balancer would), against the floor: the same rows inserted with raw `pg`, one transaction per
 * booking, at the same concurrency. A throwaway cluster with PostgreSQL's default durability
 * (fsync on), started for the run.
 */
export default async function (): Promise<BenchRow[]> {
  const cluster = await startPostgresCluster({ durable: true, settings: ["shared_preload_libraries = 'pg_stat_statements'", 'pg_stat_statements.track = top'] });
  const dirs: string[] = [];
  const servers: RunningServer[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tourdesk-bench-hub-'));
    dirs.push(dir);
    return dir;
  };
  try {
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE hub');
    await admin.end();
    const url = cluster.urlFor('hub');
    const statements = await statementCounter(cluster.adminUrl, 'hub');
    const env = { TOURDESK_API_KEY: KEY, TOURDESK_DATABASE_URL: '', TOURDESK_LOG: 'error' };
    const turnDir = dataDir();
    servers.push(await startCountingServe(['--database', url, '--data-dir', dataDir(), '--instance', '1'], env, join(turnDir, 'turn-1.json')));
    servers.push(await startCountingServe(['--database', url, '--data-dir', dataDir()], env, join(turnDir, 'turn-2.json')));
    const heldByAll = async () => (await Promise.all(servers.map(turnCounts))).reduce((a, b) => ({ heldMs: a.heldMs + b.heldMs, turns: a.turns + b.turns }), { heldMs: 0, turns: 0 });
    const post = async (server: RunningServer, path: string, body: unknown) => {
      const res = await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', apikey: KEY }, body: JSON.stringify(body) });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}\n${server.output().slice(-3000)}`);
      return (await res.json()) as any;
    };
    const product = (await post(servers[0], '/v1/products', { name: 'Bench Walk', durationMinutes: 120, priceOptions: [{ label: 'Adult', price: 50 }, { label: 'Child', price: 25 }] })).product;
    // One session per client (different sessions' writes do not collide) and one session all
    // clients book (every write collides with the others: they take turns).
    const day = 86_400_000;
    const startTimes = Array.from({ length: CONCURRENCY + 1 }, (_, i) => new Date(Math.floor(Date.now() / day) * day + (30 + i) * day).toISOString().replace(/\.\d+Z$/, 'Z'));
    for (const startTime of startTimes) await post(servers[0], '/v1/availability', { productCode: product.productCode, startTime, seats: 1_000_000 });
    const hot = startTimes[CONCURRENCY];
    const body = (startTime: string) => ({
      customer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.test' },
      items: [{ productCode: product.productCode, startTime, quantities: [{ optionLabel: 'Adult', value: 2 }, { optionLabel: 'Child', value: 1 }] }],
    });
    // Each run's time per booking inside the hub-wide turn, whichever process held it, and the turns
    // taken per booking (a create runs beside the others and takes the turn only on its third attempt).
    const turnMsPerBooking: number[] = [];
    const turnsPerBooking: number[] = [];
    // CPU per booking of the hub processes booked through and of PostgreSQL (every backend), each run.
    const postgresPid = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const cpuPerBooking: { hubMs: number; postgresMs: number }[] = [];
    const bookingsPerSecond = async (through: RunningServer[], oneSession: boolean) => {
      const heldBefore = await heldByAll();
      const hubCpuMs = () => through.reduce((sum, s) => sum + processCpuMs(s.child.pid!), 0);
      const cpuBefore = { hub: hubCpuMs(), postgres: processTreeCpuMs(postgresPid) };
      let sent = 0;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, worker) => {
          while (sent < BOOKINGS) {
            sent++;
            await post(through[worker % through.length], '/v1/bookings', body(oneSession ? hot : startTimes[worker]));
          }
        }),
      );
      const perSecond = BOOKINGS / ((performance.now() - start) / 1000);
      cpuPerBooking.push({
        hubMs: (hubCpuMs() - cpuBefore.hub) / BOOKINGS,
        postgresMs: (processTreeCpuMs(postgresPid) - cpuBefore.postgres) / BOOKINGS,
      });
      const heldAfter = await heldByAll();
      turnMsPerBooking.push((heldAfter.heldMs - heldBefore.heldMs) / BOOKINGS);
      turnsPerBooking.push((heldAfter.turns - heldBefore.turns) / BOOKINGS);
      return perSecond;
    };
    await bookingsPerSecond(servers, false); // warm-up: both processes' pools, statement plans, id leases
    await statements.reset();
    const spreadOne = await bookingsPerSecond(servers.slice(0, 1), false);
    const hubStatements = await statements.count();
    const hubTrips = hubStatements / BOOKINGS;
    const hubAttempts = await statements.begins();
    if (process.env.BENCH_HUB_STATEMENTS) process.stderr.write(`statements per booking, 1 hub process:\n${await statements.top(BOOKINGS)}\n`);
    const spreadTwo = await bookingsPerSecond(servers, false);
    // Taken on the two-process run (no seat collisions): the turn is held by one write at a time, so
    // the ceiling is never below the rate achieved. Creates run side by side: none takes it unless retried twice.
    const turnMs = turnMsPerBooking[2];
    const ceiling = turnMs > 0 ? `${Math.round(1000 / turnMs)} bookings/s` : 'none: no booking took the turn';
    const hotOne = await bookingsPerSecond(servers.slice(0, 1), true);
    const hotTwo = await bookingsPerSecond(servers, true);
    const startTime = hot;

    // The floor: the same five tables' rows, one transaction per booking, through a pg Pool.
    const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY });
    const sessionId = Number((await pool.query('SELECT id FROM sessions WHERE start_at = $1', [Date.parse(startTime)])).rows[0].id);
    const options = (await pool.query('SELECT id FROM price_options WHERE product_code = $1 ORDER BY position', [product.productCode])).rows.map((r) => Number(r.id));
    const startAt = Date.parse(startTime);
    let id = 9_000_000_000;
    let seq = 0;
    // The rows' ops as the hub stores them: one a row, the change a value array, every op but the last saying more follow.
    const opsOf = (rows: [string, number, unknown[]][]) => {
      const values: unknown[] = [];
      const tuples = rows.map(([entity, key, change], i) => {
        values.push(++seq, `${String(1_800_000_000_000 + seq).padStart(15, '0')}-000000-raw`, entity, `[${key}]`, JSON.stringify(change), i < rows.length - 1 ? 1 : null);
        const at = values.length - 5;
        return `('raw', $${at}, $${at + 1}, $${at + 2}, $${at + 3}, 'insert', $${at + 4}, 1, NULL, $${at + 5})`;
      });
      return { text: `INSERT INTO sync_ops (origin, seq, hlc, entity, entity_id, kind, change_json, schema, null_columns, write_continues) VALUES ${tuples.join(', ')}`, values };
    };
    /** Raw inserts of a booking's rows (and, `withOps`, their op-log rows in one more statement), one transaction each. */
    const rawBookings = async (withOps: boolean) => {
      let n = 0;
      const cpuBefore = processTreeCpuMs(postgresPid);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          const client = await pool.connect();
          try {
            while (n < BOOKINGS) {
              const order = `RAW-${withOps ? 'OPS-' : ''}${n++}`;
              const now = Date.now();
              const customerId = ++id;
              const bookingId = ++id;
              const itemId = ++id;
              await client.query('BEGIN');
              await client.query('INSERT INTO customers (id, first_name, last_name, email, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)', [customerId, 'Ada', 'Lovelace', 'ada@example.test', now, now]);
              await client.query("INSERT INTO bookings (order_number, id, status, customer_id, currency, total_amount_minor, created_at, updated_at) VALUES ($1, $2, 'CONFIRMED', $3, 'AUD', 12500, $4, $5)", [order, bookingId, customerId, now, now]);
              await client.query('INSERT INTO booking_items (id, order_number, position, product_code, session_id, start_at, end_at, amount_minor, subtotal_minor, total_quantity, seats_held) VALUES ($1, $2, 0, $3, $4, $5, $6, 12500, 12500, 3, 3)', [itemId, order, product.productCode, sessionId, startAt, startAt + 7_200_000]);
              await client.query('INSERT INTO booking_item_quantities (item_id, position, option_id, option_label, option_price_minor, value) VALUES ($1, 0, $2, $3, 5000, 2), ($1, 1, $4, $5, 2500, 1)', [itemId, options[0], 'Adult', options[1], 'Child']);
              const participants = [++id, ++id, ++id];
              for (const [p, participantId] of participants.entries()) await client.query("INSERT INTO participants (id, item_id, position, fields_json) VALUES ($1, $2, $3, '[]')", [participantId, itemId, p]);
              if (withOps) {
                const ops = opsOf([
                  ['customers', customerId, [customerId, 'Ada', null, 'Lovelace', 'ada@example.test', now, now]],
                  ['bookings', bookingId, [order, bookingId, 'CONFIRMED', customerId, 'AUD', 12500, now, now]],
                  ['booking_items', itemId, [itemId, order, 0, product.productCode, sessionId, startAt, startAt + 7_200_000, 12500, 12500, 3, 3]],
                  ['booking_item_quantities', itemId, [itemId, 0, options[0], 'Adult', 5000, 2]],
                  ['booking_item_quantities', itemId + 0.5, [itemId, 1, options[1], 'Child', 2500, 1]],
                  ...participants.map((pid, p): [string, number, unknown[]] => ['participants', pid, [pid, itemId, p, '[]']]),
                ]);
                await client.query(ops.text, ops.values);
              }
              await client.query('COMMIT');
            }
          } finally {
            client.release();
          }
        }),
      );
      return { perSecond: BOOKINGS / ((performance.now() - started) / 1000), postgresMs: (processTreeCpuMs(postgresPid) - cpuBefore) / BOOKINGS };
    };
    await statements.reset();
    const { perSecond: raw, postgresMs: rawPostgresMs } = await rawBookings(false);
    const rawTrips = (await statements.count()) / BOOKINGS;
    const { perSecond: rawWithOps } = await rawBookings(true);
    await pool.end();
    await statements.end();
    const baselineName = `raw pg inserts of the same rows, one transaction each, ${CONCURRENCY} clients`;
    const row = (name: string, subject: number): BenchRow => ({ name: `PostgreSQL hub: POST /v1/bookings, ${name}`, unit: 'bookings/s', subject: Math.round(subject), baseline: Math.round(raw), baselineName, higherIsBetter: true });
    return [
      row('1 hub process, a session per client', spreadOne),
      row('2 hub processes, a session per client', spreadTwo),
      row('1 hub process, all on one session', hotOne),
      row('2 hub processes, all on one session', hotTwo),
      // The goal is against the rows plus their op-log rows (the hub must write those too).
      { name: 'PostgreSQL hub: POST /v1/bookings, 1 hub process, a session per client, against raw inserts plus op-log rows', unit: 'bookings/s', subject: Math.round(spreadOne), baseline: Math.round(rawWithOps), baselineName: `raw pg inserts of the same rows and one op-log row each, one transaction each, ${CONCURRENCY} clients`, higherIsBetter: true, goal: 3 },
      // The section every hub write takes in turn: no number of processes gets past 1 / its time per booking.
      { name: `PostgreSQL hub: ms per booking inside the hub-wide write turn (hub ceiling ${ceiling})`, unit: 'ms', subject: turnMs, baseline: 1000 / spreadOne, baselineName: 'a whole booking through 1 hub process (1 / its bookings/s)', higherIsBetter: false, limit: 0.3 },
      ...(turnMs > 0 ? [{ name: 'PostgreSQL hub: hub ceiling bookings/s (1 / the ms above)', unit: 'bookings/s', subject: Math.round(1000 / turnMs), baseline: Math.round(spreadTwo), baselineName: 'bookings/s through 2 hub processes, a session per client', higherIsBetter: true }] : []),
      // All on one session, each create claims that session: the losers are retried, from the third attempt in the turn.
      { name: 'PostgreSQL hub: turns taken per booking, 2 processes all on one session (creates retried twice)', unit: 'turns', subject: turnsPerBooking[4], baseline: 1, baselineName: 'one a booking, as when every write took its turn', higherIsBetter: false },
      // Where a booking's time goes: the hub process's CPU (JavaScript runs on one core) against the time
      // a booking takes through it, and PostgreSQL's CPU (every backend) against the raw inserts'.
      { name: 'PostgreSQL hub: hub process CPU ms per booking, 1 hub process, a session per client', unit: 'ms', subject: cpuPerBooking[1].hubMs, baseline: 1000 / spreadOne, baselineName: 'a whole booking through 1 hub process (1 / its bookings/s)', higherIsBetter: false },
      { name: 'PostgreSQL hub: PostgreSQL CPU ms per booking, 1 hub process, a session per client', unit: 'ms', subject: cpuPerBooking[1].postgresMs, baseline: rawPostgresMs, baselineName: 'PostgreSQL CPU per booking of the raw pg inserts', higherIsBetter: false },
      // Counted on the first row's run (no collisions, so no retries): the goal is 8 at most.
      { name: 'PostgreSQL hub: round trips per write transaction begun (a retry begins again)', unit: 'round trips', subject: hubStatements / hubAttempts, baseline: rawTrips, baselineName: 'the raw pg inserts, counted the same way', higherIsBetter: false },
      { name: 'PostgreSQL hub: round trips to PostgreSQL per booking (1 process)', unit: 'round trips', subject: hubTrips, baseline: rawTrips, baselineName: 'the raw pg inserts, counted the same way', higherIsBetter: false, limit: 8 },
    ];
  } finally {
    for (const server of servers) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    cluster.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
