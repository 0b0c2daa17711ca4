import { randomBytes } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';

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
  /** Tops up ids held in memory before a write (the PostgreSQL hub's leases, db/postgres/sequences.ts). */
  reserve?(): Promise<void>;
  /**
   * Runs one write's work (inside its transaction) with the ids it takes counted in memory and the
   * sequence row advanced once when the work is done, instead of once per id.
   */
  inWrite?<T>(work: () => Promise<T>): Promise<T>;
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
  const current = sqlite.prepare<[string], number>('SELECT value FROM sequences WHERE name = ?').pluck();
  const store = sqlite.prepare<[number, string]>('UPDATE sequences SET value = ? WHERE name = ?');
  /**
   * The write under way (`inWrite`): the global sequence's value as of its last id, read at its
   * first id and stored once at its end. A write holds the write lock from its first statement to
   * its COMMIT, so no other process can take the same numbers between the read and the store; a
   * write that throws stores nothing and its savepoint undoes what it wrote with those ids.
   */
  let writing: { last: number | null } | null = null;
  const nextGlobal = (): number => {
    if (!writing) return advance.get('global')!.value;
    writing.last = (writing.last ?? current.get('global')!) + 1;
    return writing.last;
  };
  return {
    instanceNo,
    nextId: () => nextGlobal() * 1000 + instanceNo,
    nextOrderSeq: () => advance.get('order')!.value,
    token: (bytes = 10) => base32(random(bytes)),
    async inWrite<T>(work: () => Promise<T>): Promise<T> {
      // Writes on the one connection run one at a time; a nested one (none today) keeps the outer count.
      if (writing) return work();
      const scope = (writing = { last: null as number | null });
      try {
        const result = await work();
        if (scope.last !== null) store.run(scope.last, 'global');
        return result;
      } finally {
        writing = null;
      }
    },
  };
}
