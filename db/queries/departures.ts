import type { Kysely } from 'kysely';
import type { Database, SessionsTable } from '../schema';
import { fixedQuery } from './compiled';

/** The sessions (departures) a manifest or a day board is about, and what is attached to them. */

export { findSessionById } from './sessions';

/** Sessions starting in [from, to), by start then product code; a page of them when `paging` is given. */
export async function sessionsStartingBetween(db: Kysely<Database>, from: number, to: number, paging?: { limit: number; offset: number }): Promise<SessionsTable[]> {
  let query = db.selectFrom('sessions').selectAll().where('start_at', '>=', from).where('start_at', '<', to).orderBy('start_at').orderBy('product_code');
  if (paging) query = query.limit(paging.limit).offset(paging.offset);
  return query.execute();
}

const firstCompanyTimezone = fixedQuery((db) => db.selectFrom('companies').select('timezone').orderBy('id').limit(1));

/** The supplier company's timezone (the first company), for products without their own. */
export async function supplierTimezone(db: Kysely<Database>): Promise<string | undefined> {
  return (await firstCompanyTimezone(db))[0]?.timezone;
}

export interface SessionResourceRow {
  id: number;
  name: string;
  resource_type: string | null;
  seats: number | null;
  resource_order: number | null;
}

/** The resources (vehicles, guides) assigned to a session, in their order. */
export async function resourcesOfSession(db: Kysely<Database>, sessionId: number): Promise<SessionResourceRow[]> {
  return db
    .selectFrom('session_resources')
    .innerJoin('resources', 'resources.id', 'session_resources.resource_id')
    .select(['resources.id', 'resources.name', 'resources.resource_type', 'resources.seats', 'session_resources.resource_order'])
    .where('session_resources.session_id', '=', sessionId)
    .orderBy('session_resources.resource_order')
    .execute();
}
