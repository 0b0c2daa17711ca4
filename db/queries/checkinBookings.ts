import type { Kysely } from 'kysely';
import type { BookingItemsTable, BookingsTable, Database, ParticipantsTable } from '../schema';
import { fixedQuery } from './compiled';
import { LIVE_STATUSES } from '../../main/contract/enums';

/** The booking, item and participant reads check-in makes outside the manifest loaders (manifest.ts). */

export async function bookingStatusOf(db: Kysely<Database>, orderNumber: string): Promise<Pick<BookingsTable, 'status' | 'cancelled_at'> | undefined> {
  return db.selectFrom('bookings').select(['status', 'cancelled_at']).where('order_number', '=', orderNumber).executeTakeFirst();
}

/** The booking row; it must exist (the caller found one of its codes or items). */
export async function getBooking(db: Kysely<Database>, orderNumber: string): Promise<BookingsTable> {
  return db.selectFrom('bookings').selectAll().where('order_number', '=', orderNumber).executeTakeFirstOrThrow();
}

const orderItems = fixedQuery((db, orderNumber: string) => db.selectFrom('booking_items').selectAll().where('order_number', '=', orderNumber));
export async function itemsOfOrder(db: Kysely<Database>, orderNumber: string): Promise<BookingItemsTable[]> {
  return orderItems(db, orderNumber);
}

export async function itemIdsOfOrder(db: Kysely<Database>, orderNumber: string): Promise<number[]> {
  const rows = await db.selectFrom('booking_items').select('id').where('order_number', '=', orderNumber).execute();
  return rows.map((i) => i.id);
}

export async function itemIdsOfOrderInSession(db: Kysely<Database>, orderNumber: string, sessionId: number): Promise<number[]> {
  const rows = await db.selectFrom('booking_items').select('id').where('order_number', '=', orderNumber).where('session_id', '=', sessionId).execute();
  return rows.map((i) => i.id);
}

export async function productCodeOfItem(db: Kysely<Database>, itemId: number): Promise<string | undefined> {
  const row = await db.selectFrom('booking_items').select('product_code').where('id', '=', itemId).executeTakeFirst();
  return row?.product_code;
}

export async function participantIdsOfItems(db: Kysely<Database>, itemIds: readonly number[]): Promise<number[]> {
  if (itemIds.length === 0) return [];
  const rows = await db.selectFrom('participants').select('id').where('item_id', 'in', itemIds).execute();
  return rows.map((p) => p.id);
}

/** The participants of these items, by position. */
export async function participantsOfItems(db: Kysely<Database>, itemIds: readonly number[]): Promise<ParticipantsTable[]> {
  if (itemIds.length === 0) return [];
  return db.selectFrom('participants').selectAll().where('item_id', 'in', itemIds).orderBy('position').execute();
}

/** The session and booking a participant belongs to (a device event is checked against them). */
export async function participantOwner(db: Kysely<Database>, participantId: number) {
  return db
    .selectFrom('participants')
    .innerJoin('booking_items', 'booking_items.id', 'participants.item_id')
    .innerJoin('bookings', 'bookings.order_number', 'booking_items.order_number')
    .select(['booking_items.session_id', 'bookings.order_number', 'bookings.status', 'bookings.cancelled_at'])
    .where('participants.id', '=', participantId)
    .executeTakeFirst();
}

/** Participant ids of a session's live bookings. */
export async function liveParticipantIdsOf(db: Kysely<Database>, sessionId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('participants')
    .innerJoin('booking_items', 'booking_items.id', 'participants.item_id')
    .innerJoin('bookings', 'bookings.order_number', 'booking_items.order_number')
    .select('participants.id')
    .where('booking_items.session_id', '=', sessionId)
    .where('bookings.status', 'in', [...LIVE_STATUSES])
    .execute();
  return rows.map((r) => r.id);
}
