import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, PriceOptionsTable, ProductImagesTable, ProductsTable } from '../schema';
import { LIVE_STATUSES } from '../../main/contract/enums';
import { fixedQuery } from './compiled';
import { containsText } from './search';

type Db = Kysely<Database>;

/** GET /v1/products/{code} and every product check read these: compiled once. */
const liveProduct = fixedQuery((db, productCode: string) => db.selectFrom('products').selectAll().where('product_code', '=', productCode).where('deleted_at', 'is', null));
const optionsOfOne = fixedQuery((db, productCode: string) => db.selectFrom('price_options').selectAll().where('product_code', '=', productCode).orderBy('position'));
const extrasOfOne = fixedQuery((db, productCode: string) => db.selectFrom('product_extras').select(['product_code', 'extra_id']).where('product_code', '=', productCode).orderBy('position'));
const imagesOfOne = fixedQuery((db, productCode: string) => db.selectFrom('product_images').selectAll().where('product_code', '=', productCode).orderBy('position'));

/** A product that is not archived, or undefined. */
export async function findLiveProduct(db: Db, productCode: string): Promise<ProductsTable | undefined> {
  const [row] = await liveProduct(db, productCode);
  return row;
}

/** The products' price options, each product's in position order (one product: the compiled query). */
export async function findPriceOptionsOfProducts(db: Db, productCodes: string[]): Promise<PriceOptionsTable[]> {
  if (productCodes.length === 1) return optionsOfOne(db, productCodes[0]);
  return db.selectFrom('price_options').selectAll().where('product_code', 'in', productCodes).orderBy('product_code').orderBy('position').execute();
}

/** Which extras the products offer, each product's in position order. */
export async function findExtraLinksOfProducts(db: Db, productCodes: string[]): Promise<{ product_code: string; extra_id: number }[]> {
  if (productCodes.length === 1) return extrasOfOne(db, productCodes[0]);
  return db.selectFrom('product_extras').select(['product_code', 'extra_id']).where('product_code', 'in', productCodes).orderBy('position').execute();
}

/** The products' images, each product's in position order. */
export async function findImagesOfProducts(db: Db, productCodes: string[]): Promise<ProductImagesTable[]> {
  if (productCodes.length === 1) return imagesOfOne(db, productCodes[0]);
  return db.selectFrom('product_images').selectAll().where('product_code', 'in', productCodes).orderBy('position').execute();
}

export interface LiveProductFilter {
  /** Matches name, product code, internal code or short description. */
  text?: string;
  /** Only products agents may book over the API (api_booking_supported unset or on). */
  marketplaceOnly?: boolean;
  limit: number;
  offset: number;
}

/** Live products by name, then code. */
export async function searchLiveProducts(db: Db, filter: LiveProductFilter): Promise<ProductsTable[]> {
  let query = db.selectFrom('products').selectAll().where('deleted_at', 'is', null);
  if (filter.marketplaceOnly) query = query.where((eb) => eb.or([eb('api_booking_supported', 'is', null), eb('api_booking_supported', '=', 1)]));
  if (filter.text) {
    const text = filter.text;
    query = query.where((eb) => eb.or(['name', 'product_code', 'internal_code', 'short_description'].map((column) => containsText(column, text))));
  }
  return query.orderBy('name').orderBy('product_code').limit(filter.limit).offset(filter.offset).execute();
}

/** Whether any product, archived ones included, has this code. */
export async function productCodeTaken(db: Db, productCode: string): Promise<boolean> {
  const clash = await db.selectFrom('products').select('product_code').where('product_code', '=', productCode).executeTakeFirst();
  return clash !== undefined;
}

export async function insertProduct(db: Db, row: Insertable<ProductsTable>): Promise<void> {
  await db.insertInto('products').values(row).execute();
}

export async function updateProduct(db: Db, productCode: string, values: Updateable<ProductsTable>): Promise<void> {
  await db.updateTable('products').set(values).where('product_code', '=', productCode).execute();
}

export async function archiveProduct(db: Db, productCode: string, now: number): Promise<void> {
  await db.updateTable('products').set({ deleted_at: now, updated_at: now }).where('product_code', '=', productCode).execute();
}

/** Whether any booking item, of any status, is for the product. */
export async function productHasBookings(db: Db, productCode: string): Promise<boolean> {
  const booked = await db.selectFrom('booking_items').select('id').where('product_code', '=', productCode).limit(1).executeTakeFirst();
  return booked !== undefined;
}

/** Booking items of live bookings for the product that end after `now`. */
export async function countUpcomingLiveBookingItems(db: Db, productCode: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('booking_items')
    .innerJoin('bookings', 'bookings.order_number', 'booking_items.order_number')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('booking_items.product_code', '=', productCode)
    .where('booking_items.end_at', '>', now)
    .where('bookings.status', 'in', [...LIVE_STATUSES])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A product's price options, in position order. */
export async function findPriceOptionsOfProduct(db: Db, productCode: string): Promise<PriceOptionsTable[]> {
  return optionsOfOne(db, productCode);
}

export async function deletePriceOptions(db: Db, optionIds: number[]): Promise<void> {
  await db.deleteFrom('price_options').where('id', 'in', optionIds).execute();
}

export async function updatePriceOption(db: Db, optionId: number, values: Updateable<PriceOptionsTable>): Promise<void> {
  await db.updateTable('price_options').set(values).where('id', '=', optionId).execute();
}

export async function insertPriceOption(db: Db, row: Insertable<PriceOptionsTable>): Promise<void> {
  await db.insertInto('price_options').values(row).execute();
}

/** The product offers exactly these extras, in this order. */
export async function replaceProductExtras(db: Db, productCode: string, extraIds: number[]): Promise<void> {
  await db.deleteFrom('product_extras').where('product_code', '=', productCode).execute();
  if (extraIds.length) await db.insertInto('product_extras').values(extraIds.map((extra_id, position) => ({ product_code: productCode, extra_id, position }))).execute();
}

/** The demo's INVENTORY products among these names (to give them sessions). */
export async function findLiveInventoryProductsNamed(db: Db, names: string[]): Promise<{ product_code: string; name: string }[]> {
  return db
    .selectFrom('products')
    .select(['product_code', 'name'])
    .where('name', 'in', names)
    .where('booking_mode', '=', 'INVENTORY')
    .where('deleted_at', 'is', null)
    .execute();
}

/** Sessions of the live products with these names that start after `after`, soonest first. */
export async function findUpcomingSessionsOfProductsNamed(db: Db, names: string[], after: number, limit: number): Promise<{ product_code: string; start_at: number }[]> {
  return db
    .selectFrom('sessions')
    .innerJoin('products', 'products.product_code', 'sessions.product_code')
    .select(['sessions.product_code', 'sessions.start_at'])
    .where('products.name', 'in', names)
    .where('products.deleted_at', 'is', null)
    .where('sessions.start_at', '>', after)
    .orderBy('sessions.start_at')
    .limit(limit)
    .execute();
}
