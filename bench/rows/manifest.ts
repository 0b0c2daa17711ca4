import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../db/connection';
import { createEngine } from '../../main/engine';
import { createServer, LOOPBACK_NAMES } from '../../main/api/server';
import { aBookingRow, aSessionRow } from '../../test/fixtures/bookingRows';
import type { BenchRow } from '../types';
import { percentile } from '../percentile';
import { bareScanServer, rowsOfWrite, scanStorageFloor } from '../scanFloor';

/** The bare servers' lookup of a scanned participant code. */
const LOOKUP_SQL = 'SELECT p.id, p.fields_json, i.order_number, b.status FROM participants p JOIN booking_items i ON i.id = p.item_id JOIN bookings b ON b.order_number = i.order_number WHERE p.barcode = ?';

const time = (fn: () => unknown) => {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
};
const timeAsync = async (fn: () => Promise<unknown>) => {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
};

/** A client POSTing bodies to `url` one after another over one kept-alive connection; answers each round trip in ms. */
function roundTripper(url: string, headers: Record<string, string>) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const post = (body: string) =>
    new Promise<void>((resolve, reject) => {
      const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(body);
    });
  return { post: (body: string) => timeAsync(() => post(body)), close: () => agent.destroy() };
}

/**
 * Subject, baseline and floor scans in alternating blocks (50 warm-up round trips each first), so
 * all see the same machine load and the same WAL sizes (each writes its own copy of the file): on a
 * shared 2-core machine the load moves within seconds, and a p99 measured minutes apart compares two machines.
 */
async function interleavedRoundTrips(clients: ReturnType<typeof roundTripper>[], bodies: () => string[], block = 100): Promise<number[][]> {
  const lists = clients.map(() => bodies());
  const warmUp = 50;
  for (const [c, client] of clients.entries()) for (const body of lists[c].slice(0, warmUp)) await client.post(body);
  const samples = clients.map(() => [] as number[]);
  for (let i = warmUp; i < lists[0].length; i += block) {
    for (const [c, client] of [...clients.entries()].reverse()) for (const body of lists[c].slice(i, i + block)) samples[c].push(await client.post(body));
  }
  return samples;
}

/**
 * Scans through the real server (fastify.inject, real engine on a real SQLite file) against a bare
 * indexed lookup of the same code, and a 1,000-participant manifest against the same rows read
 * directly with one SQL join.
 */
export default async function (): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-bench-manifest-'));
  // Opened as `tourdesk serve` opens it (main/boot.ts): WAL checkpoints on a background thread.
  const handle = await openDatabase(join(dir, 'tourdesk.sqlite'), { migrate: true, checkpointInBackground: true });
  const engine = createEngine({ db: handle, config: { dataDir: dir, instanceNo: 1 } });
  try {
    await engine.companies.configure({ companyName: 'Bench Tours', alias: 'bench', currency: 'AUD', timezone: 'Australia/Sydney', locale: 'en_AU', email: 'b@bench.example' });
    const { key } = await engine.apiKeys.create({ role: 'checkin', name: 'Pier tablet' });
    const product = await engine.products.create({
      name: 'Bench Cruise',
      productType: 'ACTIVITY',
      bookingMode: 'INVENTORY',
      confirmMode: 'AUTOCONFIRM',
      barcodeOutputType: 'PARTICIPANT',
      qrCodeType: 'INTERNAL',
      priceOptions: [{ label: 'Adult', price: 50 }],
    } as never, { keyId: null, role: 'system', resellerId: null, name: 'bench' });
    const productCode = String(product.productCode);
    const session = aSessionRow(handle.sqlite, { productCode, startTime: '2030-01-02T23:00:00Z', seats: 1000 });
    const codes: string[] = [];
    for (let i = 0; i < 250; i++) {
      const booking = aBookingRow(handle.sqlite, { sessionId: session.id, barcodes: 'PARTICIPANT', quantities: [{ label: 'Adult', value: 4 }], names: ['A', 'B', 'C', 'D'], pickup: { locationName: i % 2 ? 'Pier' : 'Hotel' } });
      codes.push(...(booking.participantCodes as string[]));
    }
    const app = await createServer({ engine, allowedHosts: LOOPBACK_NAMES });
    await app.ready();
    const headers = { host: '127.0.0.1', apikey: key, 'content-type': 'application/json' };

    const SCANS = Number(process.env.BENCH_MANIFEST_SCANS ?? 10_000);
    const scanSamples: number[] = [];
    for (let i = 0; i < SCANS; i++) {
      const code = codes[(i * 7919) % codes.length];
      scanSamples.push(await timeAsync(() => app.inject({ method: 'POST', url: '/v1/manifest/scan', headers, payload: JSON.stringify({ code, sessionId: session.id, device: 'bench' }) })));
    }
    const lookup = handle.sqlite.prepare(LOOKUP_SQL);
    const lookupSamples: number[] = [];
    for (let i = 0; i < SCANS; i++) lookupSamples.push(time(() => lookup.get(codes[(i * 7919) % codes.length])));

    // Over real HTTP: the scan against a bare node:http server doing the same indexed lookup and a
    // committed insert of the scan (IMMEDIATE transaction, same pragmas: WAL, synchronous=FULL, same
    // schema and sync-capture triggers, WAL checkpoints on a background thread). The bare server writes a copy of the file, opened the way the
    // engine opens its own: measured in alternating blocks, the engine must not fold (sync) the rows
    // the baseline's inserts captured, which it would on a shared file.
    // The floor's templates come from scans of a participant of its own, made after the copies: its
    // booking's rows are folded first (by a scan of an unknown code), so the templates hold a scan's rows only.
    const scanOf = (code: string) => () => app.inject({ method: 'POST', url: '/v1/manifest/scan', headers, payload: JSON.stringify({ code, sessionId: session.id, eventId: randomUUID(), device: 'bench' }) });
    const templateCode = (aBookingRow(handle.sqlite, { sessionId: session.id, barcodes: 'PARTICIPANT', quantities: [{ label: 'Adult', value: 1 }], names: ['T'] }).participantCodes as string[])[0];
    await scanOf('bench-no-such-code')();
    const bareFile = join(dir, 'bare.sqlite');
    handle.sqlite.exec(`VACUUM INTO '${bareFile}'`);
    const bareHandle = await openDatabase(bareFile, { migrate: true, checkpointInBackground: true });
    const bareLookup = bareHandle.sqlite.prepare(LOOKUP_SQL);
    const HTTP_SCANS = Number(process.env.BENCH_MANIFEST_HTTP_SCANS ?? 2_000);
    const scanBodies = () => Array.from({ length: HTTP_SCANS + 50 }, (_, i) => JSON.stringify({ code: codes[(i * 7919) % codes.length], sessionId: session.id, eventId: randomUUID(), device: 'bench' }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const insertScan = bareHandle.sqlite.prepare(
      "INSERT INTO checkin_events (event_id, kind, session_id, order_number, participant_id, code, result, device, api_key_id, occurred_at, recorded_at, answer_json) VALUES (?, 'SCAN', ?, ?, ?, ?, 'ALREADY_CHECKED_IN', ?, NULL, ?, ?, ?)",
    );
    const committedScan = bareHandle.sqlite.transaction((input: { code: string; sessionId: number; eventId: string; device: string }) => {
      const found = bareLookup.get(input.code) as { id: number; order_number: string; status: string; fields_json: string };
      const answer = JSON.stringify({ eventId: input.eventId, result: 'ALREADY_CHECKED_IN', orderNumber: found.order_number, participant: { id: found.id, fields: JSON.parse(found.fields_json) } });
      const now = Date.now();
      insertScan.run(input.eventId, input.sessionId, found.order_number, found.id, input.code, input.device, now, now, answer);
      return answer;
    });
    const bare = await bareScanServer(committedScan.immediate);
    // The floor: the engine's storage for a scan, as raw statements on another copy of the file. What
    // it writes is read back from two scans of one code through the engine (the first admits, the
    // second finds the participant in).
    const floorFile = join(dir, 'floor.sqlite');
    handle.sqlite.exec(`VACUUM INTO '${floorFile}'`);
    const floorHandle = await openDatabase(floorFile, { migrate: true, checkpointInBackground: true });
    const templates = { admitted: await rowsOfWrite(handle.sqlite, scanOf(templateCode)), alreadyIn: await rowsOfWrite(handle.sqlite, scanOf(templateCode)) };
    const floor = await bareScanServer(scanStorageFloor(floorHandle.sqlite, LOOKUP_SQL, templates));
    const clients = [roundTripper(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/v1/manifest/scan`, { apikey: key }), roundTripper(bare.url, {}), roundTripper(floor.url, {})];
    const [httpScans, bareScans, floorScans] = await interleavedRoundTrips(clients, scanBodies);
    for (const client of clients) client.close();
    await bare.close();
    await floor.close();
    await bareHandle.close();
    await floorHandle.close();

    const ROUNDS = 40;
    const manifestSamples: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      manifestSamples.push(await timeAsync(() => app.inject({ method: 'GET', url: `/v1/manifest?sessionId=${session.id}`, headers })));
    }
    const direct = handle.sqlite.prepare(
      `SELECT b.order_number, b.status, b.total_amount_minor, c.first_name, c.last_name, c.phone, i.pickup_json, p.id, p.fields_json, p.barcode
         FROM booking_items i JOIN bookings b ON b.order_number = i.order_number LEFT JOIN customers c ON c.id = b.customer_id
         JOIN participants p ON p.item_id = i.id WHERE i.session_id = ? ORDER BY b.order_number, p.position`,
    );
    // The same GET when the manifest must be rebuilt: a write (a guide's note on a participant's
    // booking, through the same connection) lands before each one.
    const touch = handle.sqlite.prepare('UPDATE bookings SET updated_at = updated_at + 1 WHERE order_number = (SELECT order_number FROM booking_items WHERE session_id = ? LIMIT 1)');
    const rebuiltSamples: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      touch.run(session.id);
      rebuiltSamples.push(await timeAsync(() => app.inject({ method: 'GET', url: `/v1/manifest?sessionId=${session.id}`, headers })));
    }
    const directSamples: number[] = [];
    for (let i = 0; i < ROUNDS; i++) directSamples.push(time(() => JSON.stringify(direct.all(session.id))));
    await app.close();

    const row = (name: string, subject: number, baseline: number, baselineName: string, goal?: number): BenchRow => ({ name, unit: 'ms', subject, baseline, baselineName, higherIsBetter: false, goal });
    return [
      row(`scan over HTTP p50 (${HTTP_SCANS} scans, keep-alive, one at a time)`, percentile(httpScans, 50), percentile(bareScans, 50), 'bare node:http: same indexed lookup + committed insert, p50'),
      row(`scan over HTTP p99 (${HTTP_SCANS} scans)`, percentile(httpScans, 99), percentile(bareScans, 99), 'bare node:http: same indexed lookup + committed insert, p99', 2),
      row(`scan over HTTP p50 floor: bare node:http writing the storage the engine keeps for a scan (trend)`, percentile(floorScans, 50), percentile(bareScans, 50), 'bare node:http: same indexed lookup + committed insert, p50'),
      row(`scan over HTTP p99 floor: the same, p99 (trend)`, percentile(floorScans, 99), percentile(bareScans, 99), 'bare node:http: same indexed lookup + committed insert, p99'),
      row(`scan over HTTP p99 against its floor (the engine's work beyond its storage; trend)`, percentile(httpScans, 99), percentile(floorScans, 99), 'the floor above, p99'),
      row(`manifest: scan p50 (${SCANS} scans, HTTP inject)`, percentile(scanSamples, 50), percentile(lookupSamples, 50), 'better-sqlite3 indexed barcode lookup p50'),
      row(`manifest: scan p99 (${SCANS} scans, HTTP inject; trend)`, percentile(scanSamples, 99), percentile(lookupSamples, 99), 'better-sqlite3 indexed barcode lookup p99'),
      row('manifest: GET /v1/manifest, 1,000 participants (median)', percentile(manifestSamples, 50), percentile(directSamples, 50), 'one SQLite join of the same rows (median)', 3),
      row('manifest: GET /v1/manifest after a write (rebuilt; median, trend)', percentile(rebuiltSamples, 50), percentile(directSamples, 50), 'one SQLite join of the same rows (median)'),
    ];
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
