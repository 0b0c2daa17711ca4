import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../db/connection';
import { createEngine } from '../../main/engine';
import { createServer, LOOPBACK_NAMES } from '../../main/api/server';
import { SYSTEM_ACTOR } from '../../main/domain/context';
import { LIVE_STATUSES } from '../../main/domain/statuses';
import { aProduct } from '../../test/fixtures/builders';
import type { BenchRow } from '../types';

const DAYS = 90;
const PRODUCTS = 10;
const SECONDS = 3;

/** Calls `run` back to back for `seconds` (after a short warm-up); answers calls per second. */
async function perSecond(run: () => unknown, seconds: number): Promise<number> {
  const warmUntil = performance.now() + 300;
  while (performance.now() < warmUntil) await run();
  let calls = 0;
  const start = performance.now();
  const until = start + seconds * 1000;
  while (performance.now() < until) {
    await run();
    calls++;
  }
  return calls / ((performance.now() - start) / 1000);
}

/**
 * GET /v1/availability for 10 products over 90 days (~3,150 sessions stored) through the real
 * server (fastify inject: routing, key check, zod, domain, mapping, JSON), against the same
 * search as one raw better-sqlite3 statement (sessions in range with held seats, first page).
 */
export default async function (): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-bench-availability-'));
  try {
    const handle = await openDatabase(join(dir, 'tourdesk.sqlite'), { migrate: true });
    const engine = createEngine({ db: handle, config: { dataDir: dir, instanceNo: 1 } });
    await engine.companies.configure({ companyName: 'Bench Tours', currency: 'AUD', timezone: 'Australia/Sydney' });
    const { key } = await engine.apiKeys.create({ role: 'supplier', name: 'bench' });
    const codes: string[] = [];
    for (let i = 0; i < PRODUCTS; i++) codes.push((await engine.products.create(aProduct({ name: `Bench tour ${i}` }), SYSTEM_ACTOR)).productCode);
    const times = ['08:00:00', '11:00:00', '14:00:00', '17:00:00'];
    const sessions = codes.flatMap((productCode, i) =>
      Array.from({ length: DAYS }, (_, day) => new Date(Date.UTC(2030, 0, 1 + day)).toISOString().slice(0, 10)).flatMap((date) =>
        times.slice(0, i % 2 ? 3 : 4).map((time) => ({ productCode, startTimeLocal: `${date} ${time}`, seats: 30 })),
      ),
    );
    await engine.availability.createBatch(sessions, SYSTEM_ACTOR);
    const app = await createServer({ engine, allowedHosts: LOOPBACK_NAMES });
    await app.ready();

    const url = `/v1/availability?${codes.map((c) => `productCode=${c}`).join('&')}&startTime=2030-01-01&endTime=2030-03-31`;
    const probe = await app.inject({ method: 'GET', url, headers: { host: '127.0.0.1', apikey: key } });
    if (probe.statusCode !== 200 || probe.json().sessions.length !== 100) throw new Error(`bench query failed: ${probe.statusCode} ${probe.body.slice(0, 200)}`);
    const viaApi = await perSecond(() => app.inject({ method: 'GET', url, headers: { host: '127.0.0.1', apikey: key } }), SECONDS);

    const lower = Date.parse('2029-12-31T13:00:00Z');
    const upper = Date.parse('2030-03-31T13:00:00Z') - 1;
    const marks = codes.map(() => '?').join(',');
    const live = LIVE_STATUSES.map((s) => `'${s}'`).join(',');
    const statement = handle.sqlite.prepare(
      `SELECT s.*, s.seats - coalesce((SELECT sum(bi.seats_held) FROM booking_items bi JOIN bookings b ON b.order_number = bi.order_number
         WHERE bi.session_id = s.id AND b.status IN (${live})), 0) AS seats_available
       FROM sessions s WHERE s.product_code IN (${marks}) AND s.start_at >= ? AND s.start_at <= ? ORDER BY s.start_at, s.product_code, s.id LIMIT 100`,
    );
    const options = handle.sqlite.prepare(`SELECT * FROM price_options WHERE product_code IN (${marks}) ORDER BY position`);
    const direct = await perSecond(() => {
      statement.all(...codes, lower, upper);
      options.all(...codes);
    }, SECONDS);

    // The first search after any write (a desk's first search after a booking) finds no cached
    // answer: a rolled-back write before each call moves the change token (no fsync, so it costs
    // next to nothing), and the baseline makes the same write before its statements.
    const touch = handle.sqlite.prepare('UPDATE sessions SET seats = seats WHERE id = (SELECT min(id) FROM sessions)');
    const begin = handle.sqlite.prepare('BEGIN');
    const rollback = handle.sqlite.prepare('ROLLBACK');
    const writeAndUndo = () => {
      begin.run();
      touch.run();
      rollback.run();
    };
    const viaApiAfterWrite = await perSecond(() => {
      writeAndUndo();
      return app.inject({ method: 'GET', url, headers: { host: '127.0.0.1', apikey: key } });
    }, SECONDS);
    const directAfterWrite = await perSecond(() => {
      writeAndUndo();
      statement.all(...codes, lower, upper);
      options.all(...codes);
    }, SECONDS);

    await app.close();
    await engine.close();
    return [
      {
        name: `GET /v1/availability, ${PRODUCTS} products × ${DAYS} days (${sessions.length} sessions), first page of 100`,
        unit: 'req/s',
        subject: Math.round(viaApi),
        baseline: Math.round(direct),
        baselineName: 'the same search as raw better-sqlite3 statements',
        higherIsBetter: true,
        goal: 2,
      },
      {
        name: `the same, first search after a write (no cached answer)`,
        unit: 'req/s',
        subject: Math.round(viaApiAfterWrite),
        baseline: Math.round(directAfterWrite),
        baselineName: 'the same write, then the raw statements',
        higherIsBetter: true,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
