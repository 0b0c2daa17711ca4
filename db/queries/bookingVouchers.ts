import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, VoucherRedemptionsTable, VouchersTable } from '../schema';

/** Vouchers as bookings use them: redeemed against an order, issued by it (gift cards), reversed and expired with it. */

/** The voucher whose code matches, any case. */
export async function findVoucherAnyCase(db: Kysely<Database>, code: string): Promise<VouchersTable | undefined> {
  return db.selectFrom('vouchers').selectAll().where(sql`upper(code)`, '=', code.toUpperCase()).executeTakeFirst();
}

/** What the voucher's live (not reversed) redemptions took: their sum in minor units and their count. */
export async function liveRedemptionTotals(db: Kysely<Database>, voucherCode: string): Promise<{ minor: number; n: number }> {
  const used = await db
    .selectFrom('voucher_redemptions')
    .select([sql<number>`coalesce(sum(amount_minor), 0)`.as('minor'), sql<number>`count(*)`.as('n')])
    .where('voucher_code', '=', voucherCode)
    .where('reversed_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { minor: Number(used.minor), n: Number(used.n) };
}

export async function listCategoryProductCodes(db: Kysely<Database>, categoryId: number): Promise<string[]> {
  const rows = await db.selectFrom('category_products').select('product_code').where('category_id', '=', categoryId).execute();
  return rows.map((r) => r.product_code);
}

export async function insertVoucherRedemption(db: Kysely<Database>, row: Insertable<VoucherRedemptionsTable>): Promise<void> {
  await db.insertInto('voucher_redemptions').values(row).execute();
}

export async function insertGiftVoucher(db: Kysely<Database>, row: Insertable<VouchersTable>): Promise<void> {
  await db.insertInto('vouchers').values(row).execute();
}

/** The order's live redemptions become reversed (the voucher gets the value back). */
export async function reverseOrderRedemptions(db: Kysely<Database>, orderNumber: string, at: number): Promise<void> {
  await db.updateTable('voucher_redemptions').set({ reversed_at: at }).where('order_number', '=', orderNumber).where('reversed_at', 'is', null).execute();
}

/**
 * The gift vouchers the order issued and that have not expired expire now (voucherState counts a
 * voucher as expired once expiry_at < now, hence a millisecond before).
 */
export async function expireGiftVouchersOf(db: Kysely<Database>, orderNumber: string, now: number): Promise<void> {
  await db
    .updateTable('vouchers')
    .set({ expiry_at: now - 1, updated_at: now })
    .where('source_order', '=', orderNumber)
    .where((eb) => eb.or([eb('expiry_at', 'is', null), eb('expiry_at', '>=', now)]))
    .execute();
}
