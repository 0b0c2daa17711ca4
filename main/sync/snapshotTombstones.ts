import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { SyncStore } from '../../db/syncStore';
import { tombstonesPage } from '../../db/queries/syncCompaction';
import { tombstonesAfter } from '../../db/queries/syncSnapshot';
import { SYNCED_ENTITIES, SYNCED_TABLES } from './entities';
import { snapshotPage, type SnapshotCursor, type SnapshotRow } from './snapshot';

type Page = { rows: SnapshotRow[]; next: SnapshotCursor | null };

/**
 * A snapshot page, and after the tables' rows the tombstones of deleted rows (the table index past
 * the last table). A fresh desk needs them for ops that arrive late; a desk rejoining after
 * compaction (compaction.ts) needs them to delete what was deleted while it was away, since the
 * delete's op may be gone. A tombstone carries its row's key and its insert, delete and erasure
 * stamps, no column stamps: joined with the desk's state it keeps the desk's columns and deletes the
 * row unless the desk inserted it again later.
 */
export async function snapshotPageWithTombstones(db: Kysely<Database>, q: SyncStore, from: SnapshotCursor, limit: number): Promise<Page> {
  if (from.table < SYNCED_TABLES.length) {
    const page = await snapshotPage(q, from, limit);
    return page.next === null ? { rows: page.rows, next: { table: SYNCED_TABLES.length, offset: 0 } } : page;
  }
  const after = from.after ? ([String(from.after[0]), String(from.after[1])] as const) : null;
  // An older caller's offset only where it sent no key; a key cannot skip a tombstone compaction dropped meanwhile.
  const stones = after === null && from.offset > 0 ? await tombstonesPage(db, limit, from.offset) : await tombstonesAfter(db, limit, after);
  const rows: SnapshotRow[] = [];
  for (const t of stones) {
    const entity = SYNCED_ENTITIES[t.entity];
    if (!entity) continue;
    const key = JSON.parse(t.entity_id) as unknown[];
    rows.push({ table: t.entity, row: Object.fromEntries(entity.pk.map((c, i) => [c, key[i]])), state: { clocks: {}, born: t.born, deleted: t.deleted, erased: t.erased } });
  }
  const last = stones.at(-1);
  return { rows, next: stones.length < limit || !last ? null : { table: from.table, offset: from.offset + stones.length, after: [last.entity, last.entity_id] } };
}
