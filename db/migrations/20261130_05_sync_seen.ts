import { sql, type Kysely } from 'kysely';

/**
 * `sync_instances.last_seen_at`: when another instance last exchanged with this one (its first pull
 * page of an exchange, or a push), in ms. A hub has no peers of its own to list (its desks pair with
 * it), so this is how its status says which desks sync with it and since when one has not.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE sync_instances ADD COLUMN last_seen_at INTEGER').execute(db);
}

export async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE sync_instances ADD COLUMN last_seen_at BIGINT').execute(db);
}
