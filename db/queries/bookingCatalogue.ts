import type { Kysely } from 'kysely';
import type { Database, ExtrasTable, PriceOptionsTable, ProductsTable, SessionPriceOptionsTable } from '../schema';

/** The catalogue and reseller rows a booking is planned and priced against (read inside its transaction). */

/** A product that may be booked (not deleted). */
export async function findBookableProduct(db: Kysely<Database>, productCode: string): Promise<ProductsTable | undefined> {
  return db.selectFrom('products').selectAll().where('product_code', '=', productCode).where('deleted_at', 'is', null).executeTakeFirst();
}

/** A product as stored, deleted or not (an existing booking's product). */
export async function getProduct(db: Kysely<Database>, productCode: string): Promise<ProductsTable> {
  return db.selectFrom('products').selectAll().where('product_code', '=', productCode).executeTakeFirstOrThrow();
}

export async function listPriceOptions(db: Kysely<Database>, productCode: string): Promise<PriceOptionsTable[]> {
  return db.selectFrom('price_options').selectAll().where('product_code', '=', productCode).orderBy('position').execute();
}

export async function listSessionPriceOverrides(db: Kysely<Database>, sessionId: number): Promise<SessionPriceOptionsTable[]> {
  return db.selectFrom('session_price_options').selectAll().where('session_id', '=', sessionId).execute();
}

export async function listExtrasOfferedWith(db: Kysely<Database>, productCode: string): Promise<ExtrasTable[]> {
  return db
    .selectFrom('product_extras')
    .innerJoin('extras', 'extras.id', 'product_extras.extra_id')
    .selectAll('extras')
    .where('product_extras.product_code', '=', productCode)
    .execute();
}

/** The reseller's id when it exists. */
export async function findResellerId(db: Kysely<Database>, resellerId: number): Promise<number | undefined> {
  const reseller = await db.selectFrom('resellers').select('id').where('id', '=', resellerId).executeTakeFirst();
  return reseller?.id;
}
