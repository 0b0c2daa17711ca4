import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { aBooking, aProduct, aSession } from '../fixtures/builders';
import { BIN, runCli, startServe, type RunningServer } from '../fixtures/cli';
import { startFaultyProxy } from '../fixtures/faultyProxy';

/*
 * What the season's fault tests (test/sync/faults*.test.ts) share: real `tourdesk serve` processes
 * on their own folders, sales acknowledged through the API, `tourdesk sync` retried through faults,
 * and what each stopped instance's file holds.
 */

/** The company's zone (a new folder takes the machine's): the session's 09:00 there is START. */
const ZONE = 'Australia/Sydney';
export const START = '2030-02-01T09:00:00+11:00';
export const keyOf = (instanceNo: number) => `td_test_season_key_${String(instanceNo).padStart(11, '0')}`;

export interface ServeNode {
  instanceNo: number;
  dir: string;
  key: string;
  server: RunningServer;
  /** More `serve` arguments, kept for restarts (a hub on PostgreSQL: --database <url>). */
  args?: string[];
}

/** Steps run after the file's tests, last first (servers stopped before their folders go). */
export const cleanup: (() => Promise<unknown> | void)[] = [];
export async function runCleanup(): Promise<void> {
  for (const step of cleanup.splice(0).reverse()) await step();
}

export function aFolder(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `tourdesk-season-${name}-`));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function startNode(instanceNo: number, dir = aFolder(`i${instanceNo}`), args: string[] = []): Promise<ServeNode> {
  const node: ServeNode = { instanceNo, dir, key: keyOf(instanceNo), args, server: await startServe(['--data-dir', dir, '--instance', String(instanceNo), ...args], { TOURDESK_API_KEY: keyOf(instanceNo), TZ: ZONE }) };
  cleanup.push(() => stop(node, 'SIGTERM'));
  return node;
}

/** Stops the node's process (SIGKILL: a power cut) and waits for it to be gone. */
export function stop(node: ServeNode, signal: NodeJS.Signals): Promise<number | null> {
  if (node.server.child.exitCode !== null || node.server.child.signalCode !== null) return Promise.resolve(node.server.child.exitCode);
  node.server.child.kill(signal);
  return node.server.exited.catch(() => null);
}

export async function restart(node: ServeNode): Promise<void> {
  await stop(node, 'SIGTERM');
  node.server = await startServe(['--data-dir', node.dir, '--instance', String(node.instanceNo), ...(node.args ?? [])], { TOURDESK_API_KEY: node.key, TZ: ZONE });
}

export async function api(node: ServeNode, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${node.server.baseUrl}${path}`, { method, headers: { apikey: node.key, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: (await res.json()) as any };
}

export interface Sale {
  orderNumber: string;
  seats: number;
}

/** A sale the instance acknowledged (200): it must end up everywhere, once. */
export async function sell(node: ServeNode, productCode: string, seats = 1): Promise<Sale> {
  const sale = await api(node, 'POST', '/v1/bookings', aBooking(productCode, START, [{ optionLabel: 'Adult', value: seats }]));
  expect(sale.status, JSON.stringify(sale.body)).toBe(200);
  return { orderNumber: sale.body.booking.orderNumber as string, seats };
}

/** A hub with a product and a session of `seats`; answers the product's code. */
export async function catalogue(hub: ServeNode, seats = 500): Promise<string> {
  const product = (await api(hub, 'POST', '/v1/products', aProduct())).body.product;
  expect((await api(hub, 'POST', '/v1/availability', aSession(product.productCode, { seats }))).status).toBe(200);
  return product.productCode as string;
}

export async function pair(desk: ServeNode, url: string, hub: ServeNode): Promise<void> {
  const paired = await runCli(['peer', 'add', url, '--key', hub.key, '--data-dir', desk.dir]);
  expect(paired.code, paired.out).toBe(0);
}

/** A hub and two desks paired with it through a faulty proxy (passing everything until a test says otherwise), with a product to sell. */
export async function aHubAndTwoDesks(hubArgs: string[] = []) {
  const hub = await startNode(1, aFolder('i1'), hubArgs);
  const [deskA, deskB] = [await startNode(2), await startNode(3)];
  const proxy = await startFaultyProxy(hub.server.baseUrl);
  cleanup.push(() => proxy.close());
  const productCode = await catalogue(hub);
  for (const desk of [deskA, deskB]) await pair(desk, proxy.url, hub);
  return { hub, deskA, deskB, proxy, productCode };
}

/** `tourdesk sync` until it succeeds (faults make some attempts fail, which must be harmless); answers every attempt's output. */
export async function syncUntilClean(desk: ServeNode, attempts = 12): Promise<string> {
  let log = '';
  for (let i = 0; i < attempts; i++) {
    const { code, out } = await runCli(['sync', '--data-dir', desk.dir]);
    log += out;
    if (code === 0) return log;
    // A failed exchange says why.
    expect(out).toMatch(/sync failed: \S/);
  }
  throw new Error(`tourdesk sync never succeeded:\n${log}`);
}

/** `tourdesk sync` as its own process, to be killed mid-exchange. */
export function syncProcess(desk: ServeNode) {
  const child = spawn(process.execPath, [BIN, 'sync', '--data-dir', desk.dir], { stdio: 'ignore' });
  return { child, exited: new Promise<number | null>((res) => child.once('exit', (code) => res(code))) };
}

/** What a stopped instance's file holds: its bookings (each once: order numbers are the key) and the seats they hold. */
export function holdings(dir: string) {
  const db = new Database(join(dir, 'tourdesk.sqlite'), { readonly: true });
  try {
    return {
      bookings: (db.prepare('SELECT order_number FROM bookings ORDER BY order_number').pluck().all() as string[]),
      seatsHeld: (db.prepare('SELECT coalesce(sum(seats_held), 0) AS n FROM booking_items').get() as { n: number }).n,
      participants: (db.prepare('SELECT count(*) AS n FROM participants').get() as { n: number }).n,
    };
  } finally {
    db.close();
  }
}

/** Every instance holds exactly the acknowledged sales, each once, and they agree. */
export function expectSameSales(dirs: readonly string[], sales: readonly Sale[]): void {
  const all = dirs.map(holdings);
  for (const h of all) expect(h).toEqual(all[0]);
  expect(all[0].bookings).toEqual(sales.map((s) => s.orderNumber).sort());
  expect(all[0].seatsHeld).toBe(sales.reduce((sum, s) => sum + s.seats, 0));
}

/**
 * A desk put back from its backup (`tourdesk restore`, after a SIGTERM or a power cut) mid-workload:
 * it says it continues as a new incarnation; then the hub and the desk sell before anyone heals, and no
 * number is one given out before (`given`). Answers those sales.
 */
export async function restoreDeskThenSell(deskA: ServeNode, backup: string, signal: NodeJS.Signals, hub: ServeNode, productCode: string, given: ReadonlySet<string>): Promise<Sale[]> {
  await stop(deskA, signal);
  const restored = await runCli(['restore', backup, '--data-dir', deskA.dir]);
  expect(restored.code, restored.out).toBe(0);
  await restart(deskA);
  expect(deskA.server.output()).toMatch(/restored from a backup: it continues as a new incarnation/);
  const fresh = [await sell(hub, productCode), await sell(deskA, productCode), await sell(hub, productCode)];
  for (const sale of fresh) expect(given.has(sale.orderNumber), sale.orderNumber).toBe(false);
  return fresh;
}
