import { CompiledQuery, type Kysely, type SelectQueryBuilder } from 'kysely';
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
import { isPostgres } from '../dialect';
import { preparedOnHub } from '../postgres/prepared';

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
  // On the hub every statement is a round trip: the same rows in one (db/postgres/bookingView.ts).
  if (isPostgres(db)) return loadBookingViewRowsPostgres(db, orderNumbers);
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

/**
 * Every row a set of booking answers is built from, in one statement on the PostgreSQL hub, where each
 * statement is a round trip (SQLite's path reads them one query each, in process). Each list is the
 * rows of its table as `selectAll()` gives them, aggregated to JSON in the same order the separate
 * queries ask for: row_to_json keeps the table's column order and writes BIGINT and DOUBLE PRECISION
 * as JSON numbers (the ids and sums TourDesk stores are below 2^53, as the pool's parser insists),
 * so the answer built from them is the same byte for byte. One array parameter, so any number of
 * bookings (a search's page) takes one statement too.
 */
const READ = preparedOnHub(`
  WITH b AS (SELECT * FROM bookings WHERE order_number = ANY($1::text[])),
       it AS (SELECT bi.*, p.name AS product_name, p.timezone AS product_timezone, p.details_json AS product_details
                FROM booking_items bi JOIN products p ON p.product_code = bi.product_code WHERE bi.order_number = ANY($1::text[])),
       iss AS (SELECT * FROM vouchers WHERE source_order = ANY($1::text[]))
  SELECT
    (SELECT coalesce(json_agg(b), '[]') FROM b) AS bookings,
    (SELECT coalesce(json_agg(c), '[]') FROM customers c WHERE c.id IN (SELECT customer_id FROM b)) AS customers,
    (SELECT coalesce(json_agg(r), '[]') FROM resellers r WHERE r.id IN (SELECT reseller_id FROM b)) AS resellers,
    (SELECT coalesce(json_agg(it ORDER BY it.position), '[]') FROM it) AS items,
    (SELECT coalesce(json_agg(p ORDER BY p.position), '[]') FROM payments p WHERE p.order_number = ANY($1::text[])) AS payments,
    (SELECT coalesce(json_agg(v ORDER BY v.id), '[]') FROM voucher_redemptions v WHERE v.order_number = ANY($1::text[])) AS redemptions,
    (SELECT coalesce(json_agg(o), '[]') FROM order_barcodes o WHERE o.order_number = ANY($1::text[])) AS order_codes,
    (SELECT coalesce(json_agg(iss ORDER BY iss.code), '[]') FROM iss) AS issued,
    (SELECT coalesce(json_agg(u), '[]') FROM voucher_redemptions u WHERE u.voucher_code IN (SELECT code FROM iss)) AS gift_uses,
    (SELECT coalesce(json_agg(q ORDER BY q.position), '[]') FROM booking_item_quantities q WHERE q.item_id IN (SELECT id FROM it)) AS quantities,
    (SELECT coalesce(json_agg(e ORDER BY e.position), '[]') FROM booking_item_extras e WHERE e.item_id IN (SELECT id FROM it)) AS extras,
    (SELECT coalesce(json_agg(x ORDER BY x.position), '[]') FROM participants x WHERE x.item_id IN (SELECT id FROM it)) AS participants`);

type Row = { [K in keyof BookingViewRows as K extends 'orderCodes' ? 'order_codes' : K extends 'giftUses' ? 'gift_uses' : K]: BookingViewRows[K] };

export async function loadBookingViewRowsPostgres(db: Kysely<Database>, orderNumbers: string[]): Promise<BookingViewRows> {
  const [r] = (await db.executeQuery<Row>(CompiledQuery.raw(READ, [orderNumbers]))).rows;
  return { bookings: r.bookings, customers: r.customers, resellers: r.resellers, items: r.items, payments: r.payments, redemptions: r.redemptions, orderCodes: r.order_codes, issued: r.issued, giftUses: r.gift_uses, quantities: r.quantities, extras: r.extras, participants: r.participants };
}
