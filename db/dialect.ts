import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Which SQL engine a Kysely instance talks to. A desk is always SQLite (its data folder); the office
 * hub may run on PostgreSQL (`tourdesk serve --database postgres://…`). Queries stay portable; the
 * few places that differ (case-insensitive LIKE, sequences, transactions, change tokens) ask here.
 */
export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export const isPostgres = (db: Kysely<any>): boolean => dialectOf(db) === 'postgres';

/** `postgres://` / `postgresql://` URLs name a PostgreSQL hub; anything else is not a database URL we know. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}
