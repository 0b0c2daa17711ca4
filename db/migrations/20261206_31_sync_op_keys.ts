import { sql, type Kysely } from 'kysely';

/**
 * The op log keyed by numbers on SQLite (issue 38, the catch-up). sync_ops named each op's origin
 * (~26 characters), entity and key as text, in the row and again in its (origin, seq) and
 * (entity, entity_id) indexes: the bench's floors measured the same rows keyed by numbers at 1.75×
 * the raw inserts against 2.25×. Now the ops live in sync_op_rows:
 * - origin: sync_origins' number (the table migration 20261205_11 made for insert stamps);
 * - entity, k1, k2, key: the entity's sync_entities number and its key as sync_rows keys it (an
 *   integer key in k1/k2 with `key` empty, any other as its JSON text in `key`);
 * - every other column as sync_ops had it (arrival the rowid, stamps short, changes compact).
 * `sync_ops` stays as a view with the old columns and names, for the readers that are not per op
 * (compaction's scans, erasure, status counts, tests), with INSTEAD OF triggers for the few that
 * write through it. The store's per-op statements use sync_op_rows (db/queries/sync/ops.ts).
 * The conversion is SQL in this transaction; the key expressions are this migration's frozen copy
 * of rowKeys.ts's encoding (as 20261205_11's are).
 */
const isIntegerKey = (i: string, n: string) => `(CASE WHEN ${n} IN (1, 2) AND json_valid(${i}) AND json_array_length(${i}) = ${n}
   AND json_type(${i}, '$[0]') = 'integer' AND abs(json_extract(${i}, '$[0]')) <= 9007199254740991
   AND (${n} = 1 OR (json_type(${i}, '$[1]') = 'integer' AND abs(json_extract(${i}, '$[1]')) <= 9007199254740991))
   THEN ${i} = '[' || json_extract(${i}, '$[0]') || CASE WHEN ${n} = 2 THEN ',' || json_extract(${i}, '$[1]') ELSE '' END || ']' ELSE 0 END)`;

/** SQL: the k1, k2 and key of entity id text `id` whose entity's key_ints is `n`. */
const keyColumns = (id: string, n: string) => {
  const ints = isIntegerKey(id, n);
  return `CASE WHEN ${ints} THEN json_extract(${id}, '$[0]') ELSE 0 END,
          CASE WHEN ${ints} AND ${n} = 2 THEN json_extract(${id}, '$[1]') ELSE 0 END,
          CASE WHEN ${ints} THEN '' ELSE ${id} END`;
};

const REST = 'kind, change_json, schema, row_state, write_continues, null_columns, change_shape';

export const statements = [
  `CREATE TABLE sync_op_rows (
     arrival INTEGER PRIMARY KEY,
     origin INTEGER NOT NULL,
     seq INTEGER NOT NULL,
     hlc TEXT NOT NULL,
     entity INTEGER NOT NULL,
     k1 INTEGER NOT NULL,
     k2 INTEGER NOT NULL,
     key TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('insert','update','delete')),
     change_json TEXT,
     schema INTEGER NOT NULL,
     row_state INTEGER,
     write_continues INTEGER,
     null_columns INTEGER,
     change_shape INTEGER
   ) STRICT`,
  "INSERT INTO sync_origins (origin) SELECT DISTINCT origin FROM sync_ops WHERE origin NOT IN (SELECT origin FROM sync_origins) ORDER BY origin",
  // An op of an entity this file never numbered (a newer peer's, held): a number with the text form.
  'INSERT INTO sync_entities (name, key_ints) SELECT DISTINCT entity, 0 FROM sync_ops WHERE entity NOT IN (SELECT name FROM sync_entities) ORDER BY entity',
  `INSERT INTO sync_op_rows (arrival, origin, seq, hlc, entity, k1, k2, key, ${REST})
   SELECT o.arrival, g.no, o.seq, o.hlc, e.no, ${keyColumns('o.entity_id', 'e.key_ints')}, ${REST.split(', ').map((c) => `o.${c}`).join(', ')}
   FROM sync_ops o JOIN sync_entities e ON e.name = o.entity JOIN sync_origins g ON g.origin = o.origin`,
  'DROP TABLE sync_ops',
  'CREATE UNIQUE INDEX sync_op_rows_origin ON sync_op_rows (origin, seq)',
  'CREATE INDEX sync_op_rows_entity ON sync_op_rows (entity, k1, k2, key)',
  `CREATE VIEW sync_ops AS
   SELECT r.arrival, g.origin, r.seq, r.hlc, e.name AS entity,
          CASE WHEN r.key <> '' THEN r.key WHEN e.key_ints = 1 THEN '[' || r.k1 || ']' ELSE '[' || r.k1 || ',' || r.k2 || ']' END AS entity_id,
          ${REST.split(', ').map((c) => `r.${c}`).join(', ')}
   FROM sync_op_rows r JOIN sync_entities e ON e.no = r.entity JOIN sync_origins g ON g.no = r.origin`,
  // Writes through the view (tests, benches' set-ups, tools): the store itself writes sync_op_rows.
  `CREATE TRIGGER sync_ops_insert INSTEAD OF INSERT ON sync_ops BEGIN
     INSERT OR IGNORE INTO sync_origins (origin) VALUES (NEW.origin);
     INSERT OR IGNORE INTO sync_entities (name, key_ints) VALUES (NEW.entity, 0);
     INSERT INTO sync_op_rows (arrival, origin, seq, hlc, entity, k1, k2, key, ${REST})
     SELECT NEW.arrival, (SELECT no FROM sync_origins WHERE origin = NEW.origin), NEW.seq, NEW.hlc, e.no, ${keyColumns('NEW.entity_id', 'e.key_ints')},
            NEW.kind, NEW.change_json, NEW.schema, NEW.row_state, NEW.write_continues, NEW.null_columns, NEW.change_shape
     FROM sync_entities e WHERE e.name = NEW.entity;
   END`,
  'CREATE TRIGGER sync_ops_delete INSTEAD OF DELETE ON sync_ops BEGIN DELETE FROM sync_op_rows WHERE arrival = OLD.arrival; END',
  `CREATE TRIGGER sync_ops_update INSTEAD OF UPDATE ON sync_ops BEGIN
     UPDATE sync_op_rows SET hlc = NEW.hlc, kind = NEW.kind, change_json = NEW.change_json, schema = NEW.schema, row_state = NEW.row_state,
       write_continues = NEW.write_continues, null_columns = NEW.null_columns, change_shape = NEW.change_shape
     WHERE arrival = OLD.arrival;
   END`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** The PostgreSQL hub keeps sync_ops by name and key text (db/postgres/sync): nothing to do there. */
export async function postgres(): Promise<void> {}
