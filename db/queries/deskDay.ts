import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema';

/** What the desk's week and override views read beyond the day board: payments taken and override check-ins. */

export interface TakingsRow {
  type: string | null;
  currency: string;
  /** Payments − refunds, in minor units. */
  net_minor: number;
  payments: number;
}

/**
 * Payments the supplier's own keys recorded in [from, to) (an agent's are taken elsewhere), by type
 * and currency; a refund counts against its own type.
 */
export async function deskTakingsBetween(db: Kysely<Database>, from: number, to: number): Promise<TakingsRow[]> {
  const rows = await db
    .selectFrom('payments')
    .select(['type', 'currency', sql<number>`sum(case when is_refund = 1 then -amount_minor else amount_minor end)`.as('net_minor'), sql<number>`count(*)`.as('payments')])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .where('recorded_by_reseller_id', 'is', null)
    .groupBy(['type', 'currency'])
    .orderBy('type')
    .orderBy('currency')
    .execute();
  return rows.map((row) => ({ ...row, net_minor: Number(row.net_minor), payments: Number(row.payments) }));
}

export interface OverrideCheckinRow {
  event_id: string;
  occurred_at: number;
  device: string | null;
  override_json: string;
  api_key_id: number | null;
  order_number: string | null;
  participant_id: number | null;
  fields_json: string | null;
  session_id: number;
  product_code: string;
  product_name: string;
  start_at: number;
}

/** CHECK_IN events recorded with an override, of the sessions starting in [from, to), by time; a page of them. */
export async function overrideCheckinsOfSessionsBetween(db: Kysely<Database>, from: number, to: number, paging: { limit: number; offset: number }): Promise<OverrideCheckinRow[]> {
  return db
    .selectFrom('checkin_events')
    .innerJoin('sessions', 'sessions.id', 'checkin_events.session_id')
    .innerJoin('products', 'products.product_code', 'sessions.product_code')
    .leftJoin('participants', 'participants.id', 'checkin_events.participant_id')
    .select([
      'checkin_events.event_id', 'checkin_events.occurred_at', 'checkin_events.device', 'checkin_events.api_key_id', 'checkin_events.order_number', 'checkin_events.participant_id',
      'participants.fields_json', 'sessions.id as session_id', 'sessions.product_code', 'products.name as product_name', 'sessions.start_at',
      sql<string>`checkin_events.override_json`.as('override_json'),
    ])
    .where('checkin_events.kind', '=', 'CHECK_IN')
    .where('checkin_events.override_json', 'is not', null)
    .where('sessions.start_at', '>=', from)
    .where('sessions.start_at', '<', to)
    .orderBy('checkin_events.occurred_at')
    .orderBy('checkin_events.event_id')
    .limit(paging.limit)
    .offset(paging.offset)
    .execute();
}
