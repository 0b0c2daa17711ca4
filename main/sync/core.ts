import type { DbHandle } from '../../db/connection';
import { inWriteTransaction } from '../../db/transaction';
import { migrations } from '../../db/migrations';
import { sqliteSyncStores } from '../../db/queries/sync';
import type { SyncStore, SyncStores } from '../../db/syncStore';
import { postgresSyncStores } from '../../db/postgres/sync';
import { createHlcClock, decodeHlc, DEFAULT_MAX_FUTURE_MS, type HlcClock } from './hlc';

/** The schema version this build writes and understands (the number of migrations). */
export const SCHEMA_VERSION = migrations.length;

/**
 * What every part of the replica shares: this data folder's origin, its sync stores and its clock.
 * The same parts run on both dialects: they read and write through a SyncStore, SQLite's (prepared
 * statements, answering at once) or the PostgreSQL hub's (answering with promises), and await each
 * answer. Every function that writes takes the store of its transaction.
 */
export interface ReplicaCore {
  origin: string;
  /** The store for reads outside a write transaction (pages served, vectors, dumps). */
  outside: SyncStore;
  /** The store for a write transaction's connection. */
  storeAt(conn: unknown): SyncStore;
  now(): number;
  /**
   * This instance's clock as last saved; `hubAheadMs` widens how far ahead a received stamp may be.
   * Its stamps name `instance.origin` when given: a PostgreSQL hub process writes under an origin of its own (migration 20261207_21).
   */
  clockFrom(instance: { last_hlc: string | null; origin?: string }, hubAheadMs?: number): HlcClock;
  /** Runs `work` in one write transaction with the store of its connection. */
  inWrite<T>(work: (q: SyncStore) => Promise<T>): Promise<T>;
}

export function createReplicaCore(handle: DbHandle, now: () => number, options: { maxFutureMs?: number } = {}): ReplicaCore {
  const stores: SyncStores = handle.dialect === 'postgres' ? postgresSyncStores(handle) : sqliteSyncStores(handle.sqlite);
  const origin = stores.origin;
  return {
    origin,
    outside: stores.outside,
    storeAt: (conn) => stores.at(conn),
    now,
    clockFrom(instance, hubAheadMs = 0) {
      const maxFutureMs = (options.maxFutureMs ?? DEFAULT_MAX_FUTURE_MS) + Math.max(0, hubAheadMs);
      return createHlcClock({ origin: instance.origin ?? origin, now, last: instance.last_hlc ? decodeHlc(instance.last_hlc) : null, maxFutureMs });
    },
    inWrite: (work) => inWriteTransaction(handle.db, (conn) => work(stores.at(conn))),
  };
}
