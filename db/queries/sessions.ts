import type { Insertable, Kysely } from 'kysely';
import type { Database, SessionsTable } from '../schema';
import { fixedQuery } from './compiled';

/** Sessions: one departure of an INVENTORY product, with its capacity (seats held are derived, see seats.ts). */

const sessionById = fixedQuery((db, sessionId: number) => db.selectFrom('sessions').selectAll().where('id', '=', sessionId));
export async function findSessionById(db: Kysely<Database>, sessionId: number): Promise<SessionsTable | undefined> {
  return (await sessionById(db, sessionId))[0];
}

/** The sessions with these ids, in no particular order. */
export async function findSessionsByIds(db: Kysely<Database>, sessionIds: number[]): Promise<SessionsTable[]> {
  return db.selectFrom('sessions').selectAll().where('id', 'in', sessionIds).execute();
}

/** The product's session starting exactly at `startAt` (a product has at most one). */
/** Every booking item finds its session by product and start: compiled once. */
const sessionStartingAt = fixedQuery((db, productCode: string, startAt: number) => db.selectFrom('sessions').selectAll().where('product_code', '=', productCode).where('start_at', '=', startAt));

export async function findSessionStartingAt(db: Kysely<Database>, productCode: string, startAt: number): Promise<SessionsTable | undefined> {
  const [row] = await sessionStartingAt(db, productCode, startAt);
  return row;
}

/** Just the id of the product's session starting at `startAt`, for clash checks and lookups by time. */
export async function findSessionIdStartingAt(db: Kysely<Database>, productCode: string, startAt: number): Promise<{ id: number } | undefined> {
  return db.selectFrom('sessions').select('id').where('product_code', '=', productCode).where('start_at', '=', startAt).executeTakeFirst();
}

/** The product's sessions starting in [from, to], by start. */
export async function findSessionsStartingBetween(db: Kysely<Database>, productCode: string, from: number, to: number): Promise<SessionsTable[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('product_code', '=', productCode)
    .where('start_at', '>=', from)
    .where('start_at', '<=', to)
    .orderBy('start_at')
    .execute();
}

export async function insertSession(db: Kysely<Database>, row: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

export async function updateSession(db: Kysely<Database>, sessionId: number, changes: Pick<SessionsTable, 'seats' | 'all_day' | 'updated_at'>): Promise<void> {
  await db.updateTable('sessions').set(changes).where('id', '=', sessionId).execute();
}

/** Booking items keep their times but lose the link to a session that is deleted. */
export async function unlinkBookingItemsFromSession(db: Kysely<Database>, sessionId: number): Promise<void> {
  await db.updateTable('booking_items').set({ session_id: null }).where('session_id', '=', sessionId).execute();
}

export async function deleteSession(db: Kysely<Database>, sessionId: number): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** What showing a session needs of its product: currency and timezone (archived products included). */
export async function findSessionProducts(db: Kysely<Database>, productCodes: string[]): Promise<{ product_code: string; currency: string; timezone: string | null }[]> {
  return db.selectFrom('products').select(['product_code', 'currency', 'timezone']).where('product_code', 'in', productCodes).execute();
}

/** A live (not archived) product's timezone, to read a session's local start time. */
export async function findLiveProductTimezone(db: Kysely<Database>, productCode: string): Promise<{ product_code: string; timezone: string | null } | undefined> {
  return db.selectFrom('products').select(['product_code', 'timezone']).where('product_code', '=', productCode).where('deleted_at', 'is', null).executeTakeFirst();
}
