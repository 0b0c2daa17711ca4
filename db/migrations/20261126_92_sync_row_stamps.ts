import { sql, type Kysely } from 'kysely';
import { captureStatements } from '../syncCapture';
// The synced tables and their keys are the same as migration 80's (both frozen; main/sync/entities.ts has the rules).
import { CAPTURED } from './20261124_80_sync';

/**
 * Sync's per-row merge state, compact (issue 16, the catch-up bench). The apply path reads and
 * writes one state per op; sync_rows kept a JSON map column -> stamp per row (~400 bytes for a
 * customer, encoded and parsed per op). Now:
 * - sync_shapes: each distinct list of stamped columns once (a table's columns, mostly);
 * - sync_rows: shape id, the row's distinct stamps space-separated, and `marks` (one character
 *   per shape column: which stamp it has) only when there is more than one stamp. A row written
 *   by one insert is then a shape id and one stamp. Still keyed (entity, entity_id) WITHOUT ROWID:
 *   with rows this small one b-tree beats a rowid table plus a unique index on the same key.
 * - sync_ops.null_columns: the shape of the columns an op's change set to null, which its
 *   change_json then leaves out (a customer insert is mostly nulls: about half its bytes). NULL: none
 *   left out (every op stored before this).
 * - the capture triggers are re-made so the replica can pause them while it writes rows that are
 *   ops already (a remote page, its own corrections): they used to be captured and deleted again.
 * The conversion below is this migration's own copy of the encoding (frozen with it).
 */
export const statements = [
  `CREATE TABLE sync_shapes (id INTEGER PRIMARY KEY, columns TEXT NOT NULL UNIQUE) STRICT`,
  `CREATE TABLE sync_rows_new (
     entity TEXT NOT NULL,
     entity_id TEXT NOT NULL,
     shape INTEGER NOT NULL,
     stamps TEXT NOT NULL,
     marks TEXT,
     born TEXT,
     deleted TEXT,
     erased TEXT,
     PRIMARY KEY (entity, entity_id)
   ) WITHOUT ROWID, STRICT`,
  `ALTER TABLE sync_ops ADD COLUMN null_columns INTEGER`,
];


/** Both formats sync_rows.clocks_json had: a plain column -> stamp map, or { _s: stamps, _c: column -> index }. */
function clocksOf(text: string): Record<string, string> {
  const parsed = JSON.parse(text) as { _s?: string[]; _c?: Record<string, number> } & Record<string, unknown>;
  if (!Array.isArray(parsed._s) || typeof parsed._c !== 'object' || parsed._c === null) return parsed as Record<string, string>;
  const clocks: Record<string, string> = {};
  for (const [column, i] of Object.entries(parsed._c)) clocks[column] = parsed._s[i];
  return clocks;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
  const shapes = new Map<string, number>();
  const old = await sql<{ entity: string; entity_id: string; clocks_json: string; born: string | null; deleted: string | null; erased: string | null }>`select * from sync_rows`.execute(db);
  for (const row of old.rows) {
    const clocks = clocksOf(row.clocks_json);
    const names = Object.keys(clocks);
    // Column names came from ops, so from peers: a list that would not split back is kept as JSON.
    const columns = names.some((c) => c.includes(',')) || names[0]?.startsWith('[') ? JSON.stringify(names) : names.join(',');
    let shape = shapes.get(columns);
    if (shape === undefined) {
      shape = shapes.size + 1;
      shapes.set(columns, shape);
      await sql`insert into sync_shapes (id, columns) values (${shape}, ${columns})`.execute(db);
    }
    const stamps: string[] = [];
    let marks = '';
    for (const stamp of Object.values(clocks)) {
      let i = stamps.indexOf(stamp);
      if (i === -1) i = stamps.push(stamp) - 1;
      marks += String.fromCharCode(48 + i);
    }
    await sql`insert into sync_rows_new (entity, entity_id, shape, stamps, marks, born, deleted, erased)
              values (${row.entity}, ${row.entity_id}, ${shape}, ${stamps.join(' ')}, ${stamps.length > 1 ? marks : null}, ${row.born}, ${row.deleted}, ${row.erased})`.execute(db);
  }
  await sql.raw('DROP TABLE sync_rows').execute(db);
  await sql.raw('ALTER TABLE sync_rows_new RENAME TO sync_rows').execute(db);
  for (const statement of await captureStatements(db, CAPTURED)) await sql.raw(statement).execute(db);
}
