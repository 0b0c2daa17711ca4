import { CompiledQuery, type Kysely } from 'kysely';

/** Raw statements on one connection (a write transaction's, or the pool for reads outside one). */
export interface PostgresQuery {
  run<R>(text: string, params?: readonly unknown[]): Promise<R[]>;
  first<R>(text: string, params?: readonly unknown[]): Promise<R | undefined>;
}

export function postgresQuery(conn: Kysely<any>): PostgresQuery {
  const run = async <R>(text: string, params: readonly unknown[] = []): Promise<R[]> => (await conn.executeQuery<R>(CompiledQuery.raw(text, params as unknown[]))).rows;
  const first = async <R>(text: string, params: readonly unknown[] = []): Promise<R | undefined> => (await run<R>(text, params))[0];
  return { run, first };
}

/** What every store of one process shares: what it has read that is committed and never changes, and the hub. */
export interface SharedSyncState {
  hubOrigin: string | null;
  shapeIds: Map<string, number>;
  shapeColumns: Map<number, string[]>;
  tableColumns: Map<string, Set<string>>;
}

/**
 * Another hub process committed the same key first (the same new shape, or the same op of a page two
 * desks, or two requests of one desk, pushed at once). PostgreSQL reports it as a unique violation,
 * not a serialization failure, since this transaction never read that key; it is the same race, and
 * the retry (db/postgres/transaction.ts) sees the committed row: the shape is found, the op is a duplicate.
 */
export class ConcurrentInsertError extends Error {
  readonly retryWrite = true;
  constructor(what: string, cause: unknown) {
    super(`Another hub process inserted the same ${what} at the same time; the write is retried`, { cause });
  }
}

export const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';
