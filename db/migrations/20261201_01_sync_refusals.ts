import { sql, type Kysely } from 'kysely';

/**
 * `sync_refusals`: the last refusal this instance gave each caller's pull, push or snapshot (its
 * time, the reason code of main/sync/errors.ts and the message it was told), by the caller's origin.
 * A hub's operator sees why a desk does not sync (its clock is ahead, its number is taken, a gap)
 * without the desk's screen. Its own table, not sync_instances: a desk refused because another holds
 * its number must not be recorded as an instance that holds that number.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `CREATE TABLE sync_refusals (
        origin TEXT PRIMARY KEY,
        instance_no INTEGER NOT NULL,
        refused_at INTEGER NOT NULL,
        reason TEXT NOT NULL,
        message TEXT NOT NULL
      ) STRICT`,
    )
    .execute(db);
}
