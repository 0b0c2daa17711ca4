import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe, type RunningServer, callServer } from '../fixtures/cli';
import { freshPostgresDatabase, type TestPostgresDatabase } from '../fixtures/postgres';
import { aBooking, aProduct } from '../fixtures/builders';

/**
 * The office hub on PostgreSQL as operators run it: real `tourdesk serve --database postgres://…`
 * processes, two of them on one database, behind no load balancer but the test's own round-robin.
 */
const SETTINGS = '/v1/company';
const KEY = 'td_hubtest_0123456789abcdefghijklmnop';
let database: TestPostgresDatabase;
const dirs: string[] = [];
const servers: RunningServer[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-hub-'));
  dirs.push(dir);
  return dir;
};
const env = () => ({ TOURDESK_API_KEY: KEY, TOURDESK_DATABASE_URL: '' });

const call = (server: RunningServer, method: string, path: string, body?: unknown) => callServer(server, KEY, method, path, body);

beforeAll(async () => {
  database = await freshPostgresDatabase('hub');
  // Two hub processes, each with its own data folder (key file, media), on one database.
  const a = await startServe(['--database', database.url, '--data-dir', dataDir(), '--instance', '7'], env());
  servers.push(a);
  servers.push(await startServe(['--data-dir', dataDir()], { ...env(), TOURDESK_DATABASE_URL: database.url }));
});

afterAll(async () => {
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await database.drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('tourdesk serve --database postgres://… (the hub on PostgreSQL)', () => {
  it('runs the same API on PostgreSQL, with one instance number for every hub process of the database', async () => {
    const [a, b] = servers;
    expect(a.output()).toMatch(/Database: PostgreSQL at postgres:\/\//);
    const product = await call(a, 'POST', '/v1/products', aProduct({ name: 'Harbour Cruise' }));
    expect(product.status).toBe(200);
    // Written by one process, read by the other.
    const seen = await call(b, 'GET', `/v1/products/${product.body.product.productCode}`);
    expect(seen.status).toBe(200);
    expect(seen.body.product.name).toBe('Harbour Cruise');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const instance = await client.query("SELECT value FROM settings WHERE key = 'instance_no'");
    await client.end();
    expect(instance.rows).toEqual([{ value: '7' }]);
  });

  it('sells the last seats of a session exactly once to 40 clients racing across two hub processes', async () => {
    const [a, b] = servers;
    const product = (await call(a, 'POST', '/v1/products', aProduct({ name: 'Last Seats Tour' }))).body.product;
    const session = await call(a, 'POST', '/v1/availability', { productCode: product.productCode, startTime: '2030-05-01T00:00:00Z', seats: 15 });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    // Five seats sold already: ten left for forty clients, each wanting one.
    expect((await call(b, 'POST', '/v1/bookings', aBooking(product.productCode, '2030-05-01T00:00:00Z', [{ optionLabel: 'Adult', value: 5 }]))).status).toBe(200);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call(i % 2 ? a : b, 'POST', '/v1/bookings', aBooking(product.productCode, '2030-05-01T00:00:00Z', [{ optionLabel: 'Adult', value: 1 }]))),
    );
    const sold = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status !== 200);
    expect(sold).toHaveLength(10);
    for (const r of refused) {
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body.requestStatus.error.errorCode).toBe('NO_SEATS');
    }
    // Ids and order numbers unique across both processes, and safe for JavaScript clients.
    const orderNumbers = sold.map((r) => r.body.booking.orderNumber as string);
    expect(new Set(orderNumbers).size).toBe(10);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const ids = (await client.query<{ id: string }>('SELECT id FROM bookings WHERE order_number = ANY($1)', [orderNumbers])).rows.map((r) => Number(r.id));
    expect(new Set(ids).size).toBe(10);
    for (const id of ids) expect(Number.isSafeInteger(id) && id % 1000 === 7, String(id)).toBe(true);
    const held = await client.query(
      "SELECT s.seats::int AS seats, sum(i.seats_held)::int AS held FROM sessions s JOIN booking_items i ON i.session_id = s.id JOIN bookings b ON b.order_number = i.order_number WHERE s.product_code = $1 AND b.status NOT IN ('CANCELLED','ABANDONED_CART') GROUP BY s.seats",
      [product.productCode],
    );
    await client.end();
    expect(held.rows).toEqual([{ seats: 15, held: 15 }]);
    const availability = await call(b, 'GET', `/v1/availability?productCode=${product.productCode}&startTime=2030-04-30T00:00:00Z&endTime=2030-05-02T00:00:00Z`);
    expect(availability.body.sessions[0].seatsAvailable).toBe(0);
  });

  it('keeps the cached company right when another hub process changes it', async () => {
    const [a, b] = servers;
    // Both processes have the company cached now.
    expect((await call(a, 'GET', SETTINGS)).body.company.companyName).toBe('My Tour Company');
    expect((await call(b, 'GET', SETTINGS)).body.company.companyName).toBe('My Tour Company');
    const changed = await runCli(['company', 'set', '--name', 'Renamed Tours', '--data-dir', dataDir(), '--database', database.url], env());
    expect(changed.code, changed.out).toBe(0);
    // The commit's notification reaches every process; a short wait covers its delivery.
    for (const server of [a, b]) {
      let name = '';
      for (let i = 0; i < 50 && name !== 'Renamed Tours'; i++) {
        name = (await call(server, 'GET', SETTINGS)).body.company.companyName;
        if (name !== 'Renamed Tours') await new Promise((r) => setTimeout(r, 100));
      }
      expect(name).toBe('Renamed Tours');
    }
  });

  it('refuses a key on every hub process once another process revoked it (the key cache follows)', async () => {
    const [a, b] = servers;
    const created = await runCli(['keys', 'create', '--role', 'supplier', '--name', 'Short-lived', '--data-dir', dataDir(), '--database', database.url], env());
    expect(created.code, created.out).toBe(0);
    const key = created.out.trim().split('\n').pop()!.trim();
    const asKey = (server: RunningServer) => fetch(`${server.baseUrl}/v1/company`, { headers: { apikey: key } }).then((r) => r.status);
    expect(await asKey(a)).toBe(200);
    expect(await asKey(b)).toBe(200);
    const revoked = await runCli(['keys', 'revoke', key, '--data-dir', dataDir(), '--database', database.url], env());
    expect(revoked.code, revoked.out).toBe(0);
    for (const server of [a, b]) {
      let status = 200;
      for (let i = 0; i < 50 && status === 200; i++) {
        status = await asKey(server);
        if (status === 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(401);
    }
  });

  it('answers tourdesk backup and restore with PostgreSQL\'s own tools, exiting non-zero', async () => {
    const backup = await runCli(['backup', join(dataDir(), 'x.tdbackup'), '--data-dir', dataDir(), '--database', database.url], env());
    expect(backup.code).not.toBe(0);
    expect(backup.out).toMatch(/pg_dump/);
    expect(backup.out).toMatch(/base backups/);
    const restore = await runCli(['restore', 'x.tdbackup', '--data-dir', dataDir()], { ...env(), TOURDESK_DATABASE_URL: database.url });
    expect(restore.code).not.toBe(0);
    expect(restore.out).toMatch(/pg_restore/);
  });
});
