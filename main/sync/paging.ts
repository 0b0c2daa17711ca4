import type { OpRow, SyncStore } from '../../db/syncStore';
import type { Op } from './op';
import type { Vector } from './vector';

/** A page of stored op rows a peer lacks, with the cursor after it. */
export interface RowPage {
  rows: OpRow[];
  cursor: number;
  hasMore: boolean;
}

/**
 * The ops `theirs` lacks, in our arrival order, at most `limit` of them and about `maxBytes`;
 * `after` continues from a previous page's cursor. As stored rows (the HTTP answer splices
 * their change text as it is, instead of parsing and writing it again; wire.ts).
 */
export async function pageRowsFor(q: SyncStore, theirs: Vector, limit: number, maxBytes: number, after?: number): Promise<RowPage> {
  const cursor = after ?? (await firstMissingArrival(q, theirs));
  if (cursor === null) return { rows: [], cursor: 0, hasMore: false };
  return fillPage(q, theirs, limit, maxBytes, cursor);
}

/** The cursor just before the first op `theirs` lacks, or null when it lacks none. */
async function firstMissingArrival(q: SyncStore, theirs: Vector): Promise<number | null> {
  let cursor = Number.MAX_SAFE_INTEGER;
  for (const [o, seq] of Object.entries(await q.vector())) {
    if (seq <= (theirs[o] ?? 0)) continue;
    const arrival = await q.arrivalOf(o, (theirs[o] ?? 0) + 1);
    if (arrival !== null) cursor = Math.min(cursor, arrival - 1);
  }
  return cursor === Number.MAX_SAFE_INTEGER ? null : cursor;
}

async function fillPage(q: SyncStore, theirs: Vector, limit: number, maxBytes: number, start: number): Promise<RowPage> {
  let cursor = start;
  const page: OpRow[] = [];
  let bytes = 0;
  const sent: Vector = { ...theirs };
  // Origins whose write the page holds only part of so far, and the page as it last held none.
  const open = new Set<string>();
  let whole = { length: 0, cursor };
  for (;;) {
    // One row past the limit tells whether there is more, without reading a second batch.
    const rows = await q.opsAfter(cursor, Math.max(limit + 1, 200));
    if (rows.length === 0) return { rows: page, cursor, hasMore: false };
    for (const row of rows) {
      if (row.seq > (sent[row.origin] ?? 0)) {
        const size = q.changeJsonLengthOf(row) + 200; // as it goes out as a plain op, null columns included
        if (page.length >= limit || (page.length > 0 && bytes + size > maxBytes)) {
          // Full: end after the last whole write, unless one write alone fills the page.
          if (open.size > 0 && whole.length > 0) return { rows: page.slice(0, whole.length), cursor: whole.cursor, hasMore: true };
          return { rows: page, cursor, hasMore: true };
        }
        page.push(row);
        bytes += size;
        sent[row.origin] = row.seq;
        if (row.write_continues === 1) open.add(row.origin);
        else open.delete(row.origin);
        if (open.size === 0) whole = { length: page.length, cursor: row.arrival };
      }
      cursor = row.arrival;
    }
  }
}

/** A stored op row as an Op. */
export function opOfRow(row: OpRow, q: SyncStore): Op {
  const op: Op = { origin: row.origin, seq: row.seq, hlc: row.hlc, entity: row.entity, entityId: row.entity_id, kind: row.kind, change: q.changeOf(row), schema: row.schema };
  if (row.write_continues === 1) op.continues = true;
  return op;
}
