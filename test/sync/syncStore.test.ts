import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../db/connection';
import { postgresSyncStores } from '../../db/postgres/sync';
import { sqliteSyncStores } from '../../db/queries/sync';
import type { NewOpRow, SyncStore, SyncStores } from '../../db/syncStore';
import { inWriteTransaction } from '../../db/transaction';
import { openTestDatabase, testDialect } from '../fixtures/app';

/**
 * The store contract (db/syncStore.ts): the same cases through the interface on the run's dialect
 * (the sqlite and postgres vitest projects both run this file), so the two stores answer alike.
 */
let handle: DbHandle;
let stores: SyncStores;
let drop: () => Promise<void>;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tourdesk-sync-store-'));
  ({ handle, drop } = await openTestDatabase(dir));
  stores = handle.dialect === 'postgres' ? postgresSyncStores(handle) : sqliteSyncStores(handle.sqlite);
});
afterAll(async () => {
  await handle?.close();
  await drop?.();
  rmSync(dir, { recursive: true, force: true });
});

/** Work in a write transaction, through the store for its connection (as the replica writes). */
const write = <T>(work: (q: SyncStore) => Promise<T>) =>
  inWriteTransaction(handle.db, (conn) => {
    const q = stores.at(conn);
    q.beginWork();
    return work(q);
  });
const read = () => stores.outside;

const ORIGIN = 'AAAA';
const OTHER = 'BBBB';
const stamp = (n: number, origin = ORIGIN) => `${String(1_894_665_600_000 + n).padStart(15, '0')}-${String(n).padStart(6, '0')}-${origin}`;
const customerOp = (origin: string, seq: number, id: number, change: Record<string, unknown> | null): NewOpRow => ({
  origin,
  seq,
  hlc: stamp(seq, origin),
  entity: 'customers',
  entity_id: JSON.stringify([id]),
  kind: change === null ? 'delete' : 'update',
  change,
  schema: 1,
});
const customerRow = (id: number, more: Record<string, unknown> = {}) => ({ id, first_name: `Guest${id}`, last_name: 'Traveller', email: null, created_at: 1, updated_at: 2, ...more });

describe(`the sync store (${testDialect()})`, () => {
  it('knows its instance: origin, clock and the hub it follows', async () => {
    expect(stores.origin).toMatch(/\S/);
    expect((await read().instance()).origin).toBe(stores.origin);
    await write(async (q) => {
      await q.saveClock(41, stamp(41));
      await q.setHub(OTHER);
    });
    const instance = await read().instance();
    expect(instance).toMatchObject({ last_seq: 41, last_hlc: stamp(41), hub_origin: OTHER });
    expect(read().hubOriginNow()).toBe(OTHER);
    await write(async (q) => void (await q.setHub(null)));
    expect(read().hubOriginNow()).toBeNull();
  });

  it('stores ops and gives them back whole, paged by arrival', async () => {
    const ops = [
      customerOp(ORIGIN, 1, 101, { id: 101, first_name: 'Ada', email: null, phone: null }),
      customerOp(OTHER, 1, 102, { id: 102, first_name: 'Bo', last_name: 'Li' }),
      customerOp(ORIGIN, 2, 101, { email: 'ada@example.test' }),
      customerOp(OTHER, 2, 102, null),
    ];
    await write(async (q) => {
      for (const op of ops) await q.insertOp(op);
    });
    const all = await read().opsAfter(0, 100);
    expect(all.map((r) => `${r.origin}:${r.seq}`)).toEqual(['AAAA:1', 'BBBB:1', 'AAAA:2', 'BBBB:2']);
    const first = await read().opsAfter(0, 2);
    const rest = await read().opsAfter(first[1].arrival, 2);
    expect([...first, ...rest]).toEqual(all);
    expect(await read().opsAfter(all[3].arrival, 10)).toEqual([]);
    for (const [i, row] of all.entries()) {
      expect(row).toMatchObject({ origin: ops[i].origin, seq: ops[i].seq, hlc: ops[i].hlc, entity: 'customers', entity_id: ops[i].entity_id, kind: ops[i].kind });
      expect(read().changeOf(row)).toEqual(ops[i].change);
      expect(JSON.parse(read().changeJsonOf(row))).toEqual(ops[i].change);
      expect(read().changeJsonLengthOf(row)).toBe(read().changeJsonOf(row).length);
      expect(await read().arrivalOf(row.origin, row.seq)).toBe(row.arrival);
    }
    expect([...read().nullColumnsOf(all[0])].sort()).toEqual(['email', 'phone']);
    expect(JSON.parse(read().storedChangeJsonOf(all[0])!)).toEqual({ id: 101, first_name: 'Ada' });
    expect(read().storedChangeJsonOf(all[3])).toBeNull();
    expect(read().changeJsonOf(all[3])).toBe('null');
    expect(await read().opAt(ORIGIN, 2)).toEqual(all[2]);
    expect(await read().opAt(ORIGIN, 99)).toBeUndefined();
    expect(await read().arrivalOf(ORIGIN, 99)).toBeNull();
    expect((await read().opsOfEntity('customers', '[101]')).map((r) => r.seq).sort()).toEqual([1, 2]);
  });

  it('stores an op whose null columns are named apart, and rewrites a stored change', async () => {
    await write(async (q) => void (await q.insertOp({ ...customerOp(ORIGIN, 10, 110, { id: 110, first_name: 'Cy' }), nulls: ['email'] })));
    const row = (await read().opAt(ORIGIN, 10))!;
    expect(read().changeOf(row)).toEqual({ id: 110, first_name: 'Cy', email: null });
    await write(async (q) => void (await q.rewriteChange(row.arrival, { id: 110, first_name: null }, 'customers')));
    const rewritten = (await read().opAt(ORIGIN, 10))!;
    expect(read().changeOf(rewritten)).toEqual({ id: 110, first_name: null });
    expect(read().nullColumnsOf(rewritten)).toEqual(['first_name']);
  });

  it('keeps the vector per origin', async () => {
    await write(async (q) => {
      await q.setVector('CCCC', 3);
      await q.setVector('DDDD', 5);
      await q.setVector('CCCC', 7);
    });
    expect(await read().vector()).toMatchObject({ CCCC: 7, DDDD: 5 });
  });

  it('reads back row merge states as saved, and says which rows have one', async () => {
    const mixed = { clocks: { id: stamp(1), first_name: stamp(2, OTHER), 'a,b': stamp(1) }, born: stamp(1), deleted: stamp(3), erased: null };
    await write(async (q) => {
      await q.saveRowState('customers', '[201]', mixed);
      await q.saveInsertedRowState('customers', '[202]', ['id', 'first_name'], stamp(4));
    });
    expect(await read().rowState('customers', '[201]')).toEqual(mixed);
    expect(await read().rowState('customers', '[202]')).toEqual({ clocks: { id: stamp(4), first_name: stamp(4) }, born: stamp(4), deleted: null, erased: null });
    expect(await read().rowState('customers', '[203]')).toBeNull();
    expect(await read().withRowState('customers', ['[201]', '[202]', '[203]'])).toEqual(new Set(['[201]', '[202]']));
    const among = [{ entity: 'customers', entityId: '[202]' }, { entity: 'bookings', entityId: '[201]' }];
    expect(await read().withRowStateAmong(among)).toEqual(new Set(['customers [202]']));
  });

  it('writes new rows with their ops as their merge states, remote and own alike', async () => {
    const remote = [301, 302].map((id) => ({ op: { ...customerOp(OTHER, id, id, customerRow(id)), kind: 'insert' as const, change: customerRow(id) }, table: 'customers', pk: ['id'] }));
    await write(async (q) => {
      await q.pauseCapture();
      await q.insertNewRows(remote);
      await q.resumeCapture();
    });
    for (const id of [301, 302]) {
      expect(await read().readRow('customers', ['id'], [id])).toMatchObject({ id, first_name: `Guest${id}`, email: null, updated_at: 2 });
      const state = await read().rowState('customers', `[${id}]`);
      expect(state).toMatchObject({ born: stamp(id, OTHER), deleted: null, erased: null });
      expect(state!.clocks).toEqual(Object.fromEntries(Object.keys(customerRow(id)).map((c) => [c, stamp(id, OTHER)])));
    }
    const own = { ...customerOp(ORIGIN, 303, 303, customerRow(303)), kind: 'insert' as const };
    await write(async (q) => {
      await q.upsertRow('customers', ['id'], customerRow(303));
      await q.insertOwnNewRows([own]);
    });
    expect((await read().rowState('customers', '[303]'))?.born).toBe(stamp(303));
    expect(await read().withRowState('customers', ['[301]', '[303]', '[304]'])).toEqual(new Set(['[301]', '[303]']));
  });

  it('stores a write’s own new rows given together in their order, each op whole and each state its own', async () => {
    const last = (await read().opsAfter(0, 1_000_000)).at(-1)?.arrival ?? 0;
    const ids = [601, 602, 603];
    const { email: _, ...withoutEmail } = customerRow(603);
    const changes = [customerRow(601), customerRow(602, { email: 'b@example.test' }), withoutEmail];
    const ops: NewOpRow[] = ids.map((id, i) => ({ ...customerOp(ORIGIN, id, id, null), kind: 'insert', change: changes[i], write_continues: i < 2 ? 1 : null, ...(i === 2 ? { nulls: ['email'] } : {}) }));
    await write(async (q) => {
      for (const id of ids) await q.upsertRow('customers', ['id'], customerRow(id));
      await q.insertOwnNewRows(ops);
    });
    const stored = await read().opsAfter(last, 10);
    expect(stored.map((r) => [r.seq, r.kind, r.write_continues ?? null])).toEqual([[601, 'insert', 1], [602, 'insert', 1], [603, 'insert', null]]);
    expect(stored.map((r) => read().changeOf(r))).toEqual([customerRow(601), customerRow(602, { email: 'b@example.test' }), customerRow(603)]);
    for (const id of ids) {
      const state = await read().rowState('customers', `[${id}]`);
      expect(state).toMatchObject({ born: stamp(id), deleted: null, erased: null });
      expect(state!.clocks).toEqual(Object.fromEntries(Object.keys(customerRow(id)).map((c) => [c, stamp(id)])));
    }
  });

  it('reads, writes, deletes and pages the rows of a synced table', async () => {
    await write(async (q) => {
      for (const id of [403, 401, 402]) await q.upsertRow('customers', ['id'], customerRow(id, { not_a_column: 'x' }));
      await q.upsertRow('customers', ['id'], { id: 402, first_name: 'Renamed', created_at: 1, updated_at: 3 }, ['last_name']);
    });
    expect(await read().readRow('customers', ['id'], [402])).toMatchObject({ first_name: 'Renamed', last_name: null, updated_at: 3 });
    const page = (await read().rowsPage('customers', ['id'], 2, 0)).map((r) => r.id);
    const all = (await read().allRows('customers', ['id'])).map((r) => r.id);
    expect(all).toEqual([...all].sort((a, b) => Number(a) - Number(b)));
    expect(page).toEqual(all.slice(0, 2));
    expect(all).toEqual(expect.arrayContaining([401, 402, 403]));
    await write(async (q) => void (await q.deleteRow('customers', ['id'], [403])));
    expect(await read().readRow('customers', ['id'], [403])).toBeNull();
  });

  it('pages a table by key, composite keys too, and keeps a snapshot join\u2019s progress until cleared, undone with its transaction', async () => {
    await write(async (q) => {
      for (const id of [503, 501, 502]) await q.upsertRow('customers', ['id'], customerRow(id));
    });
    const ids = (rows: Record<string, unknown>[]) => rows.map((r) => r.id);
    const all = ids(await read().allRows('customers', ['id']));
    expect(ids(await read().rowsAfter('customers', ['id'], 2, null))).toEqual(all.slice(0, 2));
    expect(ids(await read().rowsAfter('customers', ['id'], 10, [501]))).toEqual(all.filter((id) => Number(id) > 501));
    // A composite key walks in its columns' order (rows made and read in one transaction, then rolled back).
    await expect(write(async (q) => {
      await q.deferForeignKeys();
      for (const [session_id, booking_set] of [[2, 'b'], [1, 'z'], [2, 'a'], [1, 'a']]) await q.upsertRow('sync_acknowledgements', ['session_id', 'booking_set'], { session_id, booking_set, acknowledged_at: 1 });
      const after = await q.rowsAfter('sync_acknowledgements', ['session_id', 'booking_set'], 10, [1, 'z']);
      expect(after.map((r) => [Number(r.session_id), r.booking_set])).toEqual([[2, 'a'], [2, 'b']]);
      throw new Error('rolled back');
    })).rejects.toThrow(/^rolled back$/);
    expect(await read().joinProgress()).toBeNull();
    await write(async (q) => void (await q.saveJoinProgress('{"origin":"HUB1"}')));
    await expect(write(async (q) => {
      await q.saveJoinProgress('{"origin":"HUB2"}');
      throw new Error('the page failed');
    })).rejects.toThrow(/the page failed/);
    expect(await read().joinProgress()).toBe('{"origin":"HUB1"}');
    await write(async (q) => void (await q.saveJoinProgress(null)));
    expect(await read().joinProgress()).toBeNull();
  });

  it('records captured changes unless paused, and drops them', async () => {
    await write(async (q) => void (await q.dropCapturesUpTo(await q.lastCaptureId())));
    await write(async (q) => {
      await q.upsertRow('customers', ['id'], customerRow(501));
      await q.pauseCapture();
      await q.upsertRow('customers', ['id'], customerRow(502));
      await q.resumeCapture();
      await q.upsertRow('customers', ['id'], customerRow(503));
    });
    const captures = await read().captures();
    expect(captures.map((c) => [c.tbl, c.pk])).toEqual([
      ['customers', '[501]'],
      ['customers', '[503]'],
    ]);
    expect(await read().lastCaptureId()).toBe(captures[1].id);
    await write(async (q) => void (await q.dropCapturesAfter(captures[0].id)));
    expect((await read().captures()).map((c) => c.pk)).toEqual(['[501]']);
    await write(async (q) => void (await q.dropCapturesUpTo(captures[0].id)));
    expect(await read().captures()).toEqual([]);
    expect(await read().lastCaptureId()).toBe(0);
  });

  it('begins a fold with the captures, the instance and capture paused, and ends it with the clock, the vector and nothing captured', async () => {
    await write(async (q) => void (await q.dropCapturesUpTo(await q.lastCaptureId())));
    const idle = await write(async (q) => {
      const begun = await q.beginFold();
      await q.upsertRow('customers', ['id'], customerRow(701)); // not paused: captured
      return begun;
    });
    expect(idle).toEqual({ captures: [], instance: null });
    expect((await read().captures()).map((c) => c.pk)).toEqual(['[701]']);
    const before = await read().instance();
    await write(async (q) => {
      await q.upsertRow('customers', ['id'], customerRow(702));
      const { captures, instance } = await q.beginFold();
      expect(captures.map((c) => [c.tbl, c.pk, c.new_json === null ? null : JSON.parse(c.new_json).id])).toEqual([['customers', '[701]', 701], ['customers', '[702]', 702]]);
      expect(instance).toEqual(before);
      await q.upsertRow('customers', ['id'], customerRow(703)); // paused: the fold's own correction
      expect((await q.captures()).map((c) => c.pk)).toEqual(['[701]', '[702]']);
      await q.endFold(stores.origin, before.last_seq + 2, stamp(before.last_seq + 2), true);
      await q.upsertRow('customers', ['id'], customerRow(704)); // resumed: captured
    });
    expect(await read().instance()).toMatchObject({ last_seq: before.last_seq + 2, last_hlc: stamp(before.last_seq + 2) });
    expect((await read().vector())[stores.origin]).toBe(before.last_seq + 2);
    expect((await read().captures()).map((c) => c.pk)).toEqual(['[704]']);
    await write(async (q) => void (await q.endFold(stores.origin, before.last_seq + 3, stamp(before.last_seq + 3), false)));
    expect((await read().vector())[stores.origin]).toBe(before.last_seq + 2);
    expect(await read().captures()).toEqual([]);
    await write(async (q) => void (await q.saveClock(before.last_seq, before.last_hlc)));
  });

  it('holds an op once and releases it', async () => {
    await write(async (q) => {
      await q.insertOp(customerOp(OTHER, 600, 600, { id: 600 }));
      await q.hold(OTHER, 600, '{"op":1}', 'newer schema');
      await q.hold(OTHER, 600, '{"op":2}', 'newer schema');
    });
    expect(await read().heldCount()).toBe(1);
    expect(await read().held()).toEqual([{ origin: OTHER, seq: 600, op_json: '{"op":1}' }]);
    await write(async (q) => void (await q.release(OTHER, 600)));
    expect(await read().heldCount()).toBe(0);
  });

  it('finds every customer a booking held, from its ops and from a snapshot’s links', async () => {
    const bookingOp: NewOpRow = { origin: OTHER, seq: 700, hlc: stamp(700, OTHER), entity: 'bookings', entity_id: '["B700"]', kind: 'update', change: { customer_id: 7 }, schema: 1 };
    await write(async (q) => {
      await q.insertOp(bookingOp);
      await q.linkBookingCustomers('B700', [8, 8]);
      await q.purgeJournal('7');
    });
    expect([...(await read().customersOfBooking('B700'))].sort()).toEqual([7, 8]);
    expect(await read().bookingsOfCustomer(7)).toEqual(['B700']);
    expect(await read().bookingsOfCustomer(8)).toEqual(['B700']);
    expect(await read().bookingsOfCustomer(9)).toEqual([]);
    expect(await read().bookingOfParticipant(999_999)).toBeNull();
    expect(await read().participantsOfBooking('B700')).toEqual([]);
  });
});
