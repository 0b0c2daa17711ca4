import type { Kysely } from 'kysely';
import type { Database, ExtrasTable, PriceOptionsTable, ProductsTable, SessionPriceOptionsTable } from '../schema';
import { fixedQuery } from './compiled';

/**
 * The catalogue and reseller rows a booking is planned and priced against (read inside its
 * transaction). Every booking reads these, so the fixed-shape ones are compiled once.
 */
const bookableProduct = fixedQuery((db, productCode: string) => db.selectFrom('products').selectAll().where('product_code', '=', productCode).where('deleted_at', 'is', null));
const priceOptionsOf = fixedQuery((db, productCode: string) => db.selectFrom('price_options').selectAll().where('product_code', '=', productCode).orderBy('position'));
const overridesOf = fixedQuery((db, sessionId: number) => db.selectFrom('session_price_options').selectAll().where('session_id', '=', sessionId));
const extrasOfferedWith = fixedQuery((db, productCode: string) =>
  db.selectFrom('product_extras').innerJoin('extras', 'extras.id', 'product_extras.extra_id').selectAll('extras').where('product_extras.product_code', '=', productCode),
);

/** A product that may be booked (not deleted). */
export async function findBookableProduct(db: Kysely<Database>, productCode: string): Promise<ProductsTable | undefined> {
  const [row] = await bookableProduct(db, productCode);
  return row;
}

/** A product as stored, deleted or not (an existing booking's product). */
export async function getProduct(db: Kysely<Database>, productCode: string): Promise<ProductsTable> {
  return db.selectFrom('products').selectAll().where('product_code', '=', productCode).executeTakeFirstOrThrow();
}

export async function listPriceOptions(db: Kysely<Database>, productCode: string): Promise<PriceOptionsTable[]> {
  return priceOptionsOf(db, productCode);
}

export async function listSessionPriceOverrides(db: Kysely<Database>, sessionId: number): Promise<SessionPriceOptionsTable[]> {
  return overridesOf(db, sessionId);
}

export async function listExtrasOfferedWith(db: Kysely<Database>, productCode: string): Promise<ExtrasTable[]> {
  return extrasOfferedWith(db, productCode) as Promise<ExtrasTable[]>;
}

/** The reseller's id when it exists. */
export async function findResellerId(db: Kysely<Database>, resellerId: number): Promise<number | undefined> {
  const reseller = await db.selectFrom('resellers').select('id').where('id', '=', resellerId).executeTakeFirst();
  return reseller?.id;
}
