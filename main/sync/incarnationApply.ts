import type { SyncStore } from '../../db/syncStore';
import type { WireOp } from './op';

/*
 * What incarnations (incarnation.ts) change in applying a page: the catalogue's owner is the hub and
 * its earlier selves, and an earlier self's ops coming back raise the sequences past what they name.
 */

/** The hub whose catalogue ops count, under its origin now and every earlier one. */
export async function catalogueOwners(q: SyncStore, owner: string): Promise<ReadonlySet<string>> {
  return new Set([owner, ...(await q.predecessors(owner))]);
}

const ORDER_NUMBER = /^T\d+-(\d+)$/;

/**
 * Ops this instance's earlier self made (before a restore) came back from a peer: the ids and order
 * numbers their inserts name were given out, so the sequences move past them (never back).
 */
export async function raiseAboveEarlierSelf(q: SyncStore, origin: string, ops: readonly WireOp[]): Promise<void> {
  const inserts = ops.filter((op) => op.kind === 'insert' && op.change !== null);
  if (inserts.length === 0) return;
  const earlier = new Set(await q.predecessors(origin));
  if (earlier.size === 0) return;
  let globalSeq = 0;
  let orderSeq = 0;
  for (const op of inserts) {
    if (!earlier.has(op.origin)) continue;
    const change = op.change as Record<string, unknown>;
    if (typeof change.id === 'number' && Number.isSafeInteger(change.id)) globalSeq = Math.max(globalSeq, Math.floor(change.id / 1000));
    const order = op.entity === 'bookings' && typeof change.order_number === 'string' ? ORDER_NUMBER.exec(change.order_number) : null;
    if (order) orderSeq = Math.max(orderSeq, Number(order[1]));
  }
  if (globalSeq > 0 || orderSeq > 0) await q.raiseSequences(globalSeq, orderSeq);
}
