import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { DbHandle } from '../connection';
import type { Database, VouchersTable } from '../schema';
import { pageReader } from './pages';
import { containsText } from './search';

/** What showing a voucher reads of its row (a page of 100 costs less without the columns it never shows). */
const VOUCHER_COLUMNS = [
  'code',
  'value_type',
  'value_minor',
  'value_percent',
  'currency',
  'product_code',
  'category_id',
  'issue_at',
  'expiry_at',
  'source_order',
  'internal_notes',
  'internal_reference',
] as const satisfies readonly (keyof VouchersTable)[];
export type VoucherRow = Pick<VouchersTable, (typeof VOUCHER_COLUMNS)[number]>;

/** How much of a voucher its redemptions that count (not reversed) have used, and how many there are. */
export interface VoucherUse {
  voucher_code: string;
  redeemed: number;
  uses: number;
}

/** The vouchers stored under any of these codes (codes are compared exactly). */
export async function findVouchersByCodes(db: Kysely<Database>, codes: string[]): Promise<VouchersTable[]> {
  return db.selectFrom('vouchers').selectAll().where('code', 'in', codes).execute();
}

/** Whether the voucher was sold by the reseller: issued by one of that reseller's bookings. */
export async function voucherSoldByReseller(db: Kysely<Database>, code: string, resellerId: number): Promise<boolean> {
  const row = await db
    .selectFrom('vouchers')
    .innerJoin('bookings', 'bookings.order_number', 'vouchers.source_order')
    .select('vouchers.code')
    .where('vouchers.code', '=', code)
    .where('bookings.reseller_id', '=', resellerId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function voucherCodeExists(db: Kysely<Database>, code: string): Promise<boolean> {
  const clash = await db.selectFrom('vouchers').select('code').where('code', '=', code).executeTakeFirst();
  return clash !== undefined;
}

/** The non-reversed redemptions of the vouchers, summed per voucher code (codes without any are absent). */
export async function findVoucherUses(db: Kysely<Database>, codes: string[]): Promise<Map<string, VoucherUse>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .selectFrom('voucher_redemptions')
    .select((eb) => ['voucher_code', eb.fn.sum<number>('amount_minor').as('redeemed'), eb.fn.countAll<number>().as('uses')])
    .where('voucher_code', 'in', codes)
    .where('reversed_at', 'is', null)
    .groupBy('voucher_code')
    .execute();
  return new Map(rows.map((r) => [r.voucher_code, { ...r, redeemed: Number(r.redeemed), uses: Number(r.uses) }]));
}

export async function insertVoucher(db: Kysely<Database>, row: VouchersTable): Promise<void> {
  await db.insertInto('vouchers').values(row).execute();
}

/** A live (not archived) product's code as stored, for a voucher limited to it. */
export async function findLiveProductCode(db: Kysely<Database>, productCode: string): Promise<string | undefined> {
  const product = await db.selectFrom('products').select('product_code').where('product_code', '=', productCode).where('deleted_at', 'is', null).executeTakeFirst();
  return product?.product_code;
}

/** A category's id, when it exists, for a voucher limited to it. */
export async function findCategoryId(db: Kysely<Database>, categoryId: number): Promise<number | undefined> {
  const category = await db.selectFrom('categories').select('id').where('id', '=', categoryId).executeTakeFirst();
  return category?.id;
}

export interface VoucherFilter {
  /** Vouchers where any of `columns` contains this text. */
  text?: string;
  columns: readonly (keyof VouchersTable)[];
  /** Only the vouchers this reseller sold: issued by a booking of that reseller (`source_order`). */
  soldByReseller?: number | null;
  limit: number;
  offset: number;
}

/** A voucher row of a search page, with what its redemptions that count have used (as findVoucherUses sums it). */
export type VoucherPageRow = VoucherRow & { redeemed: number; uses: number };

/**
 * Reads pages of vouchers matching a filter, newest issue first, each with its redemptions that
 * count summed in the same statement (correlated sub-selects run for the page's rows only, on the
 * covering voucher_redemptions_live index). A search never runs inside a transaction, so its pages
 * are read as arrays (see pageReader).
 */
export function voucherSearchReader(handle: DbHandle) {
  const readPage = pageReader(handle);
  return function searchVouchers(filter: VoucherFilter): Promise<VoucherPageRow[]> {
    const live = (eb: ExpressionBuilder<Database, 'vouchers'>) =>
      eb.selectFrom('voucher_redemptions as r').whereRef('r.voucher_code', '=', 'vouchers.code').where('r.reversed_at', 'is', null);
    let q = handle.db
      .selectFrom('vouchers')
      .select(VOUCHER_COLUMNS)
      .select((eb) => [
        live(eb).select(sql<number>`coalesce(sum(r.amount_minor), 0)`.as('sum')).$asScalar().as('redeemed'),
        live(eb).select(sql<number>`count(*)`.as('n')).$asScalar().as('uses'),
      ]);
    if (filter.text) {
      const text = filter.text;
      q = q.where((eb) => eb.or(filter.columns.map((column) => containsText(column, text))));
    }
    if (filter.soldByReseller !== undefined) {
      // No reseller (never for an agent key): ids are positive, so -1 sells nothing.
      const resellerId = filter.soldByReseller ?? -1;
      q = q.where('source_order', 'in', (eb) => eb.selectFrom('bookings').select('order_number').where('reseller_id', '=', resellerId));
    }
    return readPage(q.orderBy('issue_at', 'desc').orderBy('code').limit(filter.limit).offset(filter.offset));
  };
}
