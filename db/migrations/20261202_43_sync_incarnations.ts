import { sql, type Kysely } from 'kysely';

/**
 * Restores that rejoin (issue 38, main/sync/incarnation.ts). An instance restored from a backup
 * takes a new origin (a new incarnation), so it never re-issues an op id its earlier self gave out.
 * - `sync_incarnations`: an earlier origin of an instance and the origin it is now (`successor`,
 *   always the latest: a chain is kept flat). Holds this instance's own earlier origins and those
 *   its peers told it of.
 * How a restore is noticed needs no column (a backup may predate this migration): settings rows
 * (main/sync/incarnation.ts). PostgreSQL gets the table (translated).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('CREATE TABLE sync_incarnations (origin TEXT NOT NULL PRIMARY KEY, successor TEXT NOT NULL, at INTEGER NOT NULL) WITHOUT ROWID, STRICT').execute(db);
  await sql.raw('CREATE INDEX sync_incarnations_successor ON sync_incarnations (successor)').execute(db);
}
