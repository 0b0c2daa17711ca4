import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, ExtrasTable } from '../schema';
import { containsText } from './search';

type Db = Kysely<Database>;

export async function findExtra(db: Db, extraId: number): Promise<ExtrasTable | undefined> {
  return db.selectFrom('extras').selectAll().where('id', '=', extraId).executeTakeFirst();
}

/** Which of these ids name an extra. */
export async function findExistingExtraIds(db: Db, extraIds: number[]): Promise<number[]> {
  const rows = await db.selectFrom('extras').select('id').where('id', 'in', extraIds).execute();
  return rows.map((row) => row.id);
}

export interface ExtraFilter {
  /** Matches the name or the description. */
  text?: string;
  limit: number;
  offset: number;
}

/** Extras by name, then id. */
export async function searchExtras(db: Db, filter: ExtraFilter): Promise<ExtrasTable[]> {
  let query = db.selectFrom('extras').selectAll();
  if (filter.text) {
    const text = filter.text;
    query = query.where((eb) => eb.or([containsText('name', text), containsText('description', text)]));
  }
  return query.orderBy('name').orderBy('id').limit(filter.limit).offset(filter.offset).execute();
}

export async function insertExtra(db: Db, row: Insertable<ExtrasTable>): Promise<void> {
  await db.insertInto('extras').values(row).execute();
}

export async function updateExtra(db: Db, extraId: number, values: Updateable<ExtrasTable>): Promise<void> {
  await db.updateTable('extras').set(values).where('id', '=', extraId).execute();
}

/** Products, archived ones included, that offer the extra. */
export async function findProductsOfferingExtra(db: Db, extraId: number): Promise<{ product_code: string; deleted_at: number | null }[]> {
  return db
    .selectFrom('product_extras')
    .innerJoin('products', 'products.product_code', 'product_extras.product_code')
    .select(['products.product_code', 'products.deleted_at'])
    .where('product_extras.extra_id', '=', extraId)
    .execute();
}

/** Takes the extra off every product that offers it. */
export async function unlinkExtraFromProducts(db: Db, extraId: number): Promise<void> {
  await db.deleteFrom('product_extras').where('extra_id', '=', extraId).execute();
}

export async function deleteExtra(db: Db, extraId: number): Promise<void> {
  await db.deleteFrom('extras').where('id', '=', extraId).execute();
}
