import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema';
import { isPostgres } from '../dialect';
import { keyColumnsSql } from './sync/rowKeys';

/*
 * The op log's compaction (main/sync/compaction.ts says what may go): who holds which ops, what was
 * removed per origin, the log's size, and the removal itself. Both dialects.
 */

/** An instance this one exchanges with, and the vector it last said it holds (null: not said yet). */
export interface Holder {
  origin: string;
  vector: Record<string, number> | null;
}

const vectorOf = (text: string | null) => (text === null ? null : (JSON.parse(text) as Record<string, number>));

/**
 * Every instance whose ops compaction must wait for: this instance's peers (their vector as last
 * heard) and the instances that sync here and are not forgotten (their vector as they last said).
 */
export async function holders(db: Kysely<Database>): Promise<Holder[]> {
  const peers = await db.selectFrom('sync_peers').select(['peer_origin', 'peer_vector']).execute();
  const seen = await db.selectFrom('sync_instances').select(['origin', 'vector_json']).where('last_seen_at', 'is not', null).where('forgotten_at', 'is', null).execute();
  return [
    ...peers.map((p) => ({ origin: p.peer_origin ?? '', vector: vectorOf(p.peer_vector) })),
    ...seen.map((s) => ({ origin: s.origin, vector: vectorOf(s.vector_json) })),
  ];
}

/** An instance that syncs here said it holds `vector` (its pull). */
export async function recordHolderVector(db: Kysely<Database>, origin: string, vector: Record<string, number>): Promise<void> {
  await db.updateTable('sync_instances').set({ vector_json: JSON.stringify(vector) }).where('origin', '=', origin).execute();
}

/** Per origin, the highest seq whose op was removed here (none: nothing removed). */
export async function compactedFloors(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db.selectFrom('sync_compacted').select(['origin', 'seq']).execute();
  return Object.fromEntries(rows.map((r) => [r.origin, Number(r.seq)]));
}

/** Per origin, the lowest seq held back for a newer schema (kept: it is not applied yet). */
export async function lowestHeld(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db.selectFrom('sync_held').select(['origin', (eb) => eb.fn.min('seq').as('seq')]).groupBy('origin').execute();
  return Object.fromEntries(rows.map((r) => [r.origin, Number(r.seq)]));
}

/** Ops held and the bytes they take: SQLite's pages of sync_op_rows and its indexes (dbstat; sync_ops is its view there), PostgreSQL's relation size. */
export async function opLogSize(db: Kysely<Database>): Promise<{ ops: number; bytes: number }> {
  if (isPostgres(db)) {
    const count = await db.selectFrom('sync_ops').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    const bytes = await sql<{ bytes: string }>`SELECT pg_total_relation_size('sync_ops') AS bytes`.execute(db);
    return { ops: Number(count.n), bytes: Number(bytes.rows[0]?.bytes ?? 0) };
  }
  const count = await sql<{ n: number }>`SELECT count(*) AS n FROM sync_op_rows`.execute(db);
  const bytes = await sql<{ bytes: number | null }>`SELECT sum(pgsize) AS bytes FROM dbstat WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name = 'sync_op_rows')`.execute(db);
  return { ops: Number(count.rows[0]?.n ?? 0), bytes: Number(bytes.rows[0]?.bytes ?? 0) };
}

/** Which ops of `origin` compaction takes: up to `maxSeq`, stamped before `beforeWall` (ms). */
export interface CompactRange {
  origin: string;
  maxSeq: number;
  beforeWall: number;
}

/** A stamp's leading wall-clock digits (hlc.ts): every stamp of an earlier millisecond sorts before it. */
const wallPrefix = (wall: number) => String(Math.max(0, Math.floor(wall))).padStart(15, '0');

/** SQLite: rows in the range whose merge state is their insert op (row_state = 1) and nowhere else (sync_rows keyed as rowKeys.ts keys it). */
export async function stateOpsIn(conn: Kysely<Database>, range: CompactRange): Promise<{ entity: string; entity_id: string }[]> {
  if (isPostgres(conn)) return []; // the hub on PostgreSQL always writes sync_rows
  const k = keyColumnsSql('o.entity_id', 'e.key_ints');
  const result = await sql<{ entity: string; entity_id: string }>`
    SELECT o.entity, o.entity_id FROM sync_ops o LEFT JOIN sync_entities e ON e.name = o.entity
    WHERE o.origin = ${range.origin} AND o.seq <= ${range.maxSeq} AND o.hlc < ${wallPrefix(range.beforeWall)} AND o.row_state = 1
      AND NOT EXISTS (SELECT 1 FROM sync_rows r WHERE r.entity = e.no AND r.k1 = ${sql.raw(k.k1)} AND r.k2 = ${sql.raw(k.k2)} AND r.key = ${sql.raw(k.key)})`.execute(conn);
  return result.rows;
}

/**
 * Removes the range's ops, in the caller's transaction: first the customers its bookings' ops name
 * are kept in sync_booking_customers (erasure reads a booking's past customers from its ops), then
 * the ops go and the origin's floor rises. Answers how many went.
 */
export async function removeOps(conn: Kysely<Database>, range: CompactRange): Promise<number> {
  const { origin, maxSeq } = range;
  const before = wallPrefix(range.beforeWall);
  const last = await sql<{ seq: number | string | null }>`SELECT max(seq) AS seq FROM sync_ops WHERE origin = ${origin} AND seq <= ${maxSeq} AND hlc < ${before}`.execute(conn);
  const top = last.rows[0]?.seq;
  if (top === null || top === undefined) return 0;
  await (isPostgres(conn)
    ? sql`INSERT INTO sync_booking_customers (order_number, customer_id)
          SELECT entity_id::json ->> 0, (change_json::json ->> 'customer_id')::bigint FROM sync_ops
          WHERE entity = 'bookings' AND origin = ${origin} AND seq <= ${maxSeq} AND hlc < ${before} AND change_json::json ->> 'customer_id' IS NOT NULL
          ON CONFLICT DO NOTHING`
    : sql`INSERT OR IGNORE INTO sync_booking_customers (order_number, customer_id)
          SELECT json_extract(entity_id, '$[0]'), json_extract(change_json, '$.customer_id') FROM sync_ops
          WHERE entity = 'bookings' AND origin = ${origin} AND seq <= ${maxSeq} AND hlc < ${before} AND json_extract(change_json, '$.customer_id') IS NOT NULL`
  ).execute(conn);
  // On SQLite sync_ops is a view whose deletes a trigger makes (not counted): the rows go from sync_op_rows, by the origin's number.
  const removed = isPostgres(conn)
    ? Number((await conn.deleteFrom('sync_ops').where('origin', '=', origin).where('seq', '<=', maxSeq).where('hlc', '<', before).executeTakeFirst()).numDeletedRows)
    : Number((await sql`DELETE FROM sync_op_rows WHERE origin = (SELECT no FROM sync_origins WHERE origin = ${origin}) AND seq <= ${maxSeq} AND hlc < ${before}`.execute(conn)).numAffectedRows ?? 0);
  await conn
    .insertInto('sync_compacted')
    .values({ origin, seq: Number(top) })
    .onConflict((oc) => oc.column('origin').doUpdateSet({ seq: sql<number>`CASE WHEN excluded.seq > sync_compacted.seq THEN excluded.seq ELSE sync_compacted.seq END` }))
    .execute();
  return removed;
}

/** A row deleted for good (its tombstone after its latest insert): its key and its state's stamps. */
export interface Tombstone {
  entity: string;
  entity_id: string;
  born: string | null;
  deleted: string;
  erased: string | null;
}

/** Merge states by entity name and key text: PostgreSQL's sync_rows, SQLite's view of its numbered one (migration 20261205_11). */
export const statesByName = (db: Kysely<Database>) => (isPostgres(db) ? ('sync_rows' as const) : ('sync_row_names' as const));

/** A page of the tombstones of deleted rows, in key order (a snapshot carries them after the rows). */
export async function tombstonesPage(db: Kysely<Database>, limit: number, offset: number): Promise<Tombstone[]> {
  const rows = await db
    .selectFrom(statesByName(db))
    .select(['entity', 'entity_id', 'born', 'deleted', 'erased'])
    .where('deleted', 'is not', null)
    .where((eb) => eb.or([eb('born', 'is', null), eb('born', '<=', eb.ref('deleted'))]))
    .orderBy('entity')
    .orderBy('entity_id')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows as Tombstone[];
}
