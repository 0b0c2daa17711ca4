import type { CategoriesTable } from '../../../db/schema';
import type { CategoryBody, CategorySearch, CategoryUpdateBody } from '../../contract/categories';
import { containsText } from '../../../db/queries/search';
import type { Actor, EngineContext, Tx } from '../context';
import type { Product, ProductsService } from './products';
import { DomainError, notFound } from '../errors';

export interface Category {
  id: number;
  name: string;
  description?: string;
  /** Both names carry the same flag: clients read either. */
  visible: boolean;
  isVisible: boolean;
  image?: Record<string, unknown>;
}

function toApi(row: CategoriesTable): Category {
  const category: Category = { id: row.id, name: row.name, visible: row.visible === 1, isVisible: row.visible === 1 };
  if (row.description !== null) category.description = row.description;
  if (row.image_json !== null) category.image = JSON.parse(row.image_json);
  return category;
}

const visibleOf = (input: CategoryUpdateBody): boolean | undefined => input.visible ?? input.isVisible;

export function createCategories(ctx: EngineContext, products: ProductsService) {
  async function rowOrThrow(db: Tx['db'] | EngineContext['db'], categoryId: number): Promise<CategoriesTable> {
    const row = await db.selectFrom('categories').selectAll().where('id', '=', categoryId).executeTakeFirst();
    if (!row) throw notFound('Category', categoryId);
    return row;
  }

  const service = {
    async get(categoryId: number): Promise<Category> {
      return toApi(await rowOrThrow(ctx.db, categoryId));
    },

    async search(query: CategorySearch): Promise<Category[]> {
      let q = ctx.db.selectFrom('categories').selectAll();
      if (query.search) q = q.where(containsText('name', query.search));
      if (query.visible !== undefined) q = q.where('visible', '=', query.visible ? 1 : 0);
      const rows = await q.orderBy('name').orderBy('id').limit(query.limit).offset(query.offset).execute();
      return rows.map(toApi);
    },

    async create(input: CategoryBody, actor: Actor): Promise<Category> {
      const id = await ctx.write(actor, async (tx) => {
        const id = ctx.ids.nextId();
        await tx.db
          .insertInto('categories')
          .values({
            id,
            name: input.name,
            description: input.description ?? null,
            visible: visibleOf(input) === false ? 0 : 1,
            image_json: input.image ? JSON.stringify(input.image) : null,
            created_at: tx.now,
            updated_at: tx.now,
          })
          .execute();
        await tx.log('category', id, 'create', input);
        return id;
      });
      return service.get(id);
    },

    /** Fields left out keep their value. */
    async update(categoryId: number, input: CategoryUpdateBody, actor: Actor): Promise<Category> {
      await ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, categoryId);
        const values: Partial<CategoriesTable> = { updated_at: tx.now };
        if (input.name !== undefined) values.name = input.name;
        if (input.description !== undefined) values.description = input.description;
        const visible = visibleOf(input);
        if (visible !== undefined) values.visible = visible ? 1 : 0;
        if (input.image !== undefined) values.image_json = JSON.stringify(input.image);
        await tx.db.updateTable('categories').set(values).where('id', '=', categoryId).execute();
        await tx.log('category', categoryId, 'update', input);
      });
      return service.get(categoryId);
    },

    /** Removes the category (its product links go with it); refused while a voucher is limited to it. */
    async remove(categoryId: number, actor: Actor): Promise<void> {
      await ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, categoryId);
        const voucher = await tx.db.selectFrom('vouchers').select('code').where('category_id', '=', categoryId).limit(1).executeTakeFirst();
        if (voucher) throw new DomainError('IN_USE', `Category ${categoryId} limits voucher ${voucher.code}; change or delete the voucher first`);
        await tx.db.deleteFrom('category_products').where('category_id', '=', categoryId).execute();
        await tx.db.deleteFrom('categories').where('id', '=', categoryId).execute();
        await tx.log('category', categoryId, 'delete', {});
      });
    },

    /** The category's live products, in the order they were added. */
    async products(categoryId: number, paging: { limit: number; offset: number }): Promise<Product[]> {
      await rowOrThrow(ctx.db, categoryId);
      const rows = await ctx.db
        .selectFrom('category_products')
        .innerJoin('products', 'products.product_code', 'category_products.product_code')
        .selectAll('products')
        .where('category_products.category_id', '=', categoryId)
        .where('products.deleted_at', 'is', null)
        .orderBy('category_products.position')
        .limit(paging.limit)
        .offset(paging.offset)
        .execute();
      return products.toApi(ctx.db, rows);
    },

    /** Adds a product at the end of the category; adding it again changes nothing. */
    async addProduct(categoryId: number, productCode: string, actor: Actor): Promise<void> {
      await ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, categoryId);
        await products.rowOrThrow(tx.db, productCode);
        const linked = await tx.db.selectFrom('category_products').select('position').where('category_id', '=', categoryId).where('product_code', '=', productCode).executeTakeFirst();
        if (linked) return;
        const last = await tx.db
          .selectFrom('category_products')
          .select((eb) => eb.fn.max<number | null>('position').as('position'))
          .where('category_id', '=', categoryId)
          .executeTakeFirst();
        await tx.db.insertInto('category_products').values({ category_id: categoryId, product_code: productCode, position: (last?.position ?? -1) + 1 }).execute();
        await tx.log('category', categoryId, 'addProduct', { productCode });
      });
    },

    /** Takes a product out of the category; 404 when it was not in it. */
    async removeProduct(categoryId: number, productCode: string, actor: Actor): Promise<void> {
      await ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, categoryId);
        const result = await tx.db.deleteFrom('category_products').where('category_id', '=', categoryId).where('product_code', '=', productCode).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) throw new DomainError('NOT_FOUND', `Product ${productCode} is not in category ${categoryId}`);
        await tx.log('category', categoryId, 'removeProduct', { productCode });
      });
    },
  };
  return service;
}

export type CategoriesService = ReturnType<typeof createCategories>;
