import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Compilable, type CompiledQuery } from 'kysely';
import { PostgresSpellings } from '../postgres/spellings';
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

/**
 * A hot read whose SQL never changes shape (scalar arguments only, no `in` lists), written with
 * the query builder as usual but built and compiled once: building and compiling cost more than
 * running such a query. Each call swaps in the argument values and runs on the `db` it is given,
 * so it takes the connection lock like any other query, or runs inside the caller's transaction.
 */
export function fixedQuery<A extends unknown[], O>(build: (db: Kysely<Database>, ...args: A) => Compilable<O>): (db: Kysely<Database>, ...args: A) => Promise<O[]> {
  const marks = Array.from({ length: build.length - 1 }, (_, i) => new Argument(i));
  const prepare = (on: Kysely<Database>) => {
    const compiled = build(on, ...(marks as unknown as A)).compile();
    const slots = compiled.parameters.map((p) => (p instanceof Argument ? p.index : -1));
    for (const mark of marks) if (!slots.includes(mark.index)) throw new Error(`fixedQuery: argument ${mark.index} is not a parameter of ${compiled.sql}`);
    return { compiled, slots };
  };
  const sqlite = prepare(compileOnly);
  let postgres: { compiled: CompiledQuery<O>; slots: number[] } | null = null;
  return async (db, ...args) => {
    const { compiled, slots } = db.getExecutor().adapter instanceof PostgresAdapter ? (postgres ??= prepare(compileOnlyPostgres)) : sqlite;
    const parameters = slots.map((slot, i) => (slot === -1 ? compiled.parameters[i] : args[slot]));
    return (await db.executeQuery<O>({ ...compiled, parameters })).rows;
  };
}
