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

/**
 * The baseline's rows plus the op log rows the desk stored (sync_ops with its indexes, as the engine
 * defines them): the distance from this floor to the raw baseline is the op log's share of the goal.
 */
export function opLogFloor(file: string, ddl: { sql: string }[], rows: FloorRows, ops: unknown[][]): number {
  const { db, insertRow } = rawDatabase(file, ddl, rows);
  const insertOp = db.prepare(`INSERT INTO sync_ops (${OP_LOG_COLUMNS.join(', ')}) VALUES (${OP_LOG_COLUMNS.map(() => '?').join(', ')})`);
  return timedPages(db, insertRow, rows, Math.min(rows.count, ops.length), (i) => insertOp.run(...ops[i]));
}

const NUMBERED_OPS = `CREATE TABLE sync_ops (arrival INTEGER PRIMARY KEY, origin INTEGER NOT NULL, seq INTEGER NOT NULL, hlc TEXT NOT NULL,
  entity INTEGER NOT NULL, k1 INTEGER NOT NULL, k2 INTEGER NOT NULL, key TEXT NOT NULL, kind INTEGER NOT NULL, change_json TEXT, schema INTEGER NOT NULL,
  null_columns INTEGER, row_state INTEGER, write_continues INTEGER, change_shape INTEGER) STRICT`;
const NUMBERED_COLUMNS = ['origin', 'seq', 'hlc', 'entity', 'k1', 'k2', 'key', 'kind', 'change_json', 'schema', 'null_columns', 'row_state', 'write_continues', 'change_shape'];

/** The stored ops as the numbered layouts hold them: origin, entity and kind as numbers, an integer key as k1/k2 (as sync_rows, rowKeys.ts). */
function numbered(ops: unknown[][]): unknown[][] {
  const numbers = new Map<string, number>();
  const numberOf = (name: string) => numbers.get(name) ?? numbers.set(name, numbers.size + 1).get(name)!;
  const at = (column: string) => OP_LOG_COLUMNS.indexOf(column);
  return ops.map((op) => {
    const id = JSON.parse(op[at('entity_id')] as string) as unknown[];
    const ints = id.length <= 2 && id.every((v) => Number.isSafeInteger(v));
    const [k1, k2, key] = ints ? [id[0], id[1] ?? 0, ''] : [0, 0, op[at('entity_id')]];
    return [numberOf(op[at('origin')] as string), op[at('seq')], op[at('hlc')], numberOf(op[at('entity')] as string), k1, k2, key, numberOf(op[at('kind')] as string), ...OP_LOG_COLUMNS.slice(at('change_json')).map((c) => op[at(c)])];
  });
}

/**
 * Issue 38's option (a), as floors: the op rows keyed by numbers, with the engine's two lookups
 * (a unique (origin, seq) and an (entity, key) index) and, as the bound of any work on the indexes,
 * with none but the arrival order. Answers [with indexes, without].
 */
export function numberedOpLogFloors(file: (name: string) => string, ddl: { sql: string }[], rows: FloorRows, ops: unknown[][]): [number, number] {
  const stored = numbered(ops);
  const count = Math.min(rows.count, ops.length);
  const floor = (name: string, indexes: string[]) => {
    const { db, insertRow } = rawDatabase(file(name), [...ddl, { sql: NUMBERED_OPS }, ...indexes.map((sql) => ({ sql }))], rows);
    const insertOp = db.prepare(`INSERT INTO sync_ops (${NUMBERED_COLUMNS.join(', ')}) VALUES (${NUMBERED_COLUMNS.map(() => '?').join(', ')})`);
    return timedPages(db, insertRow, rows, count, (i) => insertOp.run(...stored[i]));
  };
  return [
    floor('numbered', ['CREATE UNIQUE INDEX sync_ops_origin ON sync_ops (origin, seq)', 'CREATE INDEX sync_ops_entity ON sync_ops (entity, k1, k2, key)']),
    floor('numbered-unindexed', []),
  ];
}

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
