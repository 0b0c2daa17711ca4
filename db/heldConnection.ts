import type { Kysely, SqliteDatabase } from 'kysely';
import type { Database } from './schema';

/**
 * The statements of a SQLite connection while a write group holds it (db/transaction.ts): a query
 * of that group's connection can run its prepared statement at once, without Kysely's executor
 * (which only waits for a connection the group holds already). Nothing else may: outside the
 * group, a query must wait for the connection, or it would read the writes of a transaction that
 * has not committed.
 */
const statementsOfDb = new WeakMap<Kysely<Database>, SqliteDatabase>();
const held = new WeakMap<Kysely<Database>, SqliteDatabase>();

/** Called once per SQLite database (db/connection.ts): the statement cache its Kysely runs on. */
export function registerStatements(db: Kysely<Database>, statements: SqliteDatabase): void {
  statementsOfDb.set(db, statements);
}

/** Marks `conn` (the connection a write group of `db` holds) as held while `work` runs. */
export async function holding<T>(db: Kysely<Database>, conn: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  const statements = statementsOfDb.get(db);
  if (!statements) return work();
  held.set(conn, statements);
  try {
    return await work();
  } finally {
    held.delete(conn);
  }
}

/** The statements of `db` when it is a held group connection; undefined otherwise (run the query through Kysely). */
export function heldStatements(db: Kysely<Database>): SqliteDatabase | undefined {
  return held.get(db);
}
