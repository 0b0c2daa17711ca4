import { sql, type Kysely } from 'kysely';

/**
 * Issue 39 (no hub-wide turn on PostgreSQL): the origins a PostgreSQL hub's processes number their
 * ops under, each with its last sequence number and clock stamp (db/postgres/sync/origins.ts). A
 * process leases one for its life (a session advisory lock), so no row is updated by every write of
 * every process, as sync_instance's last_seq was. The hub's own origin (sync_instance.origin) is the
 * first of them; its row is made from sync_instance's when a process first leases it.
 *
 * SQLite is one process: its one origin stays in sync_instance.
 */
export async function up(): Promise<void> {}

export async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE hub_origins (origin TEXT PRIMARY KEY, last_seq BIGINT NOT NULL DEFAULT 0, last_hlc TEXT)`.execute(db);
}
