import type { Insertable, Kysely } from 'kysely';
import type { BookingItemExtrasTable, BookingItemQuantitiesTable, BookingItemsTable, Database, ProductsTable } from '../schema';
import { fixedInsert } from './compiled';

/** A booking's item rows and what each item holds (quantities, extras). Every booking writes them: compiled once per shape. */
const itemInsert = fixedInsert('booking_items');
const quantitiesInsert = fixedInsert('booking_item_quantities');
const extrasInsert = fixedInsert('booking_item_extras');

export async function insertBookingItem(db: Kysely<Database>, row: Insertable<BookingItemsTable>): Promise<void> {
  await itemInsert(db, [row]);
}

export async function insertItemQuantities(db: Kysely<Database>, rows: Insertable<BookingItemQuantitiesTable>[]): Promise<void> {
  await quantitiesInsert(db, rows);
}

export async function insertItemExtras(db: Kysely<Database>, rows: Insertable<BookingItemExtrasTable>[]): Promise<void> {
  await extrasInsert(db, rows);
}

/** An item with what PUT needs of its product: the timezone, the details (booking fields), enforcement and confirmMode. */
export type ItemWithProductRules = BookingItemsTable & Pick<ProductsTable, 'details_json' | 'enforce_required_fields' | 'confirm_mode' | 'confirm_mode_min_participants'> & { product_timezone: ProductsTable['timezone'] };

export async function listItemsWithProductRules(db: Kysely<Database>, orderNumber: string): Promise<ItemWithProductRules[]> {
  return db
    .selectFrom('booking_items')
    .innerJoin('products', 'products.product_code', 'booking_items.product_code')
    .selectAll('booking_items')
    .select(['products.timezone as product_timezone', 'products.details_json', 'products.enforce_required_fields', 'products.confirm_mode', 'products.confirm_mode_min_participants'])
    .where('order_number', '=', orderNumber)
    .orderBy('position')
    .execute();
}

export async function listItemQuantities(db: Kysely<Database>, itemId: number): Promise<BookingItemQuantitiesTable[]> {
  return db.selectFrom('booking_item_quantities').selectAll().where('item_id', '=', itemId).orderBy('position').execute();
}

export async function setItemPickup(db: Kysely<Database>, itemId: number, pickupJson: string | null): Promise<void> {
  await db.updateTable('booking_items').set({ pickup_json: pickupJson }).where('id', '=', itemId).execute();
}
