import Database from 'better-sqlite3';
import { PAGE_LIMIT } from '../main/contract/sync';

/**
 * The catch-up bench's floors (bench/rows/sync.ts): what storing a catch-up costs before any of its
 * work, in a raw better-sqlite3 file per layout of the op log, a transaction per page, the engine's
 * pragmas. Each answers ops per second; the bench divides by the raw inserts of the same rows.
 */

/** The columns of an op as the desk stores it, read back by the bench and inserted raw here. */
export const OP_LOG_COLUMNS = ['origin', 'seq', 'hlc', 'entity', 'entity_id', 'kind', 'change_json', 'schema', 'null_columns', 'row_state', 'write_continues', 'change_shape'];

/** The rows a floor inserts beside its op log rows: the customers of the catch-up, as their insert's arguments. */
export interface FloorRows {
  count: number;
  columns: readonly string[];
  argsOf(i: number): unknown[];
}

/** A raw better-sqlite3 file with the engine's pragmas (WAL, synchronous=FULL, foreign keys) and the given tables; the customers insert prepared. */
export function rawDatabase(file: string, ddl: { sql: string }[], rows: FloorRows): { db: Database.Database; insertRow: Database.Statement } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  for (const { sql } of ddl) db.exec(sql);
  return { db, insertRow: db.prepare(`INSERT INTO customers (${rows.columns.join(', ')}) VALUES (${rows.columns.map(() => '?').join(', ')})`) };
}

/** Ops per second of writing the rows and, op for op in the same page transaction, `insertOp(i)`. */
function timedPages(db: Database.Database, insertRow: Database.Statement, rows: FloorRows, count: number, insertOp: (i: number) => void): number {
  const page = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      insertRow.run(...rows.argsOf(i));
      insertOp(i);
    }
  });
  const started = process.hrtime.bigint();
  for (let start = 0; start < count; start += PAGE_LIMIT) page(start, Math.min(count, start + PAGE_LIMIT));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  db.close();
  return count / seconds;
}

/** The op log's rows in a floor: the table they go in, its columns, and each op's values in that order. */
export interface FloorOps {
  table: string;
  columns: readonly string[];
  ops: unknown[][];
}

/**
 * The baseline's rows plus, op for op in the same transaction, op log rows (with the indexes `ddl`
 * gives their table): the distance from this floor to the raw baseline is the op log's share of the goal.
 */
export function opLogFloor(file: string, ddl: { sql: string }[], rows: FloorRows, { table, columns, ops }: FloorOps): number {
  const { db, insertRow } = rawDatabase(file, ddl, rows);
  const insertOp = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  return timedPages(db, insertRow, rows, Math.min(rows.count, ops.length), (i) => insertOp.run(...ops[i]));
}

/** sync_ops as SQLite kept it before migration 20261206_31 (by names and key text): the layout the numbers replaced, as a floor. */
export const TEXT_OP_LOG_DDL = [
  {
    sql: `CREATE TABLE sync_ops (arrival INTEGER PRIMARY KEY, origin TEXT NOT NULL, seq INTEGER NOT NULL, hlc TEXT NOT NULL, entity TEXT NOT NULL, entity_id TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('insert','update','delete')), change_json TEXT, schema INTEGER NOT NULL, row_state INTEGER, write_continues INTEGER,
      null_columns INTEGER, change_shape INTEGER, UNIQUE (origin, seq)) STRICT`,
  },
  { sql: 'CREATE INDEX sync_ops_entity ON sync_ops(entity, entity_id)' },
];

/**
 * The layout docs/performance.md names for the catch-up goal: the baseline's rows plus, per page,
 * one row holding the page's ops as the desk received them (their text made before the clock
 * starts: the desk has it from the wire), keyed by origin and first seq.
 */
export function pagesFloor(file: string, ddl: { sql: string }[], rows: FloorRows, ops: unknown[][]): number {
  const { db, insertRow } = rawDatabase(file, [...ddl, { sql: 'CREATE TABLE sync_pages (origin TEXT NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, ops TEXT NOT NULL, PRIMARY KEY (origin, first_seq)) WITHOUT ROWID' }], rows);
  const insertPage = db.prepare('INSERT INTO sync_pages (origin, first_seq, last_seq, ops) VALUES (?, ?, ?, ?)');
  const count = Math.min(rows.count, ops.length);
  const texts: string[] = [];
  for (let start = 0; start < count; start += PAGE_LIMIT) texts.push(JSON.stringify(ops.slice(start, Math.min(count, start + PAGE_LIMIT))));
  // A page's row goes in with its last op: the same transaction, the same place in it as the ops it holds.
  return timedPages(db, insertRow, rows, count, (i) => {
    if ((i + 1) % PAGE_LIMIT === 0 || i === count - 1) {
      const first = i - (i % PAGE_LIMIT);
      insertPage.run(ops[first][0], ops[first][1], ops[i][1], texts[Math.floor(i / PAGE_LIMIT)]);
    }
  });
}
