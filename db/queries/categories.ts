import type { Insertable, Kysely, Updateable } from 'kysely';
import type { CategoriesTable, Database, ProductsTable } from '../schema';
import { containsText } from './search';

type Db = Kysely<Database>;

export async function findCategory(db: Db, categoryId: number): Promise<CategoriesTable | undefined> {
  return db.selectFrom('categories').selectAll().where('id', '=', categoryId).executeTakeFirst();
}

export interface CategoryFilter {
  /** Matches the name. */
  text?: string;
  visible?: boolean;
  limit: number;
  offset: number;
}

/** Categories by name, then id. */
export async function searchCategories(db: Db, filter: CategoryFilter): Promise<CategoriesTable[]> {
  let query = db.selectFrom('categories').selectAll();
  if (filter.text) query = query.where(containsText('name', filter.text));
  if (filter.visible !== undefined) query = query.where('visible', '=', filter.visible ? 1 : 0);
  return query.orderBy('name').orderBy('id').limit(filter.limit).offset(filter.offset).execute();
}

export async function insertCategory(db: Db, row: Insertable<CategoriesTable>): Promise<void> {
  await db.insertInto('categories').values(row).execute();
}

export async function updateCategory(db: Db, categoryId: number, values: Updateable<CategoriesTable>): Promise<void> {
  await db.updateTable('categories').set(values).where('id', '=', categoryId).execute();
}

/** The code of a voucher limited to the category, if any. */
export async function findVoucherLimitedToCategory(db: Db, categoryId: number): Promise<string | undefined> {
  const voucher = await db.selectFrom('vouchers').select('code').where('category_id', '=', categoryId).limit(1).executeTakeFirst();
  return voucher?.code;
}

/** Removes the category and its product links. */
export async function deleteCategoryWithLinks(db: Db, categoryId: number): Promise<void> {
  await db.deleteFrom('category_products').where('category_id', '=', categoryId).execute();
  await db.deleteFrom('categories').where('id', '=', categoryId).execute();
}

/** The category's live products, in the order they were added. */
export async function findLiveProductsInCategory(db: Db, categoryId: number, paging: { limit: number; offset: number }): Promise<ProductsTable[]> {
  return db
    .selectFrom('category_products')
    .innerJoin('products', 'products.product_code', 'category_products.product_code')
    .selectAll('products')
    .where('category_products.category_id', '=', categoryId)
    .where('products.deleted_at', 'is', null)
    .orderBy('category_products.position')
    .limit(paging.limit)
    .offset(paging.offset)
    .execute();
}

export async function isProductInCategory(db: Db, categoryId: number, productCode: string): Promise<boolean> {
  const linked = await db.selectFrom('category_products').select('position').where('category_id', '=', categoryId).where('product_code', '=', productCode).executeTakeFirst();
  return linked !== undefined;
}

/** Links the product after the category's last one. */
export async function appendProductToCategory(db: Db, categoryId: number, productCode: string): Promise<void> {
  const last = await db
    .selectFrom('category_products')
    .select((eb) => eb.fn.max<number | null>('position').as('position'))
    .where('category_id', '=', categoryId)
    .executeTakeFirst();
  await db.insertInto('category_products').values({ category_id: categoryId, product_code: productCode, position: (last?.position ?? -1) + 1 }).execute();
}

/** Unlinks the product; answers whether it was in the category. */
export async function removeProductFromCategory(db: Db, categoryId: number, productCode: string): Promise<boolean> {
  const result = await db.deleteFrom('category_products').where('category_id', '=', categoryId).where('product_code', '=', productCode).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
