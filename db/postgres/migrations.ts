import { sql, type Kysely } from 'kysely';
import * as m20261123_01 from '../migrations/20261123_01_initial';
import { statements as syncStatements } from '../migrations/20261124_80_sync';

/**
 * The per-dialect steps of migrations whose SQLite `up` cannot simply be translated (db/postgres/ddl.ts
 * translates the raw statements each runs here too). Each is the PostgreSQL side of the migration
 * of the same name in db/migrations/index.ts, frozen like it once landed.
 */

/**
 * 20261123_01_initial, plus what PostgreSQL needs for the engine's caches: a hub process caches the
 * supplier company (main/domain/platform/companies.ts); when another hub process (or the CLI)
 * changes it, the commit notifies `tourdesk_changes` and every process drops its copy
 * (db/postgres/changes.ts). SQLite gets the same from its data_version counter.
 */
export async function initial(db: Kysely<unknown>): Promise<void> {
  await m20261123_01.up(db);
  await sql`CREATE FUNCTION tourdesk_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('tourdesk_changes', TG_TABLE_NAME);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER companies_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON companies
    FOR EACH STATEMENT EXECUTE FUNCTION tourdesk_notify_change()`.execute(db);
}

/**
 * 20261124_80_sync: the same tables (translated). The row-capture triggers SQLite makes here are
 * generated from pragma_table_info; the PostgreSQL hub's op capture is a later step of issue 21
 * (sync on PostgreSQL), which adds its own PL/pgSQL capture in a new migration.
 */
export async function sync(db: Kysely<unknown>): Promise<void> {
  for (const statement of syncStatements) await sql.raw(statement).execute(db);
}

/** 20261125_90_agent_payments: the column (its SQLite capture triggers are re-made there; see `sync`). */
export async function agentPayments(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE payments ADD COLUMN recorded_by_reseller_id INTEGER REFERENCES resellers(id)').execute(db);
}
