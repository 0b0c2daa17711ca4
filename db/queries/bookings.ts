import type { Insertable, Kysely } from 'kysely';
import type { BookingsTable, Database } from '../schema';
import { fixedInsert } from './compiled';

/** The bookings table: one row per order. */

export async function findBooking(db: Kysely<Database>, orderNumber: string): Promise<BookingsTable | undefined> {
  return db.selectFrom('bookings').selectAll().where('order_number', '=', orderNumber).executeTakeFirst();
}

const bookingInsert = fixedInsert('bookings');

export async function insertBooking(db: Kysely<Database>, row: Insertable<BookingsTable>): Promise<void> {
  await bookingInsert(db, [row]);
}

export async function setBookingStatus(db: Kysely<Database>, orderNumber: string, status: string, confirmedAt: number | null): Promise<void> {
  await db.updateTable('bookings').set({ status, confirmed_at: confirmedAt }).where('order_number', '=', orderNumber).execute();
}

export async function markBookingCancelled(db: Kysely<Database>, orderNumber: string, at: number): Promise<void> {
  await db.updateTable('bookings').set({ status: 'CANCELLED', cancelled_at: at, updated_at: at }).where('order_number', '=', orderNumber).execute();
}

/** What PUT replaces on the booking row itself. */
export type BookingDetails = Pick<BookingsTable, 'customer_id' | 'fields_json' | 'reseller_comments' | 'reseller_reference' | 'updated_at'>;

export async function updateBookingDetails(db: Kysely<Database>, orderNumber: string, details: BookingDetails): Promise<void> {
  await db.updateTable('bookings').set(details).where('order_number', '=', orderNumber).execute();
}

export async function customerHasBookings(db: Kysely<Database>, customerId: number): Promise<boolean> {
  const booked = await db.selectFrom('bookings').select('order_number').where('customer_id', '=', customerId).limit(1).executeTakeFirst();
  return booked !== undefined;
}
