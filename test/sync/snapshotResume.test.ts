import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotRequest } from '../../main/contract/sync';
import { SYSTEM_ACTOR } from '../../main/domain/context';
import { SYNCED_TABLES } from '../../main/sync/entities';
import { exchangeWith, type PeerTransport } from '../../main/sync/exchange';
import type { JoinProgress } from '../../main/sync/snapshotJoin';
import { JOIN_PROGRESS_KEY } from '../../db/syncStore';
import { startFaultyProxy } from '../fixtures/faultyProxy';
import { testDialect } from '../fixtures/app';
import { tourdesk } from './cliInProcess';
import { directTransport, nodesClosedAfterEach, type SyncNode } from './nodes';

/**
 * A desk joining from its hub's snapshot over a flaky link (issue 38): the join's progress is kept
 * with each page it took, so the next attempt resumes there, and the hub pages by key, so rows it
 * deletes or inserts between pages never make a page skip a row the desk was owed.
 */
const folders: string[] = [];
afterEach(() => {
  while (folders.length) rmSync(folders.pop()!, { recursive: true, force: true });
});
// Registered after the folders' hook, so it runs first (a stack): nodes close, then their folders go.
const { nodes, node, listening } = nodesClosedAfterEach();
const folder = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `tourdesk-snapshot-${name}-`));
  folders.push(dir);
  return dir;
};

const CUSTOMERS = 5000; // with the company's rows: four pages of SNAPSHOT_PAGE_ROWS, then the tombstones

/** A hub (on the suite's dialect) holding `count` customers made in one write. */
async function hubWithCustomers(count = CUSTOMERS, hub?: SyncNode): Promise<SyncNode> {
  hub ??= await node('hub', { instanceNo: 1 });
  const insert = hub.sql.prepare('INSERT INTO customers (id, first_name, created_at, updated_at) VALUES (?, ?, 1, 1)');
  await hub.engine.ctx.write(SYSTEM_ACTOR, async () => {
    for (let i = 1; i <= count; i++) insert.run(i * 1000 + 998, `Guest ${i}`); // an instance number nobody here uses
  });
  return hub;
}

/** The hub's transport, with every snapshot request seen and `fail(n)` deciding which answers are lost on the way back. */
function flakyTransport(hub: SyncNode, fail: (n: number) => boolean, between: (n: number) => Promise<void> = async () => {}) {
  const direct = directTransport(hub);
  const seen: SnapshotRequest[] = [];
  const transport: PeerTransport = {
    ...direct,
    async snapshot(request) {
      seen.push(request);
      const answer = await direct.snapshot!(request);
      await between(seen.length);
      if (fail(seen.length)) throw new Error('the connection was reset (injected)');
      return answer;
    },
  };
  return { transport, seen };
}

/** Exchanges until one goes through; answers the attempts it took and every progress line. */
async function exchangeUntilDone(desk: SyncNode, transport: PeerTransport, attempts = 12): Promise<{ tries: number; lines: string[] }> {
  const lines: string[] = [];
  for (let tries = 1; tries <= attempts; tries++) {
    try {
      await exchangeWith(desk.side, transport, (line) => lines.push(line));
      return { tries, lines };
    } catch (error) {
      expect(String(error)).toMatch(/injected/);
    }
  }
  throw new Error(`no exchange went through in ${attempts} attempts:\n${lines.join('\n')}`);
}

const progressOf = (desk: SyncNode) => {
  const json = desk.sql.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(JOIN_PROGRESS_KEY) as string | undefined;
  return json === undefined ? null : (JSON.parse(json) as JoinProgress);
};

/** Where a request asks to start: the same place asked for twice is the same page fetched again. */
const placeOf = (r: SnapshotRequest) => JSON.stringify([r.table, r.after ?? r.offset]);

describe('a snapshot join over a flaky link', () => {
  it('resumes where it stopped when every third snapshot answer is lost: the join finishes, each page fetched at most twice, the desk equal to the hub', async () => {
    const hub = await hubWithCustomers();
    const desk = await node('desk', { instanceNo: 2, hub });
    const { transport, seen } = flakyTransport(hub, (n) => n % 3 === 0);

    // The first attempt takes two pages and loses the third's answer: what it took is kept, and where it stopped.
    await expect(exchangeWith(desk.side, transport)).rejects.toThrow(/injected/);
    const kept = progressOf(desk)!;
    expect(kept).toMatchObject({ origin: hub.engine.replica.origin, next: { table: SYNCED_TABLES.indexOf('customers') }, rows: 4000 });
    const lastTaken = desk.sql.prepare('SELECT max(id) FROM customers').pluck().get() as number;
    expect(kept.next.after).toEqual([lastTaken]);

    const { lines } = await exchangeUntilDone(desk, transport);
    expect(lines).toContain('snapshot: resuming after 4000 rows taken');
    expect(lines.some((l) => /^joined from a snapshot of \d+ rows$/.test(l))).toBe(true);
    const pages = new Map<string, number>();
    for (const r of seen) pages.set(placeOf(r), (pages.get(placeOf(r)) ?? 0) + 1);
    expect(Math.max(...pages.values())).toBeLessThanOrEqual(2);
    expect(pages.get(placeOf({ table: 0, offset: 0 } as SnapshotRequest))).toBe(1); // never started over
    expect(await desk.dump()).toBe(await hub.dump());
    expect(await desk.engine.replica.vector()).toEqual(await hub.engine.replica.vector());
    expect(progressOf(desk)).toBeNull(); // the join ended: nothing kept to resume
  });

  it('pages by key: customers the hub deletes and inserts between pages neither shift a page past rows nor go missing', async () => {
    const hub = await hubWithCustomers();
    const desk = await node('desk', { instanceNo: 2, hub });
    const write = (text: string, ...args: unknown[]) => hub.engine.ctx.write(SYSTEM_ACTOR, async () => void hub.sql.prepare(text).run(...args));
    // After the first page (which ends among the customers): 300 rows it already carried go, and 5 new ones come
    // before the cursor. By offset, the next page would start 300 rows late and skip rows no op after the
    // join's vector would bring.
    const { transport } = flakyTransport(hub, () => false, async (n) => {
      if (n !== 1) return;
      await write('DELETE FROM customers WHERE id <= ?', 300 * 1000 + 998);
      for (let i = 1; i <= 5; i++) await write('INSERT INTO customers (id, first_name, created_at, updated_at) VALUES (?, ?, 1, 1)', i * 1000 + 997, `Latecomer ${i}`);
    });
    await exchangeUntilDone(desk, transport, 1);
    const customers = (n: SyncNode) => n.sql.prepare('SELECT count(*) FROM customers').pluck().get();
    expect(customers(hub)).toBe(CUSTOMERS - 300 + 5);
    expect(customers(desk)).toBe(customers(hub));
    expect(await desk.dump()).toBe(await hub.dump());
  });

  it('pages the tombstones by key: one dropped between pages (as compaction drops them) makes the next page skip none', async () => {
    const hub = await hubWithCustomers(12);
    await hub.engine.ctx.write(SYSTEM_ACTOR, async () => void hub.sql.prepare('DELETE FROM customers WHERE id < ?').run(9 * 1000));
    const call = (body: object) => hub.call('POST', '/v1/sync/snapshot', { origin: 'DE5CAAAA', instanceNo: 2, schema: { min: 1, max: 999 }, table: SYNCED_TABLES.length, limit: 3, ...body });
    const first = (await call({})).body;
    expect(first.rows.map((r: any) => r.row.id)).toEqual([1998, 2998, 3998]);
    // SQLite keys a state by numbers (migration 20261205_11); the PostgreSQL hub by name and key text.
    if (testDialect() === 'postgres') hub.sql.prepare('DELETE FROM sync_rows WHERE entity = ? AND entity_id = ?').run('customers', '[1998]');
    else hub.sql.prepare("DELETE FROM sync_rows WHERE entity = (SELECT no FROM sync_entities WHERE name = 'customers') AND k1 = ? AND key = ''").run(1998);
    const rest: number[] = [];
    for (let next = first.next; next; ) {
      const page = (await call(next)).body;
      rest.push(...page.rows.map((r: any) => r.row.id));
      next = page.next;
    }
    expect(rest).toEqual([4998, 5998, 6998, 7998, 8998]);
  });

  it('starts the join over when the hub it was joining is restored from a backup meanwhile (a new incarnation): the rows after its cursor are another hub\u2019s', async () => {
    const hubDir = folder('hub');
    const opened = await listening('hub', { instanceNo: 1, dir: hubDir, dialect: 'sqlite' });
    const hub = await hubWithCustomers(CUSTOMERS, opened.node);
    const backup = join(folder('backups'), 'hub.tdbackup');
    expect((await tourdesk('backup', backup, '--data-dir', hubDir)).code).toBe(0);
    const proxy = await startFaultyProxy(opened.url);
    const desk = await node('desk', { instanceNo: 2, hub });
    await desk.engine.sync.addPeer(proxy.url, hub.key);
    // The third snapshot answer is lost: two pages taken and kept, with the hub's origin.
    let snapshots = 0;
    proxy.decide = (_n, path) => (path.includes('/snapshot') && ++snapshots === 3 ? 'reset' : 'pass');
    expect((await desk.engine.sync.syncAll())[0].error).not.toBeNull();
    expect(progressOf(desk)).toMatchObject({ origin: hub.engine.replica.origin, rows: 4000 });

    // The hub is restored from its backup (a new origin) on the same address.
    const oldOrigin = hub.engine.replica.origin;
    await hub.close();
    nodes.splice(nodes.indexOf(hub), 1);
    expect((await tourdesk('restore', backup, '--data-dir', hubDir)).code).toBe(0);
    const restored = (await listening('hub', { instanceNo: 1, dir: hubDir, dialect: 'sqlite' }, opened.port)).node;
    expect(restored.engine.replica.origin).not.toBe(oldOrigin);

    const lines: string[] = [];
    const before = snapshots;
    const [run] = await desk.engine.sync.syncAll((line) => lines.push(line));
    expect(run.error).toBeNull();
    expect(lines.some((l) => l.endsWith(`snapshot: ${restored.engine.replica.origin} is not the peer the join began with; starting it over`))).toBe(true);
    expect(lines.some((l) => /joined from a snapshot of \d+ rows$/.test(l))).toBe(true);
    // The one page asked at the old cursor, then every page of the restored hub's snapshot: three of 2,000 rows, then the tombstones.
    expect(snapshots - before).toBe(1 + 4);
    expect(progressOf(desk)).toBeNull();
    expect(await desk.dump()).toBe(await restored.dump());
    await proxy.close();
  });

  it('still answers an older desk that sends offsets and no key: every row once, in the same pages', async () => {
    const hub = await hubWithCustomers(7);
    const call = (body: object) => hub.call('POST', '/v1/sync/snapshot', { origin: 'DE5CAAAA', instanceNo: 2, schema: { min: 1, max: 999 }, limit: 3, ...body });
    const walk = async (cursorOf: (next: { table: number; offset: number; after?: unknown[] }) => object) => {
      const rows: string[] = [];
      for (let body: object | null = {}; body; ) {
        const page: { rows: any[]; next: { table: number; offset: number; after?: unknown[] } | null } = (await call(body)).body;
        rows.push(...page.rows.map((r: any) => JSON.stringify([r.table, r.row])));
        body = page.next && cursorOf(page.next);
      }
      return rows;
    };
    const byOffset = await walk(({ table, offset }) => ({ table, offset }));
    expect(byOffset.filter((r) => r.startsWith('["customers"'))).toHaveLength(7);
    expect(new Set(byOffset).size).toBe(byOffset.length);
    expect(byOffset).toEqual(await walk((next) => next));
  });

  it('answers a snapshot cursor that names no table or no key of it with 400 and the reason', async () => {
    const hub = await hubWithCustomers(3);
    const call = (body: object) => hub.call('POST', '/v1/sync/snapshot', { origin: 'DE5CAAAA', instanceNo: 2, schema: { min: 1, max: 999 }, ...body });
    const cases: [object, RegExp][] = [
      [{ table: SYNCED_TABLES.length + 1 }, /there is no table/],
      [{ table: SYNCED_TABLES.indexOf('product_extras'), after: ['P1'] }, /must hold 2 value\(s\), product_extras's key \(product_code, extra_id\); it holds 1/],
      [{ table: SYNCED_TABLES.length, after: ['customers'] }, /a tombstone's key/],
      [{ table: 0, after: [{ id: 1 }] }, /after/],
    ];
    for (const [body, why] of cases) {
      const answer = await call(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.requestStatus.success).toBe(false);
      expect(answer.body.requestStatus.error.errorMessage).toMatch(why);
    }
    // A key of the wrong type for its column: refused with the reason on PostgreSQL, an empty page on SQLite; never a 500.
    const mistyped = await call({ table: SYNCED_TABLES.indexOf('customers'), after: ['not a number'] });
    expect([200, 400]).toContain(mistyped.status);
    if (mistyped.status === 400) expect(mistyped.body.requestStatus.error.errorMessage).toMatch(/does not fit the keys of customers/);
  });
});
