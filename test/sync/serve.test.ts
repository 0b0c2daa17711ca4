import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aBooking, aProduct, aSession } from '../fixtures/builders';
import { runCli, startServe, type RunningServer } from '../fixtures/cli';
import { startFaultyProxy, type FaultyProxy, type ProxyFault } from '../fixtures/faultyProxy';

/**
 * Real `tourdesk serve` processes on loopback: a hub and a desk, paired and synced with the CLI
 * (`peer add`, `sync`) while both servers run, through a proxy that drops, delays and cuts; the
 * hub killed with SIGKILL in the middle of an exchange and restarted. Nothing acknowledged is
 * lost and nothing arrives twice.
 */
const HUB_KEY = 'td_test_sync_hub_key_000000001';
const DESK_KEY = 'td_test_sync_desk_key_00000001';
const START = '2030-02-01T09:00:00+11:00';

const cleanup: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

async function api(base: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, { method, headers: { apikey: key, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: (await res.json()) as any };
}

function stopped(server: RunningServer, signal: NodeJS.Signals): Promise<number | null> {
  server.child.kill(signal);
  return server.exited.catch(() => null);
}

/** `tourdesk sync` until it succeeds (faults make some attempts fail, which must be harmless). */
async function syncUntilClean(dir: string, attempts = 12): Promise<string> {
  let log = '';
  for (let i = 0; i < attempts; i++) {
    const { code, out } = await runCli(['sync', '--data-dir', dir]);
    log += out;
    if (code === 0) return log;
  }
  throw new Error(`tourdesk sync never succeeded:\n${log}`);
}

describe('real serve processes syncing through a faulty proxy', () => {
  it('pairs and syncs with the CLI while both run, survives drops, cuts and a SIGKILL mid-exchange: nothing lost, nothing doubled', { timeout: 240_000 }, async () => {
    const hubDir = mkdtempSync(join(tmpdir(), 'tourdesk-serve-hub-'));
    const deskDir = mkdtempSync(join(tmpdir(), 'tourdesk-serve-desk-'));
    cleanup.push(() => rmSync(hubDir, { recursive: true, force: true }), () => rmSync(deskDir, { recursive: true, force: true }));
    let hub = await startServe(['--data-dir', hubDir, '--instance', '1', '--demo'], { TOURDESK_API_KEY: HUB_KEY });
    const desk = await startServe(['--data-dir', deskDir, '--instance', '2'], { TOURDESK_API_KEY: DESK_KEY });
    cleanup.push(() => stopped(desk, 'SIGTERM'));
    cleanup.push(() => stopped(hub, 'SIGTERM'));
    const proxy: FaultyProxy = await startFaultyProxy(hub.baseUrl);
    cleanup.push(() => proxy.close());

    const product = (await api(hub.baseUrl, HUB_KEY, 'POST', '/v1/products', aProduct())).body.product;
    expect((await api(hub.baseUrl, HUB_KEY, 'POST', '/v1/availability', aSession(product.productCode, { seats: 100 }))).status).toBe(200);

    const paired = await runCli(['peer', 'add', proxy.url, '--key', HUB_KEY, '--data-dir', deskDir]);
    expect(paired.code, paired.out).toBe(0);
    expect(paired.out).toMatch(/Paired with/);
    expect(paired.out).not.toContain(HUB_KEY);
    await syncUntilClean(deskDir);
    expect((await api(desk.baseUrl, DESK_KEY, 'GET', `/v1/products/${product.productCode}`)).status).toBe(200);

    // Sales on both sides; every one acknowledged (200) must end up on both, once (besides the demo's own).
    const demo = read(hubDir);
    const acknowledged: { orderNumber: string; seats: number }[] = [];
    for (let i = 0; i < 8; i++) {
      for (const [base, key] of [[desk.baseUrl, DESK_KEY], [hub.baseUrl, HUB_KEY]] as const) {
        const seats = 1 + (i % 2);
        const sale = await api(base, key, 'POST', '/v1/bookings', aBooking(product.productCode, START, [{ optionLabel: 'Adult', value: seats }]));
        expect(sale.status, JSON.stringify(sale.body)).toBe(200);
        acknowledged.push({ orderNumber: sale.body.booking.orderNumber, seats });
      }
    }

    // A faulty network: every third request dropped, cut or delayed, and the first pull after this
    // point cut mid-answer whoever sends it (serve's background sync shares the proxy with the CLI,
    // so which requests the cycle's faults land on depends on timing).
    const cycle: ProxyFault[] = ['drop', 'pass', 'cut', 'pass', 'delay', 'pass'];
    let pullCut = false;
    proxy.decide = (n, path) => {
      if (!pullCut && path.includes('/pull')) {
        pullCut = true;
        return 'cut';
      }
      return cycle[n % cycle.length];
    };
    await syncUntilClean(deskDir);
    expect(proxy.seen.some((s) => s.fault === 'cut')).toBe(true);

    // More sales on the desk, then the hub killed while the desk's push is held up in the proxy.
    for (let i = 0; i < 6; i++) {
      const sale = await api(desk.baseUrl, DESK_KEY, 'POST', '/v1/bookings', aBooking(product.productCode, START, [{ optionLabel: 'Adult', value: 1 }]));
      expect(sale.status).toBe(200);
      acknowledged.push({ orderNumber: sale.body.booking.orderNumber, seats: 1 });
    }
    proxy.delayMs = 2_000;
    proxy.decide = (_n, path) => (path.includes('/push') ? 'delay' : 'pass');
    const pushSeen = proxy.seen.length;
    const inFlight = runCli(['sync', '--data-dir', deskDir]);
    for (let waited = 0; !proxy.seen.slice(pushSeen).some((s) => s.path.includes('/push')) && waited < 60_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1_000)); // the push is now forwarded or about to be: the hub dies around its apply
    expect(await stopped(hub, 'SIGKILL')).toBeNull();
    expect((await inFlight).code).toBe(1);
    hub = await startServe(['--data-dir', hubDir, '--instance', '1'], { TOURDESK_API_KEY: HUB_KEY });
    proxy.target = hub.baseUrl;
    proxy.decide = () => 'pass';
    const log = await syncUntilClean(deskDir);
    expect(log).toMatch(/received \d+, sent \d+/);
    await syncUntilClean(deskDir); // and once more: both sides now hold everything

    for (const [base, key] of [[desk.baseUrl, DESK_KEY], [hub.baseUrl, HUB_KEY]] as const) {
      for (const { orderNumber } of acknowledged) expect((await api(base, key, 'GET', `/v1/bookings/${orderNumber}`)).status, `${orderNumber} at ${base}`).toBe(200);
      const status = (await api(base, key, 'GET', '/v1/sync/status')).body;
      if (base === desk.baseUrl) expect(status.peers[0]).toMatchObject({ lastError: null, opsToSend: 0, opsToReceive: 0 });
    }

    // Stopped cleanly, both files hold the same bookings, each once, and the same vector (the desk
    // joined from a snapshot, so it holds only the ops made since).
    await stopped(desk, 'SIGTERM');
    await stopped(hub, 'SIGTERM');
    const atHub = read(hubDir);
    const atDesk = read(deskDir);
    expect(atDesk).toEqual(atHub);
    expect(atHub.bookings.map((b) => b.order_number).sort()).toEqual([...demo.bookings.map((b) => b.order_number), ...acknowledged.map((a) => a.orderNumber)].sort());
    expect(atHub.seatsHeld - demo.seatsHeld).toBe(acknowledged.reduce((sum, a) => sum + a.seats, 0));
  });
});

/** What a stopped instance's file holds: bookings, seats held and vector. */
function read(dir: string) {
  const db = new Database(join(dir, 'tourdesk.sqlite'), { readonly: true });
  try {
    return {
      bookings: db.prepare('SELECT order_number, status FROM bookings ORDER BY order_number').all() as { order_number: string }[],
      seatsHeld: (db.prepare('SELECT coalesce(sum(seats_held), 0) AS n FROM booking_items').get() as { n: number }).n,
      vector: db.prepare('SELECT origin, seq FROM sync_vector ORDER BY origin').all(),
    };
  } finally {
    db.close();
  }
}
