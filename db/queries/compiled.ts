import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Compilable, type CompiledQuery, type Insertable } from 'kysely';
import { PostgresSpellings } from '../postgres/spellings';
import { heldStatements } from '../heldConnection';
import { flushInsertBatch, insertBatchOpen, keptInBatch } from './insertBatch';
import type { Database } from '../schema';

/** A Kysely that compiles and never connects: fixed-shape queries are built on it once. */
const compileOnly = new Kysely<Database>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

/** The same for the PostgreSQL hub ($1 placeholders, its spellings). */
const compileOnlyPostgres = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
  plugins: [new PostgresSpellings()],
});

/** Stands for the n-th argument while the query is compiled. */
class Argument {
  constructor(readonly index: number) {}
}

type Compiled = { compiled: CompiledQuery; slots: number[] };

/** A query built with Argument marks, compiled: where each parameter comes from (an argument's index, or -1: a constant compiled in). */
function compileMarked(query: Compilable<unknown>): Compiled {
  const compiled = query.compile();
  return { compiled, slots: compiled.parameters.map((p) => (p instanceof Argument ? p.index : -1)) };
}

/** One shape of a query, compiled for each dialect the first time it runs there. */
type Shape = { sqlite: Compiled | null; postgres: Compiled | null };

/** Runs `shape`, compiled for the dialect of `db` (by `prepare`, on the compile-only Kysely of that dialect), with `args` in its argument slots. */
async function runShape<O>(db: Kysely<Database>, shape: Shape, prepare: (on: Kysely<Database>) => Compiled, args: readonly unknown[]): Promise<O[]> {
  if (insertBatchOpen(db)) await flushInsertBatch(db);
  const { compiled, slots } = db.getExecutor().adapter instanceof PostgresAdapter ? (shape.postgres ??= prepare(compileOnlyPostgres)) : (shape.sqlite ??= prepare(compileOnly));
  return execute<O>(db, compiled, slots.map((slot, i) => (slot === -1 ? compiled.parameters[i] : args[slot])));
}

/**
 * A hot read whose SQL never changes shape (scalar arguments only, no `in` lists), written with
 * the query builder as usual but built and compiled once: building and compiling cost more than
 * running such a query. Each call swaps in the argument values and runs on the `db` it is given,
 * so it takes the connection lock like any other query, or runs inside the caller's transaction.
 */
export function fixedQuery<A extends unknown[], O>(build: (db: Kysely<Database>, ...args: A) => Compilable<O>): (db: Kysely<Database>, ...args: A) => Promise<O[]> {
  const marks = Array.from({ length: build.length - 1 }, (_, i) => new Argument(i));
  const prepare = (on: Kysely<Database>) => {
    const marked = compileMarked(build(on, ...(marks as unknown as A)));
    for (const mark of marks) if (!marked.slots.includes(mark.index)) throw new Error(`fixedQuery: argument ${mark.index} is not a parameter of ${marked.compiled.sql}`);
    return marked;
  };
  // Compiled for SQLite at once, so a query that leaves an argument out fails where it is defined.
  const shape: Shape = { sqlite: prepare(compileOnly), postgres: null };
  return (db, ...args) => runShape<O>(db, shape, prepare, args);
}

/** The longest list a `fixedListQuery` keeps a compiled shape for; a longer one is built per call (its read outweighs the building). */
export const LIST_SHAPES_KEPT = 64;

/**
 * A hot read whose only argument is a list of values (an `in (…)` list), compiled once per list
 * length instead of built and compiled per call: a scan reads its participant's events this way,
 * and the query builder's work cost more than the read. Lists longer than LIST_SHAPES_KEPT are
 * built per call, so the shapes kept stay few.
 */
export function fixedListQuery<K, O>(build: (db: Kysely<Database>, list: readonly K[]) => Compilable<O>): (db: Kysely<Database>, list: readonly K[]) => Promise<O[]> {
  const shapes = new Map<number, Shape>();
  return async (db, list) => {
    // An empty list is built as the query builder builds it (its SQL for `in ()` is its own).
    if (list.length === 0 || list.length > LIST_SHAPES_KEPT) {
      const compiled = build(db, list).compile();
      return execute<O>(db, compiled, [...compiled.parameters]);
    }
    const count = list.length;
    let shape = shapes.get(count);
    if (!shape) shapes.set(count, (shape = { sqlite: null, postgres: null }));
    return runShape<O>(db, shape, (on) => {
      const marked = compileMarked(build(on, Array.from({ length: count }, (_, i) => new Argument(i)) as unknown as K[]));
      for (let i = 0; i < count; i++) if (!marked.slots.includes(i)) throw new Error(`fixedListQuery: value ${i} of the list is not a parameter of ${marked.compiled.sql}`);
      return marked;
    }, list);
  };
}

/**
 * A hot insert of plain rows, compiled once per shape (the row count and the columns the rows set)
 * instead of built and compiled per call: for a booking's rows that building cost more than the
 * inserts. The statement is the one `insertInto(table).values(rows)` makes, so the rows mean what
 * they mean to Kysely (a column left undefined takes its default). Rows that set different
 * columns, or hold a value that is not plain (an expression), go through the query builder as usual.
 */
export function fixedInsert<T extends keyof Database & string>(table: T): (db: Kysely<Database>, rows: readonly Insertable<Database[T]>[]) => Promise<void> {
  const shapes = new Map<string, Shape>();
  return async (db, rows) => {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]).filter((c) => (rows[0] as Record<string, unknown>)[c] !== undefined);
    const values: unknown[] = [];
    for (const row of rows as readonly Record<string, unknown>[]) {
      let defined = 0;
      for (const c in row) if (row[c] !== undefined) defined++;
      if (defined !== columns.length) return builtInsert(db, table, rows);
      for (const c of columns) {
        const value = row[c];
        if (!isPlain(value)) return builtInsert(db, table, rows);
        values.push(value);
      }
    }
    // A new booking's rows on the hub travel together (insertBatch.ts).
    if (keptInBatch(db, table, columns, rows as readonly Record<string, unknown>[])) return;
    const key = `${rows.length}:${columns.join(',')}`;
    let shape = shapes.get(key);
    if (!shape) shapes.set(key, (shape = { sqlite: null, postgres: null }));
    const count = rows.length;
    await runShape(db, shape, (on) => compileMarked(on.insertInto(table).values(Array.from({ length: count }, (_, r) => Object.fromEntries(columns.map((c, i) => [c, new Argument(r * columns.length + i)]))) as never)), values);
  };
}

/**
 * Runs a compiled query on `db`: inside a write group that holds the SQLite connection, its prepared
 * statement at once (db/heldConnection.ts); anywhere else through Kysely, which waits for the connection.
 */
async function execute<O>(db: Kysely<Database>, compiled: CompiledQuery, parameters: unknown[]): Promise<O[]> {
  const held = heldStatements(db);
  if (held === undefined) return (await db.executeQuery<O>({ ...compiled, parameters })).rows;
  const statement = held.prepare(compiled.sql);
  if (statement.reader) return statement.all(parameters) as O[];
  statement.run(parameters);
  return [];
}

/** A value a statement binds as it is (not undefined, not an expression). */
const isPlain = (value: unknown): boolean => value !== undefined && (typeof value !== 'object' || value === null || value instanceof Uint8Array);

async function builtInsert<T extends keyof Database & string>(db: Kysely<Database>, table: T, rows: readonly Insertable<Database[T]>[]): Promise<void> {
  if (insertBatchOpen(db)) await flushInsertBatch(db);
  await db.insertInto(table).values(rows as never).execute();
}
