import type { Kysely } from 'kysely';
import type { Database, RateProductsTable } from '../schema';
import { fixedQuery } from './compiled';

/** Every booking item an agent books looks these up: compiled once. */
const termsOf = fixedQuery((db, resellerId: number, productCode: string) =>
  db
    .selectFrom('resellers')
    .innerJoin('rate_products', 'rate_products.rate_id', 'resellers.rate_id')
    .selectAll('rate_products')
    .where('resellers.id', '=', resellerId)
    .where('rate_products.product_code', '=', productCode),
);
const optionPrices = fixedQuery((db, productCode: string) => db.selectFrom('price_options').select(['label', 'price_minor']).where('product_code', '=', productCode));

/** The product's terms in the rate of the reseller (none when the reseller has no rate or the rate skips the product). */
export async function findResellerTermsForProduct(db: Kysely<Database>, resellerId: number, productCode: string): Promise<RateProductsTable | undefined> {
  const [terms] = await termsOf(db, resellerId, productCode);
  return terms;
}

/** The product's price per option label, as stored. */
export async function findOptionPrices(db: Kysely<Database>, productCode: string): Promise<{ label: string; price_minor: number }[]> {
  return optionPrices(db, productCode);
}
