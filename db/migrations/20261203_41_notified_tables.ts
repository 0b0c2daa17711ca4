import { sql, type Kysely } from 'kysely';

/**
 * Issue 39 (fewer round trips per booking on the PostgreSQL hub): the notify trigger of the cached
 * tables (db/postgres/migrations.ts `initial`) also writes the table's name into a setting local to
 * the writing transaction, `tourdesk.notified`. The fold's last statement reads it, so the process
 * that commits knows which cached tables its own write touched and moves only those caches' tokens
 * (db/postgres/changes.ts): a booking no longer makes the next request reload the API key and the
 * company. A rollback clears the setting with the transaction.
 *
 * SQLite has no such trigger (its caches count their tables' writes per connection): nothing to do.
 */
export const NOTIFIED_SETTING = 'tourdesk.notified';

export async function up(): Promise<void> {}

export async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION tourdesk_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('tourdesk_changes', TG_TABLE_NAME);
      PERFORM set_config('${NOTIFIED_SETTING}', coalesce(current_setting('${NOTIFIED_SETTING}', true), '') || TG_TABLE_NAME || ' ', true);
      RETURN NULL;
    END $$`,
    )
    .execute(db);
}
