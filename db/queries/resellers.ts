import type { Kysely } from 'kysely';
import type { Database, ResellersTable } from '../schema';
import { containsText } from './search';

/** Resellers: the agent companies every agent API key belongs to. */

export async function findResellerById(db: Kysely<Database>, resellerId: number): Promise<ResellersTable | undefined> {
  return db.selectFrom('resellers').selectAll().where('id', '=', resellerId).executeTakeFirst();
}

/** The reseller's rate id (null: it has none), or undefined when there is no such reseller. */
export async function findResellerRateId(db: Kysely<Database>, resellerId: number): Promise<number | null | undefined> {
  const row = await db.selectFrom('resellers').select('rate_id').where('id', '=', resellerId).executeTakeFirst();
  return row?.rate_id;
}

export async function setResellerRate(db: Kysely<Database>, resellerId: number, rateId: number | null): Promise<void> {
  await db.updateTable('resellers').set({ rate_id: rateId }).where('id', '=', resellerId).execute();
}

/** Takes every reseller off the rate (their agents earn no commission until they get another). */
export async function detachResellersFromRate(db: Kysely<Database>, rateId: number): Promise<void> {
  await db.updateTable('resellers').set({ rate_id: null }).where('rate_id', '=', rateId).execute();
}

export interface ResellerFilter {
  /** Resellers whose name or alias contains this text. */
  text?: string;
  limit: number;
  offset: number;
}

/** A page of resellers matching the filter, by name and id. */
export async function searchResellers(db: Kysely<Database>, filter: ResellerFilter): Promise<ResellersTable[]> {
  let q = db.selectFrom('resellers').selectAll();
  if (filter.text) {
    const text = filter.text;
    q = q.where((eb) => eb.or([containsText('name', text), containsText('alias', text)]));
  }
  return q.orderBy('name').orderBy('id').limit(filter.limit).offset(filter.offset).execute();
}
