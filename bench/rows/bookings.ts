import { mkdtempSync, rmSync } from 'node:fs';
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
    const post = () =>
      new Promise<void>((resolve, reject) => {
        const req = request(url, { method: 'POST', agent, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`booking failed: ${res.statusCode} ${Buffer.concat(chunks).toString()}`))));
        });
        req.on('error', reject);
        req.end(body);
      });
    let sent = 0;
    const apiStart = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (sent < BOOKINGS) {
          sent++;
          await post();
        }
      }),
    );
    agent.destroy();
    const apiPerSecond = BOOKINGS / ((performance.now() - apiStart) / 1000);
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
    const one = sqlite.transaction((n: number) => {
      const now = Date.now();
      const customerId = ++id;
      const order = `B1-${n}`;
      insert.customer.run(customerId, 'Ada', 'Lovelace', 'ada@example.test', now, now);
      insert.booking.run(order, ++id, customerId, now, now);
      const itemId = ++id;
      insert.item.run(itemId, order, product.productCode, sessionId, startAt, startAt + 7_200_000);
      insert.quantity.run(itemId, 0, product.priceOptions[0].id, 'Adult', 5000, 2);
      insert.quantity.run(itemId, 1, product.priceOptions[1].id, 'Child', 2500, 1);
      for (let p = 0; p < 3; p++) insert.participant.run(++id, itemId, p);
      insert.op.run(`1:${++id}`, now, order, body);
    });
    const rawStart = performance.now();
    for (let n = 0; n < BOOKINGS; n++) one.immediate(n);
    const rawPerSecond = BOOKINGS / ((performance.now() - rawStart) / 1000);
    await engine.close();
    return [{ name: 'POST /v1/bookings (3 participants)', unit: 'bookings/s', subject: Math.round(apiPerSecond), baseline: Math.round(rawPerSecond), baselineName: 'raw better-sqlite3 inserts of the same rows + op log, one transaction each', higherIsBetter: true, goal: 2 }];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
