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

export async function loadBookingViewRows(db: Kysely<Database>, orderNumbers: string[]): Promise<BookingViewRows> {
  const bookings = await listBookingsByOrderNumber(db, orderNumbers);
  const customerIds = bookings.map((b) => b.customer_id).filter((id): id is number => id !== null);
  const resellerIds = bookings.map((b) => b.reseller_id).filter((id): id is number => id !== null);
  const [customers, resellers, items, payments, redemptions, orderCodes, issued] = await Promise.all([
    customerIds.length ? listCustomersById(db, customerIds) : [],
    resellerIds.length ? db.selectFrom('resellers').selectAll().where('id', 'in', resellerIds).execute() : [],
    db
      .selectFrom('booking_items')
      .innerJoin('products', 'products.product_code', 'booking_items.product_code')
      .selectAll('booking_items')
      .select(['products.name as product_name', 'products.timezone as product_timezone', 'products.details_json as product_details'])
      .where('order_number', 'in', orderNumbers)
      .orderBy('position')
      .execute(),
    db.selectFrom('payments').selectAll().where('order_number', 'in', orderNumbers).orderBy('position').execute(),
    db.selectFrom('voucher_redemptions').selectAll().where('order_number', 'in', orderNumbers).orderBy('id').execute(),
    db.selectFrom('order_barcodes').selectAll().where('order_number', 'in', orderNumbers).execute(),
    db.selectFrom('vouchers').selectAll().where('source_order', 'in', orderNumbers).orderBy('code').execute(),
  ]);
  const issuedCodes = issued.map((v) => v.code);
  const giftUses = issuedCodes.length ? await db.selectFrom('voucher_redemptions').selectAll().where('voucher_code', 'in', issuedCodes).execute() : [];
  const itemIds = items.map((i) => i.id);
  const [quantities, extras, participants] = itemIds.length
    ? await Promise.all([
        db.selectFrom('booking_item_quantities').selectAll().where('item_id', 'in', itemIds).orderBy('position').execute(),
        db.selectFrom('booking_item_extras').selectAll().where('item_id', 'in', itemIds).orderBy('position').execute(),
        db.selectFrom('participants').selectAll().where('item_id', 'in', itemIds).orderBy('position').execute(),
      ])
    : [[], [], []];
  return { bookings, customers, resellers, items, payments, redemptions, orderCodes, issued, giftUses, quantities, extras, participants };
}
