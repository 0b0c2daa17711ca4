import { sql, type Kysely } from 'kysely';

/**
 * A bounded op log (issue 38): ops every known peer holds and older than the horizon are removed
 * (main/sync/compaction.ts).
 * - `sync_instances.vector_json`: the version vector an instance that syncs here last said it holds
 *   (its first pull page of an exchange); compaction keeps every op one of them lacks.
 * - `sync_compacted`: per origin, the highest seq whose op was removed here. A peer whose vector is
 *   below it cannot be brought up to date from the ops: it rejoins from the hub's snapshot.
 * PostgreSQL gets both (translated).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE sync_instances ADD COLUMN vector_json TEXT').execute(db);
  await sql.raw('CREATE TABLE sync_compacted (origin TEXT NOT NULL PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID, STRICT').execute(db);
}
