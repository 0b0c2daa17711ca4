import { SNAPSHOT_PAGE_ROWS, type SnapshotRequest } from '../contract/sync';
import { SCHEMA_VERSION } from './core';
import { checkPeer, type LocalSide } from './peers';
import type { SnapshotCursor } from './snapshot';
import type { Vector } from './vector';
import type { SnapshotResponse } from './wire';

/**
 * A join's progress, kept in the same transaction as the page it follows (replica.applySnapshot):
 * which peer (its origin: a restored peer is a new incarnation with a new origin), the vector of the
 * join's first page (what the rows include; ops after it come with the exchange after the join), the
 * cursor of the next page and the rows taken so far. A join cut off (a dropped link, a killed
 * process) resumes there instead of starting over, so a flaky link that lets a few pages through per
 * attempt still finishes.
 */
export interface JoinProgress {
  origin: string;
  vector: Vector;
  next: SnapshotCursor;
  rows: number;
}

const START: SnapshotCursor = { table: 0, offset: 0 };

function progressOf(json: string | null): JoinProgress | null {
  if (json === null) return null;
  try {
    const p = JSON.parse(json) as JoinProgress;
    return typeof p.origin === 'string' && p.vector && p.next && typeof p.next.table === 'number' ? p : null;
  } catch {
    return null; // unreadable: start over
  }
}

export interface SnapshotTransport {
  snapshot(request: SnapshotRequest): Promise<SnapshotResponse>;
}

/**
 * A fresh or wiped instance joins from the peer's snapshot: rows and merge states page by page,
 * then the vector of the first page (ops after it come with the normal exchange). A join under way
 * with the same peer (same origin) resumes where it stopped; with another, or a restored one, it
 * starts over. Answers the rows taken (resumed ones included).
 */
export async function joinFromSnapshot(side: LocalSide, transport: SnapshotTransport, caller: Omit<SnapshotRequest, 'table' | 'offset' | 'after' | 'limit'>, onProgress: (line: string) => void, onRows: (rows: number) => void): Promise<number> {
  let kept = progressOf(await side.replica.joinProgress());
  let cursor = kept?.next ?? START;
  let vector: Vector | null = kept?.vector ?? null;
  let rows = kept?.rows ?? 0;
  if (kept) onProgress(`snapshot: resuming after ${rows} rows taken`);
  for (;;) {
    const page = await transport.snapshot({ ...caller, table: cursor.table, offset: cursor.offset, ...(cursor.after ? { after: cursor.after } : {}), limit: SNAPSHOT_PAGE_ROWS });
    checkPeer(side, page);
    await side.onPeerHello?.(page);
    // Only the hub's snapshot is taken: a hub (or a desk) never takes a desk's rows whole. A newer
    // schema's rows cannot be taken whole: the op log, which holds what it cannot apply, brings them.
    if (page.origin !== side.replica.catalogueOwner() || page.schema.max > SCHEMA_VERSION) {
      if (kept) await side.replica.forgetJoin();
      return rows;
    }
    if (kept && kept.origin !== page.origin) {
      // Another peer, or the same one restored (a new origin): its rows after our cursor are not the
      // rest of the join we began. Start over (the page just fetched was from the old cursor).
      onProgress(`snapshot: ${page.origin} is not the peer the join began with; starting it over`);
      kept = null;
      [cursor, vector, rows] = [START, null, 0];
      continue;
    }
    vector ??= page.vector;
    const taken = rows + page.rows.length;
    const progress: JoinProgress | null = page.next === null ? null : { origin: page.origin, vector, next: page.next, rows: taken };
    await side.replica.applySnapshot(page.rows, page.next === null ? vector : null, progress && JSON.stringify(progress));
    kept = progress;
    rows = taken;
    onRows(rows);
    if (page.next === null) return rows;
    onProgress(`snapshot: ${rows} rows taken`);
    cursor = page.next;
  }
}
