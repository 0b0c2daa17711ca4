import type { DbHandle } from '../../db/connection';
import { canonicalJson, type Op, type WireOp } from './op';
import { SYNCED_ENTITIES, SYNCED_TABLES } from './entities';
import type { Vector } from './vector';
import { createReplicaCore } from './core';
import { fold } from './fold';
import { applyPage, releaseHeld } from './apply';
import { applySnapshotPage, type SnapshotCursor, type SnapshotRow } from './snapshot';
import { snapshotPageWithTombstones } from './snapshotTombstones';
import { opOfRow, pageRowsFor } from './paging';

/**
 * The replica: this data folder's side of sync, one apply path for every change (applyOp.ts):
 * - a local write's rows are captured by triggers; before its transaction commits, fold.ts turns
 *   them into ops of this origin and runs them through applyOp;
 * - a remote page goes through applyOp op by op in one transaction, with the vector advanced in
 *   that same transaction (apply.ts); a snapshot page likewise (snapshot.ts);
 * - the ops a peer lacks are read a page at a time (paging.ts) and encoded for it (wire.ts).
 */
export function createReplica(handle: DbHandle, now: () => number, options: { maxFutureMs?: number } = {}) {
  const core = createReplicaCore(handle, now, options);
  const { origin, outside } = core;
  const catalogueOwner = () => outside.hubOriginNow() ?? origin;
  const pageFor = async (theirs: Vector, limit: number, maxBytes: number, after?: number): Promise<{ ops: Op[]; cursor: number; hasMore: boolean }> => {
    const page = await pageRowsFor(outside, theirs, limit, maxBytes, after);
    return { ops: page.rows.map((row) => opOfRow(row, outside)), cursor: page.cursor, hasMore: page.hasMore };
  };
  return {
    origin,
    /** The store for reads outside a write transaction (a page served is encoded from its rows, wire.ts). */
    store: outside,
    catalogueOwner,
    /** True on a desk that follows a hub's catalogue (and so must not author one). */
    followsHub: () => catalogueOwner() !== origin,
    /**
     * Folds what the write transaction on `conn` captured into ops, inside it: every write's
     * beforeCommit (main/domain/context.ts), so a write and its ops commit or roll back together.
     */
    fold: async (conn: unknown): Promise<void> => void (await fold(core, core.storeAt(conn))),
    vector: async () => outside.vector(),
    heldCount: async () => outside.heldCount(),
    /** Held ops this build can now apply are applied (one transaction); answers how many. */
    releaseHeld: async (schema?: number) => ((await outside.heldCount()) === 0 ? 0 : core.inWrite((q) => releaseHeld(core, q, schema))),
    setHub: async (hub: string | null) => outside.setHub(hub),
    /**
     * Applies a page in one IMMEDIATE transaction (nothing awaited inside but the page itself).
     * `hubAheadMs`: how far the hub's clock, measured in this exchange, runs ahead of ours. The
     * hub's clock is the reference: a desk whose clock is slow still takes what the hub has
     * accepted, instead of refusing it as "from the future" and never syncing again.
     */
    apply: (ops: readonly WireOp[], hubAheadMs = 0) => core.inWrite((q) => applyPage(core, q, ops, hubAheadMs)),
    /** The ops `theirs` lacks, a page of them (paging.ts), as Ops. */
    pageFor,
    /** The same page as stored rows (the HTTP answer splices their change text as it is). */
    pageRowsFor: (theirs: Vector, limit: number, maxBytes: number, after?: number) => pageRowsFor(outside, theirs, limit, maxBytes, after),
    /** A page of the synced rows with their states, then of the tombstones (snapshotTombstones.ts). */
    snapshotPage: (from: SnapshotCursor, limit: number) => snapshotPageWithTombstones(handle.db, outside, from, limit),
    /**
     * Applies a snapshot page in one transaction, with the join's progress after it (`progress`, its
     * JSON: snapshotJoin.ts) or, on the last page (`vector`), the progress cleared: a join cut off
     * resumes after the last page that committed, never after one that did not.
     */
    applySnapshot: (rows: readonly SnapshotRow[], vector: Vector | null, progress: string | null = null) =>
      core.inWrite(async (q) => {
        await applySnapshotPage(core, q, rows, vector);
        await q.saveJoinProgress(vector ? null : progress);
      }),
    /** The snapshot join under way (its JSON), or null. */
    joinProgress: async () => outside.joinProgress(),
    /** Forgets a join under way (its peer is another now, or its rows cannot be taken). */
    forgetJoin: () => core.inWrite(async (q) => q.saveJoinProgress(null)),
    /** A fresh or wiped instance: nothing from any other origin yet (it joins from a snapshot). */
    isFresh: async () => Object.keys(await outside.vector()).every((o) => o === origin),
    /** Every synced row, in key order, as one text: equal on every instance after a full exchange. */
    async canonicalDump(): Promise<string> {
      const tables: Record<string, unknown> = {};
      for (const table of SYNCED_TABLES) tables[table] = await outside.allRows(table, SYNCED_ENTITIES[table].pk);
      return canonicalJson(tables);
    },
  };
}

export type Replica = ReturnType<typeof createReplica>;
