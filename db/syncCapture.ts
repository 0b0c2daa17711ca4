import { sql, type Kysely } from 'kysely';

/**
 * While sync_capture holds this row, the triggers record nothing: the replica writes it for the
 * length of its own writes (a remote page, the corrections of a fold), whose rows are ops already.
 * Without it, every applied row cost a JSON image and a capture row written and deleted again
 * (the catch-up bench's largest single cost). It lives in the writing transaction, so a rollback
 * takes it away too.
 */
export const CAPTURE_PAUSED_ID = -1;

/**
 * The same switch on the PostgreSQL hub: a setting local to the writing transaction
 * (set_config(name, 'on', true)), read by the triggers' WHEN with current_setting(name, true). A marker
 * row would be one row every hub process writes in every transaction (a serialization conflict each
 * time); a transaction's own setting is seen by nobody else and ends with it, committed or not.
 */
export const CAPTURE_PAUSED_SETTING = 'tourdesk.sync_capture_paused';

/**
 * The SQLite triggers that record every row change of a synced table into sync_capture, in the
 * writing transaction (unless the replica has paused them, see CAPTURE_PAUSED_ID). Generated from the table's columns as they are when called: a migration
 * that adds a column to a synced table calls this again (triggers are dropped and re-made).
 * The PostgreSQL hub has its own generator below (postgresCaptureStatements).
 */
export async function captureStatements(db: Kysely<unknown>, tables: Readonly<Record<string, readonly string[]>>, options: { baseline?: boolean } = {}): Promise<string[]> {
  const out: string[] = [];
  for (const [table, pkColumns] of Object.entries(tables)) {
    const columns = (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)).rows.map((r) => r.name);
    if (columns.length === 0) throw new Error(`No table ${table} to capture`);
    const image = (row: 'NEW' | 'OLD' | '') => `json_object(${columns.map((c) => `'${c}', ${row ? `${row}.` : ''}"${c}"`).join(', ')})`;
    const pk = (row: 'NEW' | 'OLD' | '') => `json_array(${pkColumns.map((c) => `${row ? `${row}.` : ''}"${c}"`).join(', ')})`;
    for (const event of ['insert', 'update', 'delete']) out.push(`DROP TRIGGER IF EXISTS sync_capture_${table}_${event}`);
    // Only sync_capture (made with the first triggers) is named, so any migration may call this.
    const unlessPaused = `WHEN NOT EXISTS (SELECT 1 FROM sync_capture WHERE id = ${CAPTURE_PAUSED_ID})`;
    out.push(
      `CREATE TRIGGER sync_capture_${table}_insert AFTER INSERT ON ${table} ${unlessPaused} BEGIN
         INSERT INTO sync_capture (tbl, pk, old_json, new_json) VALUES ('${table}', ${pk('NEW')}, NULL, ${image('NEW')});
       END`,
      `CREATE TRIGGER sync_capture_${table}_update AFTER UPDATE ON ${table} ${unlessPaused} BEGIN
         INSERT INTO sync_capture (tbl, pk, old_json, new_json) VALUES ('${table}', ${pk('NEW')}, ${image('OLD')}, ${image('NEW')});
       END`,
      `CREATE TRIGGER sync_capture_${table}_delete AFTER DELETE ON ${table} ${unlessPaused} BEGIN
         INSERT INTO sync_capture (tbl, pk, old_json, new_json) VALUES ('${table}', ${pk('OLD')}, ${image('OLD')}, NULL);
       END`,
    );
    if (options.baseline) out.push(`INSERT INTO sync_capture (tbl, pk, old_json, new_json) SELECT '${table}', ${pk('')}, NULL, ${image('')} FROM ${table}`);
  }
  return out;
}

/**
 * The PostgreSQL hub's capture: one PL/pgSQL function for every synced table, writing what the SQLite
 * triggers write: the table, the key as a JSON array (in the trigger's arguments' order; the fold
 * compacts its spacing), and the old and new row as JSON objects in column order (row_to_json, so a
 * column a later migration adds is captured without re-making anything). Values come out as SQLite's
 * json_object gives them (BIGINT and DOUBLE PRECISION as numbers, TEXT as strings), so an op made on
 * the hub is the op a SQLite hub would have made. Row triggers (AFTER, FOR EACH ROW), skipped while
 * the transaction has paused them (CAPTURE_PAUSED_SETTING). With `baseline`, the rows already there
 * are captured as inserts (the next write folds them into ops of the hub's origin, as on SQLite).
 */
export function postgresCaptureStatements(tables: Readonly<Record<string, readonly string[]>>, options: { baseline?: boolean } = {}): string[] {
  const out = [
    `CREATE OR REPLACE FUNCTION tourdesk_sync_capture() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE
         image json := row_to_json(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
       BEGIN
         INSERT INTO sync_capture (tbl, pk, old_json, new_json) VALUES (
           TG_TABLE_NAME,
           (SELECT json_agg(image -> name ORDER BY position)::text FROM unnest(TG_ARGV) WITH ORDINALITY AS k(name, position)),
           CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE row_to_json(OLD)::text END,
           CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE image::text END);
         RETURN NULL;
       END $$`,
  ];
  for (const [table, pk] of Object.entries(tables)) {
    out.push(
      `DROP TRIGGER IF EXISTS sync_capture_${table} ON ${table}`,
      `CREATE TRIGGER sync_capture_${table} AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW
         WHEN (current_setting('${CAPTURE_PAUSED_SETTING}', true) IS DISTINCT FROM 'on')
         EXECUTE FUNCTION tourdesk_sync_capture(${pk.map((c) => `'${c}'`).join(', ')})`,
    );
    if (options.baseline) {
      out.push(`INSERT INTO sync_capture (tbl, pk, old_json, new_json) SELECT '${table}', json_build_array(${pk.map((c) => `t."${c}"`).join(', ')})::text, NULL, row_to_json(t)::text FROM ${table} t`);
    }
  }
  return out;
}
