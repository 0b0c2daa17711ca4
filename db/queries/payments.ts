import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, PaymentsTable } from '../schema';

export async function insertPayment(db: Kysely<Database>, row: Insertable<PaymentsTable>): Promise<void> {
  await db.insertInto('payments').values(row).execute();
}

/** Σ payments − Σ refunds of an order (minor units, 0 without payments) and the last payment position (−1 without). */
export async function paymentBalance(db: Kysely<Database>, orderNumber: string): Promise<{ netPaidMinor: number; lastPosition: number }> {
  const paid = await db
    .selectFrom('payments')
    .select([sql<number>`coalesce(sum(case when is_refund = 1 then -amount_minor else amount_minor end), 0)`.as('minor'), sql<number>`coalesce(max(position), -1)`.as('last')])
    .where('order_number', '=', orderNumber)
    .executeTakeFirstOrThrow();
  return { netPaidMinor: Number(paid.minor), lastPosition: Number(paid.last) };
}

/** The payment a device recorded under its own id, if any (so a payment sent twice is taken once). */
export async function findPaymentByRef(db: Kysely<Database>, paymentRef: string): Promise<PaymentsTable | undefined> {
  return db.selectFrom('payments').selectAll().where('payment_ref', '=', paymentRef).executeTakeFirst();
}
