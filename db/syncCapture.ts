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
 * The SQLite triggers that record every row change of a synced table into sync_capture, in the
 * writing transaction (unless the replica has paused them, see CAPTURE_PAUSED_ID). Generated from the table's columns as they are when called: a migration
 * that adds a column to a synced table calls this again (triggers are dropped and re-made).
 * The PostgreSQL hub (issue 21) needs its own generator here (one plpgsql function over
 * to_jsonb(NEW)), which is why it is generated and kept in db/ next to the dialect.
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
