import type { SyncStore } from '../../db/syncStore';
import { createHlcClock, decodeHlc, encodeHlc } from './hlc';
import { keyOf } from './op';
import { SYNCED_ENTITIES, SYNCED_TABLES } from './entities';
import { isVisible, joinStates, materialize, type RowState } from './merge';
import type { Vector } from './vector';
import { fold } from './fold';
import type { ReplicaCore } from './core';

/** A row as a snapshot carries it, with its merge state. */
export interface SnapshotRow {
  table: string;
  row: Record<string, unknown>;
  state: { clocks: Record<string, string>; born: string | null; deleted: string | null; erased: string | null } | null;
  /** A booking's: the customers it held before the snapshot besides its current one (erasure reaches them). */
  customers?: number[];
}

/**
 * Where a snapshot page starts: the table (its index in SYNCED_TABLES; one past the last is the
 * tombstones) and, in it, the key of the last row taken (`after`), or for an older caller that sends
 * no key the count of rows taken (`offset`). A key is the safe cursor: rows the peer inserts or
 * deletes between pages (writes, deletes, compaction dropping tombstones) shift offsets, so a row
 * that was there before the join's vector could be skipped, and its op is not sent again after the
 * snapshot. By key, a row that changed meanwhile comes again as an op after the vector.
 */
export interface SnapshotCursor {
  table: number;
  offset: number;
  after?: (string | number)[];
}

/** One page of a snapshot: rows of the synced tables in parent-before-child order, each with its merge state. */
export async function snapshotPage(q: SyncStore, from: SnapshotCursor, limit: number): Promise<{ rows: SnapshotRow[]; next: SnapshotCursor | null }> {
  q.beginWork();
  const rows: SnapshotRow[] = [];
  let table = from.table;
  let at = from.offset;
  let after: (string | number)[] | null = from.after ?? null;
  while (table < SYNCED_TABLES.length && rows.length < limit) {
    const name = SYNCED_TABLES[table];
    const pk = SYNCED_ENTITIES[name].pk;
    // An older caller's offset, only where it sent no key (its first table); keys from there on.
    const page = after === null && at > 0 ? await q.rowsPage(name, pk, limit - rows.length, at) : await q.rowsAfter(name, pk, limit - rows.length, after);
    for (const row of page) {
      const entry: SnapshotRow = { table: name, row, state: await q.rowState(name, keyOf(pk.map((c) => row[c]))) };
      // The customers a booking ever held, which its ops (not sent) would tell: erasure needs them.
      if (name === 'bookings') {
        const customers = (await q.customersOfBooking(String(row.order_number))).filter((id) => id !== row.customer_id);
        if (customers.length > 0) entry.customers = customers;
      }
      rows.push(entry);
    }
    at += page.length;
    if (page.length > 0) after = pk.map((c) => page[page.length - 1][c] as string | number);
    if (rows.length < limit) {
      table++;
      at = 0;
      after = null;
    }
  }
  return { rows, next: table < SYNCED_TABLES.length ? { table, offset: at, ...(after ? { after } : {}) } : null };
}

/**
 * Applies one snapshot page in the caller's transaction: rows and merge states as the peer has
 * them. With `vector` (the last page), the vector the snapshot was taken at is adopted, so the
 * exchange that follows sends only what changed since; ops changed meanwhile merge as joins.
 */
export async function applySnapshotPage(core: ReplicaCore, q: SyncStore, rows: readonly SnapshotRow[], vector: Vector | null): Promise<void> {
  await fold(core, q);
  await q.deferForeignKeys();
  await q.pauseCapture(); // the snapshot's rows are the peer's ops, not ours
  let latest: string | null = null;
  for (const snapshotRow of rows) {
    const stamp = await applySnapshotRow(q, snapshotRow);
    if (stamp !== null && (latest === null || stamp > latest)) latest = stamp;
  }
  if (latest) {
    // The peer's stamps are history here: our clock moves past them (never refused: we asked for them).
    const instance = await q.instance();
    const clock = createHlcClock({ origin: core.origin, now: core.now, last: instance.last_hlc ? decodeHlc(instance.last_hlc) : null, maxFutureMs: Number.MAX_SAFE_INTEGER });
    clock.receive(decodeHlc(latest));
    await q.saveClock(instance.last_seq, encodeHlc(clock.last()));
  }
  await q.resumeCapture();
  await q.dropCapturesUpTo(await q.lastCaptureId());
  if (vector) {
    const ours = await q.vector();
    for (const [o, s] of Object.entries(vector)) if (o !== core.origin && s > (ours[o] ?? 0)) await q.setVector(o, s);
  }
}

/** Writes one snapshot row and its merge state; answers the latest stamp its state holds (null: none). */
async function applySnapshotRow(q: SyncStore, { table, row, state, customers }: SnapshotRow): Promise<string | null> {
  const entity = SYNCED_ENTITIES[table];
  if (!entity) return null;
  const key = keyOf(entity.pk.map((c) => row[c]));
  // The customers the snapshot's booking held (its current one included): they stand for the
  // booking's ops before the snapshot, which an erasure arriving later looks through.
  if (table === 'bookings') {
    const held = [...(customers ?? []), ...(typeof row.customer_id === 'number' ? [row.customer_id] : [])];
    if (held.length > 0) await q.linkBookingCustomers(String(row.order_number), held);
  }
  const stored = await q.rowState(table, key);
  if (!state) {
    if (!stored) await q.upsertRow(table, entity.pk, row);
    return null;
  }
  let latest: string | null = null;
  for (const stamp of [state.born, state.deleted, ...Object.values(state.clocks)]) if (stamp && (latest === null || stamp > latest)) latest = stamp;
  const theirs: RowState = { values: row, ...state };
  const current = await q.readRow(table, entity.pk, entity.pk.map((c) => row[c]));
  // Our own writes to the row (if any) join with the snapshot's, as their ops would have.
  const next = stored ? joinStates({ values: current ?? {}, ...stored }, theirs, entity.rule) : theirs;
  await q.saveRowState(table, key, next);
  const desired = isVisible(next, entity.rule) ? materialize(next, entity.rule) : null;
  if (desired === null) {
    if (current) await q.deleteRow(table, entity.pk, entity.pk.map((c) => row[c]));
  } else await q.upsertRow(table, entity.pk, desired);
  return latest;
}
