import { sql, type Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { base32, type IdGenerator } from '../sequences';
import type { Database } from '../schema';

/**
 * Ids on the PostgreSQL hub: the same scheme as SQLite's (`seq * 1000 + instanceNo`, order numbers
 * from their own sequence), so they stay unique across instances that sync and ≤ 2^53-1. Several hub
 * processes share one database and one instance number, so each process leases a block of sequence
 * numbers (one short UPDATE … RETURNING on the `sequences` row, committed on its own, so no write
 * transaction waits on another's lease) and hands them out without a round trip: nextId() stays
 * synchronous, as the domain calls it. A process that stops loses the rest of its block: ids and
 * order numbers have gaps, never duplicates.
 */
export interface LeasedIds extends IdGenerator {
  /** Makes sure the next write transaction finds ids in hand (called before each attempt). */
  reserve(): Promise<void>;
}

/** Thrown by nextId()/nextOrderSeq() when a transaction used up its block: the transaction is retried after a bigger lease. */
export class IdLeaseExhausted extends Error {
  readonly retryWrite = true;
  constructor(name: string) {
    super(`The ${name} id lease ran out inside a write; retried with a larger one`);
  }
}

interface Lease {
  name: 'global' | 'order';
  next: number;
  end: number; // exclusive
  /** The size of the next lease. */
  block: number;
  /** The size of the current one. */
  leased: number;
}

/** A write that needs more ids than this in one go is not one TourDesk makes; leases stop growing here. */
const MAX_BLOCK = 100_000;

const MAX_SEQ = Math.floor((Number.MAX_SAFE_INTEGER - 999) / 1000);

export function leasedIds(db: Kysely<Database>, instanceNo: number, options: { globalBlock?: number; orderBlock?: number; random?: (n: number) => Uint8Array } = {}): LeasedIds {
  if (!Number.isInteger(instanceNo) || instanceNo < 1 || instanceNo > 999) throw new Error('instanceNo must be 1..999');
  const random = options.random ?? randomBytes;
  const leases: Record<'global' | 'order', Lease> = {
    // 1,000 ids last ~50 bookings, so a lease is a round trip every 50 bookings, not every 9 (ids are internal:
    // a stopped process's unused block is a gap nobody reads); order numbers are read by people, so their block stays small.
    global: { name: 'global', next: 0, end: 0, block: options.globalBlock ?? 1000, leased: options.globalBlock ?? 1000 },
    order: { name: 'order', next: 0, end: 0, block: options.orderBlock ?? 20, leased: options.orderBlock ?? 20 },
  };
  let refilling: Promise<void> | null = null;

  async function refill(lease: Lease): Promise<void> {
    // The block size as asked for: a write running dry meanwhile doubles lease.block for the next lease.
    const block = lease.block;
    const { rows } = await sql<{ value: number }>`UPDATE sequences SET value = value + ${block} WHERE name = ${lease.name} RETURNING value`.execute(db);
    const end = Number(rows[0].value) + 1;
    if (end - 1 > MAX_SEQ) throw new Error(`The ${lease.name} sequence passed ${MAX_SEQ}: ids would exceed 2^53-1`);
    lease.next = end - block;
    lease.end = end;
    lease.leased = block;
  }

  function take(lease: Lease): number {
    if (lease.next >= lease.end) {
      // The write that ran dry retries; the next lease is twice the current one (however many writes
      // ran dry on it), so a big write gets through and the sequence does not leap.
      lease.block = Math.min(MAX_BLOCK, Math.max(lease.block, lease.leased * 2));
      throw new IdLeaseExhausted(lease.name);
    }
    return lease.next++;
  }

  /** A quarter of a block left is enough for an ordinary write; below that, a new block first. */
  const low = (lease: Lease) => lease.end - lease.next < Math.max(1, Math.floor(lease.block / 4));

  return {
    instanceNo,
    nextId: () => take(leases.global) * 1000 + instanceNo,
    nextOrderSeq: () => take(leases.order),
    token: (bytes = 10) => base32(random(bytes)),
    async reserve() {
      while (low(leases.global) || low(leases.order)) {
        // One refill at a time per process: concurrent requests share it.
        refilling ??= (async () => {
          try {
            if (low(leases.global)) await refill(leases.global);
            if (low(leases.order)) await refill(leases.order);
          } finally {
            refilling = null;
          }
        })();
        await refilling;
      }
    },
  };
}
