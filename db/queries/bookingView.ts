import type { Kysely } from 'kysely';
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
import { listBookingsByOrderNumber } from './bookings';
import { fixedQuery } from './compiled';
import { listCustomersById } from './customers';

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
 * A list read by keys: with one key (one booking's answer, after every write and on GET of one
 * booking) an `=` query built and compiled once (fixedQuery), with several an `in` list built per
 * call. The same rows either way, in the same order.
 */
function byKeys<K, O>(one: (db: Kysely<Database>, key: K) => Promise<O[]>, many: (db: Kysely<Database>, keys: K[]) => Promise<O[]>) {
  return async (db: Kysely<Database>, keys: K[]): Promise<O[]> => (keys.length === 0 ? [] : keys.length === 1 ? one(db, keys[0]) : many(db, keys));
}

const itemsWithProduct = (db: Kysely<Database>) =>
  db
    .selectFrom('booking_items')
    .innerJoin('products', 'products.product_code', 'booking_items.product_code')
    .selectAll('booking_items')
    .select(['products.name as product_name', 'products.timezone as product_timezone', 'products.details_json as product_details']);

const bookingsOf = byKeys(
  fixedQuery((db, orderNumber: string) => db.selectFrom('bookings').selectAll().where('order_number', '=', orderNumber)),
  listBookingsByOrderNumber,
);
const customersOf = byKeys(
  fixedQuery((db, id: number) => db.selectFrom('customers').selectAll().where('id', '=', id)),
  listCustomersById,
);
const resellersOf = byKeys(
  fixedQuery((db, id: number) => db.selectFrom('resellers').selectAll().where('id', '=', id)),
  (db, ids: number[]) => db.selectFrom('resellers').selectAll().where('id', 'in', ids).execute(),
);
const itemsOf = byKeys(
  fixedQuery((db, orderNumber: string) => itemsWithProduct(db).where('order_number', '=', orderNumber).orderBy('position')),
  (db, orderNumbers: string[]) => itemsWithProduct(db).where('order_number', 'in', orderNumbers).orderBy('position').execute(),
);
const paymentsOf = byKeys(
  fixedQuery((db, orderNumber: string) => db.selectFrom('payments').selectAll().where('order_number', '=', orderNumber).orderBy('position')),
  (db, orderNumbers: string[]) => db.selectFrom('payments').selectAll().where('order_number', 'in', orderNumbers).orderBy('position').execute(),
);
const redemptionsOf = byKeys(
  fixedQuery((db, orderNumber: string) => db.selectFrom('voucher_redemptions').selectAll().where('order_number', '=', orderNumber).orderBy('id')),
  (db, orderNumbers: string[]) => db.selectFrom('voucher_redemptions').selectAll().where('order_number', 'in', orderNumbers).orderBy('id').execute(),
);
const orderCodesOf = byKeys(
  fixedQuery((db, orderNumber: string) => db.selectFrom('order_barcodes').selectAll().where('order_number', '=', orderNumber)),
  (db, orderNumbers: string[]) => db.selectFrom('order_barcodes').selectAll().where('order_number', 'in', orderNumbers).execute(),
);
const issuedBy = byKeys(
  fixedQuery((db, orderNumber: string) => db.selectFrom('vouchers').selectAll().where('source_order', '=', orderNumber).orderBy('code')),
  (db, orderNumbers: string[]) => db.selectFrom('vouchers').selectAll().where('source_order', 'in', orderNumbers).orderBy('code').execute(),
);
const usesOfVouchers = byKeys(
  fixedQuery((db, code: string) => db.selectFrom('voucher_redemptions').selectAll().where('voucher_code', '=', code)),
  (db, codes: string[]) => db.selectFrom('voucher_redemptions').selectAll().where('voucher_code', 'in', codes).execute(),
);
const quantitiesOf = byKeys(
  fixedQuery((db, itemId: number) => db.selectFrom('booking_item_quantities').selectAll().where('item_id', '=', itemId).orderBy('position')),
  (db, itemIds: number[]) => db.selectFrom('booking_item_quantities').selectAll().where('item_id', 'in', itemIds).orderBy('position').execute(),
);
const extrasOf = byKeys(
  fixedQuery((db, itemId: number) => db.selectFrom('booking_item_extras').selectAll().where('item_id', '=', itemId).orderBy('position')),
  (db, itemIds: number[]) => db.selectFrom('booking_item_extras').selectAll().where('item_id', 'in', itemIds).orderBy('position').execute(),
);
const participantsOf = byKeys(
  fixedQuery((db, itemId: number) => db.selectFrom('participants').selectAll().where('item_id', '=', itemId).orderBy('position')),
  (db, itemIds: number[]) => db.selectFrom('participants').selectAll().where('item_id', 'in', itemIds).orderBy('position').execute(),
);

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
