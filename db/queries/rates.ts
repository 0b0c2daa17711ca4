import type { Kysely } from 'kysely';
import type { Database, RateProductsTable, RatesTable } from '../schema';
import { containsText } from './search';

/** Rates (an agent's commission terms) and their per-product terms (rate_products). */

export async function findRateById(db: Kysely<Database>, rateId: number): Promise<RatesTable | undefined> {
  return db.selectFrom('rates').selectAll().where('id', '=', rateId).executeTakeFirst();
}

/** The terms of the given rates, each with its product's currency, by product code. */
export async function findTermsOfRates(db: Kysely<Database>, rateIds: number[]): Promise<(RateProductsTable & { currency: string })[]> {
  return db
    .selectFrom('rate_products')
    .innerJoin('products', 'products.product_code', 'rate_products.product_code')
    .selectAll('rate_products')
    .select('products.currency')
    .where('rate_id', 'in', rateIds)
    .orderBy('rate_products.product_code')
    .execute();
}

/** The labels of a product's price options, in the product's order (net rates name them). */
export async function findPriceOptionLabels(db: Kysely<Database>, productCode: string): Promise<{ label: string }[]> {
  return db.selectFrom('price_options').select('label').where('product_code', '=', productCode).orderBy('position').execute();
}

export interface RateFilter {
  /** Only this rate (an agent sees its reseller's rate alone). */
  rateId?: number;
  /** Rates whose name contains this text. */
  nameContains?: string;
  /** Rates with terms for this product. */
  productCode?: string;
  limit: number;
  offset: number;
}

/** A page of rates matching the filter, by name and id. */
export async function searchRates(db: Kysely<Database>, filter: RateFilter): Promise<{ id: number; name: string }[]> {
  let q = db.selectFrom('rates').select(['id', 'name']);
  if (filter.rateId !== undefined) q = q.where('id', '=', filter.rateId);
  if (filter.nameContains) q = q.where(containsText('name', filter.nameContains));
  if (filter.productCode) {
    const code = filter.productCode;
    q = q.where('id', 'in', (eb) => eb.selectFrom('rate_products').select('rate_id').where('product_code', '=', code));
  }
  return q.orderBy('name').orderBy('id').limit(filter.limit).offset(filter.offset).execute();
}

export async function insertRate(db: Kysely<Database>, row: RatesTable): Promise<void> {
  await db.insertInto('rates').values(row).execute();
}

/** Stamps the rate as changed at `now`, renaming it when a name is given. */
export async function touchRate(db: Kysely<Database>, rateId: number, now: number, name?: string): Promise<void> {
  await db
    .updateTable('rates')
    .set({ ...(name === undefined ? {} : { name }), updated_at: now })
    .where('id', '=', rateId)
    .execute();
}

export async function deleteRate(db: Kysely<Database>, rateId: number): Promise<void> {
  await db.deleteFrom('rates').where('id', '=', rateId).execute();
}

/** Replaces the rate's whole list of product terms. */
export async function replaceRateTerms(db: Kysely<Database>, rateId: number, rows: RateProductsTable[]): Promise<void> {
  await deleteRateTerms(db, rateId);
  if (rows.length) await db.insertInto('rate_products').values(rows).execute();
}

export async function deleteRateTerms(db: Kysely<Database>, rateId: number): Promise<void> {
  await db.deleteFrom('rate_products').where('rate_id', '=', rateId).execute();
}

/** Removes the rate's terms for one product; answers how many rows went (0: it had none). */
export async function deleteRateTermsForProduct(db: Kysely<Database>, rateId: number, productCode: string): Promise<number> {
  const removed = await db.deleteFrom('rate_products').where('rate_id', '=', rateId).where('product_code', '=', productCode).executeTakeFirst();
  return Number(removed.numDeletedRows);
}

export async function insertRateTerms(db: Kysely<Database>, row: RateProductsTable): Promise<void> {
  await db.insertInto('rate_products').values(row).execute();
}
