import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema';

/**
 * A cheap fingerprint of everything a session's manifest shows: its events, its bookings and items,
 * their payments, the session row and the acknowledgements of its oversold notice (one made on
 * another desk arrives by sync, and the notice must turn to "acknowledged" there too). Any write that changes the manifest moves one of these counts
 * or times, so a client polls this (a few indexed aggregates) and fetches the manifest only when it moved.
 */
export async function manifestFingerprint(db: Kysely<Database>, sessionId: number): Promise<string> {
  const orders = () => db.selectFrom('booking_items').select('order_number').where('session_id', '=', sessionId);
  const events = await db
    .selectFrom('checkin_events')
    .select([sql<number>`count(*)`.as('n'), sql<number | null>`max(recorded_at)`.as('last')])
    .where('session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
  const bookings = await db
    .selectFrom('bookings')
    .select([sql<number>`count(*)`.as('n'), sql<number | null>`max(updated_at)`.as('last')])
    .where('order_number', 'in', orders())
    .executeTakeFirstOrThrow();
  const items = await db
    .selectFrom('booking_items')
    .select([sql<number>`count(*)`.as('n'), sql<number | null>`max(id)`.as('last')])
    .where('session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
  const payments = await db
    .selectFrom('payments')
    .select([sql<number>`count(*)`.as('n'), sql<number | null>`sum(amount_minor)`.as('last')])
    .where('order_number', 'in', orders())
    .executeTakeFirstOrThrow();
  const acknowledgements = await db
    .selectFrom('sync_acknowledgements')
    .select([sql<number>`count(*)`.as('n'), sql<number | null>`max(acknowledged_at)`.as('last')])
    .where('session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
  const session = await db.selectFrom('sessions').select(['seats', 'updated_at']).where('id', '=', sessionId).executeTakeFirst();
  return [events.n, events.last, bookings.n, bookings.last, items.n, items.last, payments.n, payments.last, session?.seats, session?.updated_at, acknowledgements.n, acknowledgements.last].map((v) => v ?? '-').join('.');
}
