import { sql, type Kysely } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { Database } from '../schema';
import { isPostgres } from '../dialect';

/*
 * Incarnations (main/sync/incarnation.ts says why): how a restore is noticed, the new origin it
 * takes, and which origins were earlier selves of which. Both dialects unless said.
 */

/** SQLite: the settings row `tourdesk restore` leaves in the restored database. */
export const RESTORE_PENDING = 'sync_restore_pending';
/** PostgreSQL: the oid of sync_instance at the last start (pg_restore --clean makes the table anew). */
export const TABLE_MARK = 'sync_instance_oid';

/** `tourdesk restore`, on the restored copy before it is put in place (any schema: settings is in the first). */
export function markRestored(sqlite: BetterSqlite3.Database, at: number): void {
  sqlite.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(RESTORE_PENDING, String(at));
}

/** What says this database was restored: the pending mark (SQLite), or the table's oid against the one kept (PostgreSQL). */
export async function restoreSigns(db: Kysely<Database>): Promise<{ pending: boolean; tableMark: string | null; keptMark: string | null }> {
  const kept = async (key: string) => (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value ?? null;
  if (!isPostgres(db)) return { pending: (await kept(RESTORE_PENDING)) !== null, tableMark: null, keptMark: null };
  const oid = await sql<{ oid: string }>`SELECT 'sync_instance'::regclass::oid::text AS oid`.execute(db);
  return { pending: false, tableMark: oid.rows[0].oid, keptMark: await kept(TABLE_MARK) };
}

/** Keeps the table's oid (PostgreSQL), as of this start. */
export async function keepTableMark(db: Kysely<Database>, mark: string): Promise<void> {
  await db.insertInto('settings').values({ key: TABLE_MARK, value: mark }).onConflict((oc) => oc.column('key').doUpdateSet({ value: mark })).execute();
}

/**
 * In the caller's write transaction: this instance becomes `origin` (its op sequence starts again
 * under it), its earlier origins are recorded as earlier selves, the id and order-number sequences
 * jump by the margins, and the restore marks go. Answers the origin it was.
 */
export async function takeIncarnation(conn: Kysely<Database>, next: { origin: string; at: number; idMargin: number; orderMargin: number; tableMark: string | null }): Promise<string> {
  const { origin: was } = await conn.selectFrom('sync_instance').select('origin').where('id', '=', 1).executeTakeFirstOrThrow();
  await recordSuccession(conn, was, next.origin, next.at);
  // PostgreSQL: every origin a hub process wrote under goes too (migration 20261207_21), an earlier self like the hub's own.
  if (isPostgres(conn)) {
    const { rows } = await sql<{ origin: string }>`DELETE FROM hub_origins RETURNING origin`.execute(conn);
    for (const { origin } of rows) await recordSuccession(conn, origin, next.origin, next.at);
  }
  await conn.updateTable('sync_instance').set({ origin: next.origin, last_seq: 0 }).where('id', '=', 1).execute();
  await conn.updateTable('sequences').set({ value: sql<number>`value + ${next.idMargin}` }).where('name', '=', 'global').execute();
  await conn.updateTable('sequences').set({ value: sql<number>`value + ${next.orderMargin}` }).where('name', '=', 'order').execute();
  await conn.deleteFrom('settings').where('key', '=', RESTORE_PENDING).execute();
  if (next.tableMark !== null) await keepTableMark(conn, next.tableMark);
  return was;
}

/** The instance's origin and the hub it follows, as the database holds them now. */
export async function syncIdentity(db: Kysely<Database>): Promise<{ origin: string; hubOrigin: string | null }> {
  const row = await db.selectFrom('sync_instance').select(['origin', 'hub_origin']).where('id', '=', 1).executeTakeFirstOrThrow();
  return { origin: row.origin, hubOrigin: row.hub_origin };
}

/** `earlier` was an earlier self of `successor`: every earlier self of `earlier` is one of `successor` too (the chain stays flat). */
export async function recordSuccession(db: Kysely<Database>, earlier: string, successor: string, at: number): Promise<void> {
  if (earlier === successor) return;
  await db.updateTable('sync_incarnations').set({ successor }).where('successor', '=', earlier).execute();
  await db.insertInto('sync_incarnations').values({ origin: earlier, successor, at }).onConflict((oc) => oc.column('origin').doUpdateSet({ successor })).execute();
}

/** The earlier origins of the instance that is `origin` now. */
export async function earlierOrigins(db: Kysely<Database>, origin: string): Promise<string[]> {
  return (await db.selectFrom('sync_incarnations').select('origin').where('successor', '=', origin).execute()).map((r) => r.origin);
}

/** An instance that syncs here came back as a new incarnation: its earlier self no longer holds compaction back nor shows in lists. */
export async function retireEarlierSelf(db: Kysely<Database>, earlier: string, at: number): Promise<void> {
  await db.updateTable('sync_instances').set({ forgotten_at: at }).where('origin', '=', earlier).where('forgotten_at', 'is', null).execute();
}

/** A peer answered as a new incarnation: its row is kept under its new origin. */
export async function movePeerOrigin(db: Kysely<Database>, url: string, origin: string): Promise<void> {
  await db.updateTable('sync_peers').set({ peer_origin: origin }).where('url', '=', url).execute();
}

/** What the data folder's mark records (main/sync/incarnationMark.ts): the origin, its last op sequence, and the vector. */
export async function markState(db: Kysely<Database>): Promise<{ origin: string; lastSeq: number; vector: Record<string, number> }> {
  const row = await db.selectFrom('sync_instance').select(['origin', 'last_seq']).where('id', '=', 1).executeTakeFirstOrThrow();
  const vector = await db.selectFrom('sync_vector').select(['origin', 'seq']).execute();
  return { origin: row.origin, lastSeq: Number(row.last_seq), vector: Object.fromEntries(vector.map((v) => [v.origin, Number(v.seq)])) };
}
