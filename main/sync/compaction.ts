import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { SyncStore } from '../../db/syncStore';
import { inWriteTransaction } from '../../db/transaction';
import { compactedFloors, holders, lowestHeld, opLogSize, removeOps, stateOpsIn, type CompactRange, type Holder } from '../../db/queries/syncCompaction';
import type { Vector } from './vector';

/**
 * A bounded op log. An op is needed while some instance may still ask for it: one that syncs with
 * this one and lacks it, or a restored one that lost it (the horizon gives an operator that long to
 * restore a backup and have the peers re-send). So an op goes when every known instance holds it
 * (this instance's peers by the vector they last answered, the instances that sync here by the
 * vector they last pulled with, each holding all of its own) and its stamp is older than the
 * horizon. Nothing of a row is lost with its ops: merges read a row's state (sync_rows: its column
 * stamps, insert and tombstone), never its history; a row whose state was its insert op gets its
 * sync_rows entry first, and a booking's customers are kept for erasure (sync_booking_customers).
 * An instance further behind than what was removed rejoins from the hub's snapshot (serving.ts
 * answers its pull with `rejoin`; exchange.ts takes the snapshot and pulls again).
 */

export const DEFAULT_HORIZON_DAYS = 30;
export const DAY_MS = 86_400_000;

export interface OpLogSize {
  ops: number;
  bytes: number;
}

export interface CompactionResult {
  removed: number;
  before: OpLogSize;
  after: OpLogSize;
}

/**
 * Per origin, the highest seq every holder has: the lowest of their vectors (an instance holds all
 * of its own ops). No holder: nothing (the first peer to come needs everything).
 */
export function heldByAll(ours: Vector, known: readonly Holder[]): Vector {
  const result: Vector = {};
  if (known.length === 0) return result;
  for (const [origin, seq] of Object.entries(ours)) {
    let low = seq;
    for (const h of known) if (h.origin !== origin) low = Math.min(low, h.vector?.[origin] ?? 0);
    if (low > 0) result[origin] = low;
  }
  return result;
}

/** What may go, per origin: held by all, below any op held back for a newer schema, stamped before the horizon. */
export async function compactionRanges(db: Kysely<Database>, ours: Vector, now: number, horizonMs: number): Promise<CompactRange[]> {
  const all = heldByAll(ours, await holders(db));
  const held = await lowestHeld(db);
  const ranges: CompactRange[] = [];
  for (const [origin, seq] of Object.entries(all)) {
    const maxSeq = held[origin] === undefined ? seq : Math.min(seq, held[origin] - 1);
    if (maxSeq > 0) ranges.push({ origin, maxSeq, beforeWall: now - horizonMs });
  }
  return ranges;
}

/**
 * Compacts the op log now, in one write transaction; answers the ops removed and the log's size
 * before and after. `store`: SQLite's store (one connection: the transaction's too), which writes the
 * sync_rows entry of a row whose state was its insert op; unused on PostgreSQL.
 */
export async function compactOpLog(db: Kysely<Database>, store: SyncStore, ours: Vector, now: number, horizonMs: number): Promise<CompactionResult> {
  const before = await opLogSize(db);
  const ranges = await compactionRanges(db, ours, now, horizonMs);
  let removed = 0;
  if (ranges.length > 0) {
    removed = await inWriteTransaction(db, async (conn) => {
      store.beginWork();
      let count = 0;
      for (const range of ranges) {
        for (const { entity, entity_id } of await stateOpsIn(conn, range)) {
          const state = await store.rowState(entity, entity_id);
          if (state) await store.saveRowState(entity, entity_id, state);
        }
        count += await removeOps(conn, range);
      }
      return count;
    });
  }
  return { removed, before, after: removed === 0 ? before : await opLogSize(db) };
}

/**
 * Whether a caller holding `theirs` lacks ops removed here (other than its own, which it holds):
 * the ops cannot bring it up to date, its hub's snapshot can.
 */
export async function isBehindCompaction(db: Kysely<Database>, caller: string, theirs: Vector): Promise<boolean> {
  const floors = await compactedFloors(db);
  return Object.entries(floors).some(([origin, seq]) => origin !== caller && seq > (theirs[origin] ?? 0));
}

/** "removed 1200 ops; op log 2.1 MB -> 0.4 MB (3400 -> 2200 ops)" */
export function compactionLine(result: CompactionResult): string {
  const mb = (bytes: number) => (bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} kB`);
  return `removed ${result.removed} ops; op log ${mb(result.before.bytes)} -> ${mb(result.after.bytes)} (${result.before.ops} -> ${result.after.ops} ops)`;
}

/**
 * `serve` compacts once a day (as it backs up), first an hour after it starts; a failure is said
 * and tried again the next day. Answers a stop.
 */
export function startDailyCompaction(compact: () => Promise<CompactionResult>, say: (line: string) => void, everyMs = DAY_MS, firstMs = 3_600_000): { stop(): void } {
  const run = () => compact().then((result) => say(`Op log compacted: ${compactionLine(result)}`), (error: unknown) => say(`Op log compaction failed: ${error instanceof Error ? error.message : String(error)}`));
  const first = setTimeout(run, firstMs);
  const daily = setInterval(run, everyMs);
  first.unref();
  daily.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(daily);
    },
  };
}

/** `--compact-horizon-days` (serve, compact): a whole number of days, 30 by default. */
export function horizonDaysOf(text: string | undefined): number | null {
  if (text === undefined) return DEFAULT_HORIZON_DAYS;
  return /^\d{1,4}$/.test(text) ? Number(text) : null;
}
