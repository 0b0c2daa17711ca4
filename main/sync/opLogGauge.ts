import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { opLogSize } from '../../db/queries/syncCompaction';
import { opLogMarks, opsArrivedAfter } from '../../db/queries/syncOpLogMarks';

/*
 * The op log's size as GET /v1/sync/status answers it. Measuring reads every page of sync_op_rows
 * and its indexes on SQLite (dbstat) and counts every op: on a season's log that is a walk of hundreds
 * of megabytes per call, and Settings asks every few seconds. So a measure is kept, and what happened
 * since is read from two index lookups: ops appended since are counted exactly (a range of the
 * arrival key) and their bytes estimated at the measured bytes per op; a compaction (here or by
 * `tourdesk compact` in another process) shows in the compaction floors and brings a new measure.
 */

/** Ops held and the bytes they take. */
export interface OpLog {
  ops: number;
  bytes: number;
}

/** A measure is taken again after this long whatever the marks say (an erasure's rewrites change bytes, not marks). */
export const REMEASURE_AFTER_MS = 10 * 60_000;
/** ...or once the log grew by more than this share of what was measured, so the estimate's drift stays small. */
export const REMEASURE_GROWTH = 0.25;

interface Measure {
  size: OpLog;
  lastArrival: number;
  compacted: number;
  at: number;
}

export function opLogGauge(db: Kysely<Database>, now: () => number, measure: (db: Kysely<Database>) => Promise<OpLog> = opLogSize) {
  let kept: Measure | null = null;

  async function take(): Promise<OpLog> {
    const before = await opLogMarks(db);
    const size = await measure(db);
    const after = await opLogMarks(db);
    // A write between the marks and the measure: the measure is right but not which ops it counted; kept next time.
    kept = before.lastArrival === after.lastArrival && before.compacted === after.compacted ? { size, ...after, at: now() } : null;
    return size;
  }

  return {
    async read(): Promise<OpLog> {
      if (kept === null || now() - kept.at >= REMEASURE_AFTER_MS) return take();
      const marks = await opLogMarks(db);
      if (marks.compacted !== kept.compacted || marks.lastArrival < kept.lastArrival) return take();
      if (marks.lastArrival === kept.lastArrival) return kept.size;
      const grown = await opsArrivedAfter(db, kept.lastArrival);
      if (kept.size.ops === 0 || grown > kept.size.ops * REMEASURE_GROWTH) return take();
      return { ops: kept.size.ops + grown, bytes: Math.round(kept.size.bytes + (grown * kept.size.bytes) / kept.size.ops) };
    },
    /** The next read measures again (after this process compacted, say). */
    forget(): void {
      kept = null;
    },
  };
}
