import type { Kysely } from 'kysely';
import { observeChanges as observeChangesOf, type ChangeObservation } from '../../db/queries/changes';
import type { Database } from '../../db/schema';
import type { DbHandle } from '../../db/connection';
import type { IdGenerator } from '../../db/sequences';
import { inWriteTransaction, type BeforeCommit } from '../../db/transaction';
import { appendJournal, type JournalEntry } from '../../db/queries/journal';
import { DomainError } from './errors';

export type { IdGenerator } from '../../db/sequences';

export interface Clock {
  now(): Date;
}

/** Who did something: the key's id and role, and the reseller an agent key belongs to. */
export interface Actor {
  keyId: number | null;
  role: 'supplier' | 'agent' | 'checkin' | 'sync' | 'system';
  resellerId: number | null;
  name: string;
}

export const SYSTEM_ACTOR: Actor = { keyId: null, role: 'system', resellerId: null, name: 'system' };

export interface Tx {
  /** Kysely bound to the transaction's connection. */
  db: Kysely<Database>;
  /** The clock read once at the start of the transaction, in epoch ms. */
  now: number;
  actor: Actor;
  /**
   * Records who did what in this instance's request journal (op_log), in this same transaction.
   * Local only: what syncs is the rows the write changed (folded into ops before it commits).
   */
  journal(entity: string, entityId: string | number, action: string, payload: unknown): Promise<void>;
}

export interface EngineContext {
  db: Kysely<Database>;
  /** The database handle, for the few queries that read pages as arrays (db/queries/pages.ts). */
  handle: DbHandle;
  clock: Clock;
  ids: IdGenerator;
  dataDir: string | null;
  /**
   * One write transaction: commits when `work` resolves, rolls back when it throws. `sideBySide`: the
   * work claims every row its rules read (db/queries/claims.ts), so on the PostgreSQL hub it runs
   * beside other such writes instead of in turn (db/transaction.ts).
   */
  write<T>(actor: Actor, work: (tx: Tx) => Promise<T>, options?: { sideBySide?: boolean }): Promise<T>;
  /** The same transaction as `write`, always rolled back: what the write would answer, nothing kept. */
  dryRun<T>(actor: Actor, work: (tx: Tx) => Promise<T>): Promise<T>;
}

export function systemClock(): Clock {
  return { now: () => new Date() };
}

export type { ChangeObservation };

/**
 * What other processes had committed as of now, for a request to hand to the caches it asks
 * (db/queries/changes.ts: one read per request, not one per cache). Undefined on PostgreSQL.
 */
export function observeChanges(ctx: EngineContext): ChangeObservation | undefined {
  return observeChangesOf(ctx.handle);
}

/**
 * The engine's context. `foldWrite` is sync's half of every write (main/sync/fold.ts, passed in by
 * main/engine.ts): run inside the write's transaction after its work, it turns the rows the work
 * changed (captured by triggers) into ops, so a write and its ops commit or roll back together.
 */
export function createContext(handle: DbHandle, clock: Clock, ids: IdGenerator, dataDir: string | null, foldWrite: BeforeCommit): EngineContext {
  const { db } = handle;
  async function run<T>(actor: Actor, work: (tx: Tx) => Promise<T>, dryRun: boolean, sideBySide = false): Promise<T> {
    if (!handle.writable) throw new DomainError('READ_ONLY', 'This database was written by a newer TourDesk; it is open read-only');
    return inWriteTransaction(
      db,
      async (conn) => {
        const now = clock.now().getTime();
        // The write's journal entries are written together once its work is done (one statement, not
        // one per entry: a round trip each on the hub), still inside it and before sync's fold.
        // Nothing reads the journal inside the write that made it; a dry run keeps nothing, so writes none.
        const entries: JournalEntry[] = [];
        const tx: Tx = {
          db: conn,
          now,
          actor,
          journal: async (entity, entityId, action, payload) =>
            void entries.push({
              op_id: `${ids.instanceNo}:${ids.nextId()}`,
              at: now,
              actor: actor.keyId === null ? actor.role : `${actor.role}:${actor.keyId}`,
              entity,
              entity_id: String(entityId),
              action,
              payload_json: JSON.stringify(payload),
            }),
        };
        const result = await (ids.inWrite ? ids.inWrite(() => work(tx)) : work(tx));
        if (!dryRun) await appendJournal(conn, entries);
        return result;
      },
      // The PostgreSQL hub leases ids in blocks; each attempt starts with some in hand.
      { dryRun, sideBySide, beforeAttempt: ids.reserve ? () => ids.reserve!() : undefined, beforeCommit: foldWrite },
    );
  }
  return {
    db,
    handle,
    clock,
    ids,
    dataDir,
    write: (actor, work, options) => run(actor, work, false, options?.sideBySide),
    dryRun: (actor, work) => run(actor, work, true),
  };
}
