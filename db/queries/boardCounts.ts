import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema';
import { LIVE_STATUSES } from '../../main/contract/enums';

/** How many of a session's live participants are collected from a pickup point (the day board's pickup count). */
export async function pickupParticipantCount(db: Kysely<Database>, sessionId: number): Promise<number> {
  const row = await db
    .selectFrom('participants')
    .innerJoin('booking_items', 'booking_items.id', 'participants.item_id')
    .innerJoin('bookings', 'bookings.order_number', 'booking_items.order_number')
    .select(sql<number>`count(*)`.as('n'))
    .where('booking_items.session_id', '=', sessionId)
    .where('bookings.status', 'in', [...LIVE_STATUSES])
    .where('booking_items.pickup_json', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
