import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteSyncStore, StoredValues } from '../../syncStore';
import { columnsOfChange } from '../../syncEncoding';
import { joinLikeLast } from './shapes';

/** Rows a multi-row INSERT writes at most (12 columns an op: well under SQLite's 32,766 variables). */
const MULTI_ROW = 100;

/** The upsert of a row with one list of columns: its statement for one row and for many. */
export interface UpsertPlan {
  key: string;
  one: BetterSqlite3.Statement;
  columns: string[];
  length: number;
  split: number;
  argsOf(values: Record<string, unknown>): unknown[];
  sql(rows: number): string;
}

/** How the op log's multi-row inserts (db/queries/sync/ops.ts) write rows and ops. */
export interface SqliteRowPlans {
  upsertPlan(table: string, pk: readonly string[], values: Record<string, unknown>, nulls?: readonly string[]): UpsertPlan;
  argsOfValues(plan: UpsertPlan, stored: StoredValues): unknown[];
  /**
   * Runs one INSERT of many rows (`sql(n)`: the statement for n rows) over `rows` (each its
   * arguments), MULTI_ROW rows a statement: one statement's fixed cost (bind, step, reset, the
   * call into SQLite) for many rows, where a catch-up would pay it per row, three times per op.
   */
  insertMany(key: string, sql: (rows: number) => string, rows: readonly unknown[][]): void;
}

type SqliteRows = Pick<SqliteSyncStore, 'readRow' | 'upsertRow' | 'deleteRow' | 'rowsPage' | 'allRows'>;

/** A statement by key, prepared the first time (`build` makes its text). */
type CachedStatement = (key: string, build: () => string) => BetterSqlite3.Statement;

/** A table's columns, and which of them are NOT NULL (SQLite's pragma_table_info). */
interface TableColumns {
  names: Set<string>;
  notNull: Set<string>;
}

/** The synced tables' rows on SQLite, by statements made from the table's own columns and cached per connection. */
export function sqliteRows(sqlite: BetterSqlite3.Database): { plans: SqliteRowPlans; rows: SqliteRows } {
  const tableColumns = new Map<string, TableColumns>();
  const rowStatements = new Map<string, BetterSqlite3.Statement>();
  const upserts = new Map<string, Map<string, UpsertPlan>>();
  const joinUpsert = joinLikeLast();
  const columnsOf = (table: string): TableColumns => {
    let columns = tableColumns.get(table);
    if (!columns) {
      const info = sqlite.prepare<[string], { name: string; notnull: number }>('SELECT name, "notnull" FROM pragma_table_info(?)').all(table);
      columns = { names: new Set(info.map((r) => r.name)), notNull: new Set(info.filter((r) => r.notnull === 1).map((r) => r.name)) };
      tableColumns.set(table, columns);
    }
    return columns;
  };
  const statement: CachedStatement = (key, build) => {
    let st = rowStatements.get(key);
    if (!st) {
      st = sqlite.prepare(build());
      rowStatements.set(key, st);
    }
    return st;
  };
  const where = (pk: readonly string[]) => pk.map((c) => `"${c}" = ?`).join(' AND ');

  /**
   * The upsert of a row with these columns. Keyed by the values' own column order, so a row of a
   * known shape costs no filter or sort. `nulls`: more columns, set to null (a compact op's change
   * leaves them out).
   */
  function upsertPlan(table: string, pk: readonly string[], values: Record<string, unknown>, nulls?: readonly string[]): UpsertPlan {
    const names = columnsOfChange(values, nulls);
    const byTable = upserts.get(table) ?? upserts.set(table, new Map()).get(table)!;
    const key = joinUpsert(names);
    let plan = byTable.get(key);
    // The same list can be split in two ways (which of its columns are `nulls`): the split is part of the plan.
    const split = names.length - (nulls?.length ?? 0);
    if (!plan || plan.length !== names.length || plan.split !== split) {
      plan = newUpsertPlan(table, pk, names, values, nulls, columnsOf(table), statement);
      // As with shapes: only a list without commas in its names is the one list its key names.
      if (!names.some((c) => c.includes(','))) byTable.set(key, plan);
    }
    return plan;
  }

  const rows: SqliteRows = {
    readRow(table, pk, key) {
      return (statement(`r:${table}`, () => `SELECT * FROM "${table}" WHERE ${where(pk)}`).get(...key) as Record<string, unknown> | undefined) ?? null;
    },
    upsertRow(table, pk, values, nulls) {
      const plan = upsertPlan(table, pk, values, nulls);
      plan.one.run(plan.argsOf(values));
    },
    deleteRow(table, pk, key) {
      statement(`d:${table}`, () => `DELETE FROM "${table}" WHERE ${where(pk)}`).run(...key);
    },
    rowsPage(table, pk, limit, offset) {
      return statement(`p:${table}`, () => `SELECT * FROM "${table}" ORDER BY ${pk.map((c) => `"${c}"`).join(', ')} LIMIT ? OFFSET ?`).all(limit, offset) as Record<string, unknown>[];
    },
    allRows(table, pk) {
      return sqlite.prepare(`SELECT * FROM "${table}" ORDER BY ${pk.map((c) => `"${c}"`).join(', ')}`).all() as Record<string, unknown>[];
    },
  };
  return { plans: { upsertPlan, argsOfValues: argsOfValuesCached(), insertMany: insertManyWith(statement) }, rows };
}

/** The plan for one list of columns of a table (`names`: the change's, then its `nulls`). */
function newUpsertPlan(
  table: string,
  pk: readonly string[],
  names: string[],
  values: Record<string, unknown>,
  nulls: readonly string[] | undefined,
  { names: known, notNull }: TableColumns,
  statement: CachedStatement,
): UpsertPlan {
  // The `nulls` columns are not bound per row: a new row leaves them NULL by being silent on
  // them, and a row already there is set to NULL by the update (17 of a customer's 26 columns,
  // bound as NULL per op of a catch-up, were a fifth of its row write). A NOT NULL column stays
  // bound, so NULL there fails as before instead of taking the column's default.
  const nullOnly = new Set(nulls === undefined ? [] : nulls.filter((c) => known.has(c) && !(c in values) && !pk.includes(c) && !notNull.has(c)));
  const columns = names.filter((c) => known.has(c) && !nullOnly.has(c)).sort();
  const sets = [...columns.filter((c) => !pk.includes(c)).map((c) => `"${c}" = excluded."${c}"`), ...[...nullOnly].sort().map((c) => `"${c}" = NULL`)];
  const row = `(${columns.map(() => '?').join(', ')})`;
  const sql = (rows: number) =>
    `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}
         ON CONFLICT (${pk.map((c) => `"${c}"`).join(', ')}) DO ${sets.length ? `UPDATE SET ${sets.join(', ')}` : 'NOTHING'}`;
  const argsOf = (v: Record<string, unknown>) => {
    const args = new Array<unknown>(columns.length);
    for (let i = 0; i < args.length; i++) {
      const value = v[columns[i]];
      args[i] = value === undefined ? null : value;
    }
    return args;
  };
  const planKey = `u:${table}:${columns.join(',')}|${[...nullOnly].sort().join(',')}`;
  const split = names.length - (nulls?.length ?? 0);
  return { key: planKey, one: statement(planKey, () => sql(1)), columns, length: names.length, split, argsOf, sql };
}

/**
 * A row's arguments for a plan, from a page's value array (NewRowInsert.stored) instead of the
 * change object: where each of the plan's columns is in the array is worked out once per list of
 * columns and plan (the last of a repeated column, as the change object has it; none: NULL).
 */
function argsOfValuesCached(): SqliteRowPlans['argsOfValues'] {
  const valueIndexes = new WeakMap<readonly string[], Map<string, number[]>>();
  return (plan, stored) => {
    let byPlan = valueIndexes.get(stored.columns);
    if (byPlan === undefined) valueIndexes.set(stored.columns, (byPlan = new Map()));
    let indexes = byPlan.get(plan.key);
    if (indexes === undefined) byPlan.set(plan.key, (indexes = plan.columns.map((c) => stored.columns.lastIndexOf(c))));
    const args = new Array<unknown>(indexes.length);
    for (let i = 0; i < indexes.length; i++) {
      const value = indexes[i] === -1 ? undefined : stored.values[indexes[i]];
      args[i] = value === undefined ? null : value;
    }
    return args;
  };
}

function insertManyWith(statement: CachedStatement): SqliteRowPlans['insertMany'] {
  return (key, sql, rows) => {
    for (let from = 0; from < rows.length; from += MULTI_ROW) {
      const n = Math.min(MULTI_ROW, rows.length - from);
      let length = 0;
      for (let i = from; i < from + n; i++) length += rows[i].length;
      const args = new Array<unknown>(length);
      let at = 0;
      for (let i = from; i < from + n; i++) {
        const row = rows[i];
        for (let j = 0; j < row.length; j++) args[at++] = row[j];
      }
      statement(`${key}#${n}`, () => sql(n)).run(args);
    }
  };
}
