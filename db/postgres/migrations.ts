import { sql, type Kysely } from 'kysely';
import * as m20261123_01 from '../migrations/20261123_01_initial';
import { CAPTURED, statements as syncStatements } from '../migrations/20261124_80_sync';
import { statements as rowStampStatements } from '../migrations/20261126_92_sync_row_stamps';
import { postgresCaptureStatements } from '../syncCapture';

/**
 * The tables the engine's caches are made from (db/queries/changes.ts CHANGE_AREAS), frozen here
 * with the migration; a table added to an area later gets its trigger from a new migration
 * (test/migrations/postgres.test.ts checks every area's table has one).
 */
const NOTIFYING_TABLES = ['api_keys', 'companies', 'products', 'price_options', 'product_extras', 'product_images', 'vouchers', 'voucher_redemptions'];
const KEY_COLUMNS = ['name', 'role', 'key_hash', 'key_prefix', 'reseller_id', 'revoked_at'];

/**
 * The per-dialect steps of migrations whose SQLite `up` cannot simply be translated (db/postgres/ddl.ts
 * translates the raw statements each runs here too). Each is the PostgreSQL side of the migration
 * of the same name in db/migrations/index.ts, frozen like it once landed.
 */

/** A statement trigger that notifies `tourdesk_changes` with the table's name when a cached table changes. */
function notifyTrigger(table: string): string {
  // api_keys: its last_used_at is written once a minute per key and changes no cached answer.
  const update = table === 'api_keys' ? `UPDATE OF ${KEY_COLUMNS.map((c) => `"${c}"`).join(', ')}` : 'UPDATE';
  return `CREATE TRIGGER ${table}_notify_change AFTER INSERT OR ${update} OR DELETE OR TRUNCATE ON ${table}
    FOR EACH STATEMENT EXECUTE FUNCTION tourdesk_notify_change()`;
}

/**
 * 20261123_01_initial, plus what PostgreSQL needs for the engine's caches (keys, the company,
 * products, vouchers: db/queries/changes.ts): when any hub process (or the CLI) commits a change to
 * a table a cache is made from, the commit notifies `tourdesk_changes` with the table's name and
 * every process's token for that area moves (db/postgres/changes.ts). SQLite gets the same from its
 * data_version counter and per-connection triggers.
 */
export async function initial(db: Kysely<unknown>): Promise<void> {
  await m20261123_01.up(db);
  await sql`CREATE FUNCTION tourdesk_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('tourdesk_changes', TG_TABLE_NAME);
      RETURN NULL;
    END $$`.execute(db);
  for (const table of NOTIFYING_TABLES) await sql.raw(notifyTrigger(table)).execute(db);
}

/**
 * 20261124_80_sync: the same tables (translated). The row-capture triggers SQLite makes here are
 * generated from pragma_table_info; the PostgreSQL hub's op capture came later, with its own
 * PL/pgSQL triggers (20261127_94, `syncCapture` below).
 */
export async function sync(db: Kysely<unknown>): Promise<void> {
  for (const statement of syncStatements) await sql.raw(statement).execute(db);
  // api_keys was rebuilt (for the sync role): its notify trigger went with the old table.
  await sql.raw(notifyTrigger('api_keys')).execute(db);
}

/** 20261125_90_agent_payments: the column (its SQLite capture triggers are re-made there; see `sync`). */
export async function agentPayments(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE payments ADD COLUMN recorded_by_reseller_id INTEGER REFERENCES resellers(id)').execute(db);
}

/**
 * 20261126_92_sync_row_stamps: the compact merge-state tables (translated). Its conversion of old
 * sync_rows has nothing to convert here (no sync has run on a PostgreSQL hub yet; refused if one
 * did), and its capture triggers are SQLite's (see `sync`).
 */
export async function syncRowStamps(db: Kysely<unknown>): Promise<void> {
  for (const statement of rowStampStatements) await sql.raw(statement).execute(db);
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM sync_rows`.execute(db);
  if (Number(rows[0].n) > 0) throw new Error('sync_rows holds merge states on PostgreSQL: this migration cannot convert them');
  await sql.raw('DROP TABLE sync_rows').execute(db);
  await sql.raw('ALTER TABLE sync_rows_new RENAME TO sync_rows').execute(db);
}

/**
 * 20261127_94_sync_capture_postgres: the op capture on the hub (db/syncCapture.ts says how it matches
 * SQLite's), on migration 80's synced tables (frozen there), with the rows already in the database
 * captured as inserts: the first write after this folds them into ops of the hub's origin, as
 * migration 80 did for a SQLite folder that had data.
 */
export async function syncCapture(db: Kysely<unknown>): Promise<void> {
  for (const statement of postgresCaptureStatements(CAPTURED, { baseline: true })) await sql.raw(statement).execute(db);
}
