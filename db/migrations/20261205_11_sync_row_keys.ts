import { sql, type Kysely } from 'kysely';
// The synced tables and their keys as migration 80 froze them (main/sync/entities.ts has the rules).
import { CAPTURED } from './20261124_80_sync';

/**
 * Merge states keyed by numbers on SQLite (issue 38, a season's size). sync_rows named each state by
 * the entity's name and its key as JSON text ('bookings', '[107001,0]') and its insert stamp as
 * 39 characters: ~80 bytes a state, most of a compacted file's sync data. Now:
 * - sync_entities: a number per synced entity (assigned here, in CAPTURED's written order, and later
 *   by the store when a peer names one it lacks; never recomputed), and `key_ints`: how many integer
 *   columns its key has (1 or 2), 0 when its key is not integers (a code, a product code, mixed).
 * - sync_origins: a number per origin that stamped an insert here (local to this file, never sent).
 * - sync_rows keyed (entity, k1, k2, key): an integer key in k1 (and k2; 0 when one column) with
 *   `key` empty, or any other key (and an integer key that is not exactly JSON.stringify of its
 *   integers) as its JSON text in `key` with k1 = k2 = 0. The insert stamp as born_at (wall ms),
 *   born_count (the clock's counter) and born_by (sync_origins); `born` text only for a stamp not in
 *   hlc.ts's form. stamps/marks/deleted/erased as migration 92 left them.
 * - sync_row_names: the states by name again (entity name, key text, whole born), for the few
 *   readers that are not per op (tombstones of a snapshot, tests); a partial index finds tombstones.
 * The conversion is SQL in this transaction, this migration's own frozen copy of the encoding
 * (db/queries/sync/rowKeys.ts is the live one and must agree with it).
 */
const STATE_COLUMNS = 'shape INTEGER NOT NULL, stamps TEXT NOT NULL, marks TEXT, born_at INTEGER, born_count INTEGER, born_by INTEGER, born TEXT, deleted TEXT, erased TEXT';

export const statements = [
  'CREATE TABLE sync_entities (no INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, key_ints INTEGER NOT NULL) STRICT',
  'CREATE TABLE sync_origins (no INTEGER PRIMARY KEY, origin TEXT NOT NULL UNIQUE) STRICT',
  `CREATE TABLE sync_rows_keyed (entity INTEGER NOT NULL, k1 INTEGER NOT NULL, k2 INTEGER NOT NULL, key TEXT NOT NULL, ${STATE_COLUMNS},
     PRIMARY KEY (entity, k1, k2, key)) WITHOUT ROWID, STRICT`,
];

/** 1 or 2 when every key column of `table` is declared INTEGER (its values may still be other: those keep the text form). */
async function integerColumns(db: Kysely<unknown>, table: string, pk: readonly string[]): Promise<number> {
  if (pk.length > 2) return 0;
  const info = await sql<{ name: string; type: string }>`SELECT name, type FROM pragma_table_info(${table})`.execute(db);
  return pk.every((c) => info.rows.some((r) => r.name === c && r.type.toUpperCase() === 'INTEGER')) ? pk.length : 0;
}

/** SQL: 1 when text `i` is exactly `[a]` (n = 1) or `[a,b]` (n = 2) of integers JavaScript holds exactly. */
const isIntegerKey = (i: string, n: string) => `(CASE WHEN ${n} IN (1, 2) AND json_valid(${i}) AND json_array_length(${i}) = ${n}
   AND json_type(${i}, '$[0]') = 'integer' AND abs(json_extract(${i}, '$[0]')) <= 9007199254740991
   AND (${n} = 1 OR (json_type(${i}, '$[1]') = 'integer' AND abs(json_extract(${i}, '$[1]')) <= 9007199254740991))
   THEN ${i} = '[' || json_extract(${i}, '$[0]') || CASE WHEN ${n} = 2 THEN ',' || json_extract(${i}, '$[1]') ELSE '' END || ']' ELSE 0 END)`;

/** SQL: 1 when text `b` is a stamp as hlc.ts writes it (15 digits, '-', 6 digits, '-', letters and digits). */
const isHlc = (b: string) =>
  `(${b} GLOB '[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9][0-9][0-9]-?*' AND substr(${b}, 24) NOT GLOB '*[^A-Za-z0-9]*')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
  let no = 0;
  for (const [name, pk] of Object.entries(CAPTURED)) {
    no += 1;
    await sql`INSERT INTO sync_entities (no, name, key_ints) VALUES (${no}, ${name}, ${await integerColumns(db, name, pk)})`.execute(db);
  }
  // A state of an entity migration 80 did not list (none are known) gets a number with the text form.
  await sql`INSERT INTO sync_entities (name, key_ints) SELECT DISTINCT entity, 0 FROM sync_rows WHERE entity NOT IN (SELECT name FROM sync_entities)`.execute(db);
  await sql.raw(`INSERT INTO sync_origins (origin) SELECT DISTINCT substr(born, 24) FROM sync_rows WHERE ${isHlc('born')}`).execute(db);
  await sql
    .raw(
      `INSERT INTO sync_rows_keyed (entity, k1, k2, key, shape, stamps, marks, born_at, born_count, born_by, born, deleted, erased)
       SELECT e.no,
              CASE WHEN ints THEN json_extract(r.entity_id, '$[0]') ELSE 0 END,
              CASE WHEN ints AND e.key_ints = 2 THEN json_extract(r.entity_id, '$[1]') ELSE 0 END,
              CASE WHEN ints THEN '' ELSE r.entity_id END,
              r.shape, r.stamps, r.marks,
              CASE WHEN hlc THEN CAST(substr(r.born, 1, 15) AS INTEGER) END,
              CASE WHEN hlc THEN CAST(substr(r.born, 17, 6) AS INTEGER) END,
              CASE WHEN hlc THEN (SELECT o.no FROM sync_origins o WHERE o.origin = substr(r.born, 24)) END,
              CASE WHEN hlc THEN NULL ELSE r.born END,
              r.deleted, r.erased
       FROM (SELECT *, ${isIntegerKey('sync_rows.entity_id', '(SELECT key_ints FROM sync_entities WHERE name = sync_rows.entity)')} AS ints,
                    coalesce(${isHlc('sync_rows.born')}, 0) AS hlc FROM sync_rows) r
       JOIN sync_entities e ON e.name = r.entity`,
    )
    .execute(db);
  await sql.raw('DROP TABLE sync_rows').execute(db);
  await sql.raw('ALTER TABLE sync_rows_keyed RENAME TO sync_rows').execute(db);
  await sql.raw('CREATE INDEX sync_rows_tombstones ON sync_rows (entity) WHERE deleted IS NOT NULL').execute(db);
  await sql
    .raw(
      `CREATE VIEW sync_row_names AS
       SELECT e.name AS entity,
              CASE WHEN r.key <> '' THEN r.key WHEN e.key_ints = 1 THEN '[' || r.k1 || ']' ELSE '[' || r.k1 || ',' || r.k2 || ']' END AS entity_id,
              r.shape, r.stamps, r.marks,
              CASE WHEN r.born_at IS NULL THEN r.born ELSE printf('%015d-%06d-', r.born_at, r.born_count) || o.origin END AS born,
              r.deleted, r.erased
       FROM sync_rows r JOIN sync_entities e ON e.no = r.entity LEFT JOIN sync_origins o ON o.no = r.born_by`,
    )
    .execute(db);
}

/** The PostgreSQL hub keeps sync_rows by name and key text (db/postgres/sync/rowState.ts): nothing to do there. */
export async function postgres(): Promise<void> {}
