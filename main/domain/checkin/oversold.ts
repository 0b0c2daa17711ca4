import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { acknowledgedSets, oversoldSessions } from '../../../db/queries/syncPeers';
import type { SessionOversold } from '../../contract/manifest';
import { oversoldOf } from '../../sync/oversell';

/**
 * The open sync conflict of each of these sessions that is oversold (the same rule and booking
 * set as GET /v1/sync/conflicts), so the departure board and the manifest carry the flag.
 */
export async function oversoldBySession(db: Kysely<Database>, sessionIds: readonly number[]): Promise<Map<number, SessionOversold>> {
  const rows = await oversoldSessions(db, sessionIds);
  const out = new Map<number, SessionOversold>();
  if (rows.length === 0) return out;
  const acks = await acknowledgedSets(db, [...new Set(rows.map((r) => r.session_id))]);
  const bySession = new Map<number, { capacity: number; bookings: { orderNumber: string; seats: number }[] }>();
  for (const r of rows) {
    const entry = bySession.get(r.session_id) ?? { capacity: r.capacity, bookings: [] };
    entry.bookings.push({ orderNumber: r.order_number, seats: r.seats });
    bySession.set(r.session_id, entry);
  }
  for (const [sessionId, load] of bySession) {
    const sets = new Set([...acks].filter((a) => a.startsWith(`${sessionId}|`)).map((a) => a.slice(String(sessionId).length + 1)));
    const found = oversoldOf({ sessionId, ...load }, sets);
    if (found) out.set(sessionId, { capacity: found.capacity, seatsHeld: found.seatsHeld, bookingSet: found.bookingSet, bookings: load.bookings, acknowledged: found.acknowledged });
  }
  return out;
}
