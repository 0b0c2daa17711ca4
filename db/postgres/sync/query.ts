import { CompiledQuery, type Kysely } from 'kysely';

/** A statement held back to travel with a later one (its error as it would have been thrown alone). */
export interface DeferredStatement {
  text: string;
  params: readonly unknown[];
  mapError: (error: unknown) => unknown;
}

/** Raw statements on one connection (a write transaction's, or the pool for reads outside one). */
export interface PostgresQuery {
  run<R>(text: string, params?: readonly unknown[]): Promise<R[]>;
  first<R>(text: string, params?: readonly unknown[]): Promise<R | undefined>;
  /**
   * Holds a statement back, so the one that ends a fold can carry it (a round trip fewer): any other
   * statement on this connection runs it first, alone, so what follows sees its rows as before.
   */
  defer(statement: DeferredStatement): void;
  /** The statement held back if it is `text`, now the caller's to run (or null; another stays held). */
  takeDeferred(text?: string): DeferredStatement | null;
}

export function postgresQuery(conn: Kysely<any>): PostgresQuery {
  let deferred: DeferredStatement | null = null;
  const execute = async <R>(text: string, params: readonly unknown[]): Promise<R[]> => (await conn.executeQuery<R>(CompiledQuery.raw(text, params as unknown[]))).rows;
  const takeDeferred = (text?: string) => {
    const held = deferred;
    if (held === null || (text !== undefined && held.text !== text)) return null;
    deferred = null;
    return held;
  };
  const run = async <R>(text: string, params: readonly unknown[] = []): Promise<R[]> => {
    const held = takeDeferred();
    if (held) await execute(held.text, held.params).catch((error: unknown) => Promise.reject(held.mapError(error)));
    return execute<R>(text, params);
  };
  const first = async <R>(text: string, params: readonly unknown[] = []): Promise<R | undefined> => (await run<R>(text, params))[0];
  const defer = (statement: DeferredStatement) => {
    if (deferred) throw new Error('postgresQuery: a statement is held back already');
    deferred = statement;
  };
  return { run, first, defer, takeDeferred };
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
