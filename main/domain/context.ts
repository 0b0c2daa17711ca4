import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { Database } from '../../db/schema';
import type { DbHandle } from '../../db/connection';
import { DomainError } from './errors';

export interface Clock {
  now(): Date;
}

/**
 * Ids are `seq * 1000 + instanceNo`: unique across instances that sync, and far below 2^53-1 so
 * JavaScript clients read them exactly. Tokens are unguessable codes (QR codes, API keys).
 */
export interface IdGenerator {
  readonly instanceNo: number;
  /** Must be called inside a write transaction (it advances a sequence row in it). */
  nextId(): number;
  /** The next order sequence number (for readable order numbers). */
  nextOrderSeq(): number;
  token(bytes?: number): string;
}

/** Who did something: the key's id and role, and the reseller an agent key belongs to. */
export interface Actor {
  keyId: number | null;
  role: 'supplier' | 'agent' | 'checkin' | 'system';
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
  /** Appends to the op log in this same transaction (the sync module ships it to peers). */
  log(entity: string, entityId: string | number, action: string, payload: unknown): Promise<void>;
}

export interface EngineContext {
  db: Kysely<Database>;
  sqlite: BetterSqlite3.Database;
  clock: Clock;
  ids: IdGenerator;
  dataDir: string | null;
  write<T>(actor: Actor, work: (tx: Tx) => Promise<T>): Promise<T>;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += CROCKFORD[(value << (5 - bits)) & 31];
  return out;
}

/** The default id generator: sequences kept in SQLite, advanced inside the caller's transaction. */
export function sequenceIds(sqlite: BetterSqlite3.Database, instanceNo: number, random: (n: number) => Uint8Array = randomBytes): IdGenerator {
  if (!Number.isInteger(instanceNo) || instanceNo < 1 || instanceNo > 999) throw new Error('instanceNo must be 1..999');
  const advance = sqlite.prepare<[string], { value: number }>('UPDATE sequences SET value = value + 1 WHERE name = ? RETURNING value');
  return {
    instanceNo,
    nextId: () => advance.get('global')!.value * 1000 + instanceNo,
    nextOrderSeq: () => advance.get('order')!.value,
    token: (bytes = 10) => base32(random(bytes)),
  };
}

export function systemClock(): Clock {
  return { now: () => new Date() };
}

export function createContext(handle: DbHandle, clock: Clock, ids: IdGenerator, dataDir: string | null): EngineContext {
  const { db, sqlite } = handle;
  return {
    db,
    sqlite,
    clock,
    ids,
    dataDir,
    async write<T>(actor: Actor, work: (tx: Tx) => Promise<T>): Promise<T> {
      if (!handle.writable) throw new DomainError('READ_ONLY', 'This database was written by a newer TourDesk; it is open read-only');
      return db.connection().execute(async (conn) => {
        // IMMEDIATE takes the write lock up front, so a second process waits (busy_timeout)
        // instead of failing half-way when its read turns into a write.
        await sql`begin immediate`.execute(conn);
        try {
          const now = clock.now().getTime();
          const tx: Tx = {
            db: conn,
            now,
            actor,
            async log(entity, entityId, action, payload) {
              await conn
                .insertInto('op_log')
                .values({
                  seq: undefined,
                  op_id: `${ids.instanceNo}:${ids.nextId()}`,
                  at: now,
                  actor: actor.keyId === null ? actor.role : `${actor.role}:${actor.keyId}`,
                  entity,
                  entity_id: String(entityId),
                  action,
                  payload_json: JSON.stringify(payload),
                })
                .execute();
            },
          };
          const result = await work(tx);
          await sql`commit`.execute(conn);
          return result;
        } catch (error) {
          await sql`rollback`.execute(conn);
          throw error;
        }
      });
    },
  };
}
