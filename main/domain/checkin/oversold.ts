import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { acknowledgedSets, oversoldSessions, type OversoldRow } from '../../../db/queries/syncPeers';
import type { SessionOversold } from '../../contract/manifest';

/**
 * Overselling found by a merge: both sides sold the last seats while apart. Every booking stays;
 * the session is flagged until a person acknowledges this exact set of bookings. A later change
 * to the set (another booking, a cancellation) reopens it, since the person saw a different set.
 * The one rule for the departure board, the manifest and GET /v1/sync/conflicts.
 */
export interface SessionLoad {
  sessionId: number;
  capacity: number;
  /** Live bookings holding seats on the session. */
  bookings: { orderNumber: string; seats: number }[];
}

export interface Oversold {
  sessionId: number;
  capacity: number;
  seatsHeld: number;
  bookingSet: string;
  orderNumbers: string[];
  acknowledged: boolean;
}

/** The identity of a set of bookings: sorted order numbers, comma-joined (what an acknowledgement names). */
export function bookingSetKey(orderNumbers: readonly string[]): string {
  return [...new Set(orderNumbers)].sort().join(',');
}

export function oversoldOf(load: SessionLoad, acknowledgedSets: ReadonlySet<string>): Oversold | null {
  const seatsHeld = load.bookings.reduce((sum, b) => sum + b.seats, 0);
  if (seatsHeld <= load.capacity) return null;
  const orderNumbers = [...new Set(load.bookings.map((b) => b.orderNumber))].sort();
  const bookingSet = bookingSetKey(orderNumbers);
  return { sessionId: load.sessionId, capacity: load.capacity, seatsHeld, bookingSet, orderNumbers, acknowledged: acknowledgedSets.has(bookingSet) };
}

/** An oversold session as stored (its first booking's row names it) and its open notice. */
export interface OversoldSession {
  session: OversoldRow;
  oversold: SessionOversold;
}

/**
 * Every oversold session (or those of `sessionIds`), in start order, with the notice the board, the
 * manifest and the sync conflicts show: its bookings and whether a person acknowledged this set.
 */
export async function oversoldSessionsOf(db: Kysely<Database>, sessionIds?: readonly number[]): Promise<Map<number, OversoldSession>> {
  const rows = await oversoldSessions(db, sessionIds);
  const out = new Map<number, OversoldSession>();
  if (rows.length === 0) return out;
  const acks = await acknowledgedSets(db, [...new Set(rows.map((r) => r.session_id))]);
  const bySession = new Map<number, { session: OversoldRow; load: SessionLoad }>();
  for (const r of rows) {
    const entry = bySession.get(r.session_id) ?? { session: r, load: { sessionId: r.session_id, capacity: r.capacity, bookings: [] } };
    entry.load.bookings.push({ orderNumber: r.order_number, seats: r.seats });
    bySession.set(r.session_id, entry);
  }
  for (const [sessionId, { session, load }] of bySession) {
    const sets = new Set([...acks].filter((a) => a.startsWith(`${sessionId}|`)).map((a) => a.slice(String(sessionId).length + 1)));
    const found = oversoldOf(load, sets);
    if (found) out.set(sessionId, { session, oversold: { capacity: found.capacity, seatsHeld: found.seatsHeld, bookingSet: found.bookingSet, bookings: load.bookings, acknowledged: found.acknowledged } });
  }
  return out;
}

/** The open sync conflict of each of these sessions that is oversold, so the departure board and the manifest carry the flag. */
export async function oversoldBySession(db: Kysely<Database>, sessionIds: readonly number[]): Promise<Map<number, SessionOversold>> {
  return new Map([...(await oversoldSessionsOf(db, sessionIds))].map(([sessionId, { oversold }]) => [sessionId, oversold]));
}
