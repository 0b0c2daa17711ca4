import type { Kysely, SelectQueryBuilder } from 'kysely';
import type {
  BookingItemExtrasTable,
  BookingItemQuantitiesTable,
  BookingItemsTable,
  BookingsTable,
  CustomersTable,
  Database,
  OrderBarcodesTable,
  ParticipantsTable,
  PaymentsTable,
  ResellersTable,
  VoucherRedemptionsTable,
  VouchersTable,
} from '../schema';
import { fixedQuery } from './compiled';

/** An item with the product's name, timezone and details as the booking answer shows them. */
export type ItemWithProduct = BookingItemsTable & { product_name: string; product_timezone: string | null; product_details: string };

/** Every row a set of booking answers is built from, read in a fixed number of queries. */
export interface BookingViewRows {
  bookings: BookingsTable[];
  customers: CustomersTable[];
  resellers: ResellersTable[];
  /** In position order. */
  items: ItemWithProduct[];
  /** In position order. */
  payments: PaymentsTable[];
  /** The orders' own voucher redemptions, by id. */
  redemptions: VoucherRedemptionsTable[];
  orderCodes: OrderBarcodesTable[];
  /** Gift vouchers the orders issued, by code. */
  issued: VouchersTable[];
  /** Every redemption of those gift vouchers (by any order). */
  giftUses: VoucherRedemptionsTable[];
  quantities: BookingItemQuantitiesTable[];
  extras: BookingItemExtrasTable[];
  participants: ParticipantsTable[];
}

/**
 * A list read by keys, written once for either operator: with one key (one booking's answer, after
 * every write and on GET of one booking) the `=` query, built and compiled once (fixedQuery); with
 * several the `in` list, built per call. The same rows either way, in the same order.
 */
function byKeys<K, T extends keyof Database, O>(list: (db: Kysely<Database>, operator: '=' | 'in', keys: K | K[]) => SelectQueryBuilder<Database, T, O>) {
  const one = fixedQuery((db, key: K) => list(db, '=', key));
  return async (db: Kysely<Database>, keys: K[]): Promise<O[]> => (keys.length === 0 ? [] : keys.length === 1 ? one(db, keys[0]) : list(db, 'in', keys).execute());
}

const itemsWithProduct = (db: Kysely<Database>) =>
  db
    .selectFrom('booking_items')
    .innerJoin('products', 'products.product_code', 'booking_items.product_code')
    .selectAll('booking_items')
    .select(['products.name as product_name', 'products.timezone as product_timezone', 'products.details_json as product_details']);

const bookingsOf = byKeys((db, op, orderNumbers: string | string[]) => db.selectFrom('bookings').selectAll().where('order_number', op, orderNumbers));
const customersOf = byKeys((db, op, ids: number | number[]) => db.selectFrom('customers').selectAll().where('id', op, ids));
const resellersOf = byKeys((db, op, ids: number | number[]) => db.selectFrom('resellers').selectAll().where('id', op, ids));
const itemsOf = byKeys((db, op, orderNumbers: string | string[]) => itemsWithProduct(db).where('order_number', op, orderNumbers).orderBy('position'));
const paymentsOf = byKeys((db, op, orderNumbers: string | string[]) => db.selectFrom('payments').selectAll().where('order_number', op, orderNumbers).orderBy('position'));
const redemptionsOf = byKeys((db, op, orderNumbers: string | string[]) => db.selectFrom('voucher_redemptions').selectAll().where('order_number', op, orderNumbers).orderBy('id'));
const orderCodesOf = byKeys((db, op, orderNumbers: string | string[]) => db.selectFrom('order_barcodes').selectAll().where('order_number', op, orderNumbers));
const issuedBy = byKeys((db, op, orderNumbers: string | string[]) => db.selectFrom('vouchers').selectAll().where('source_order', op, orderNumbers).orderBy('code'));
const usesOfVouchers = byKeys((db, op, codes: string | string[]) => db.selectFrom('voucher_redemptions').selectAll().where('voucher_code', op, codes));
const quantitiesOf = byKeys((db, op, itemIds: number | number[]) => db.selectFrom('booking_item_quantities').selectAll().where('item_id', op, itemIds).orderBy('position'));
const extrasOf = byKeys((db, op, itemIds: number | number[]) => db.selectFrom('booking_item_extras').selectAll().where('item_id', op, itemIds).orderBy('position'));
const participantsOf = byKeys((db, op, itemIds: number | number[]) => db.selectFrom('participants').selectAll().where('item_id', op, itemIds).orderBy('position'));

export async function loadBookingViewRows(db: Kysely<Database>, orderNumbers: string[]): Promise<BookingViewRows> {
  const bookings = await bookingsOf(db, orderNumbers);
  const customerIds = bookings.map((b) => b.customer_id).filter((id): id is number => id !== null);
  const resellerIds = bookings.map((b) => b.reseller_id).filter((id): id is number => id !== null);
  const [customers, resellers, items, payments, redemptions, orderCodes, issued] = await Promise.all([
    customersOf(db, customerIds),
    resellersOf(db, resellerIds),
    itemsOf(db, orderNumbers),
    paymentsOf(db, orderNumbers),
    redemptionsOf(db, orderNumbers),
    orderCodesOf(db, orderNumbers),
    issuedBy(db, orderNumbers),
  ]);
  const giftUses = await usesOfVouchers(db, issued.map((v) => v.code));
  const itemIds = items.map((i) => i.id);
  const [quantities, extras, participants] = await Promise.all([quantitiesOf(db, itemIds), extrasOf(db, itemIds), participantsOf(db, itemIds)]);
  return { bookings, customers, resellers, items, payments, redemptions, orderCodes, issued, giftUses, quantities, extras, participants };
}
