import type { CategoriesTable } from '../../../db/schema';
import type { CategoryBody, CategorySearch, CategoryUpdateBody } from '../../contract/categories';
import {
  appendProductToCategory,
  deleteCategoryWithLinks,
  findCategory,
  findLiveProductsInCategory,
  findVoucherLimitedToCategory,
  insertCategory,
  isProductInCategory,
  removeProductFromCategory,
  searchCategories,
  updateCategory,
} from '../../../db/queries/categories';
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
    const row = await findCategory(db, categoryId);
    if (!row) throw notFound('Category', categoryId);
    return row;
  }

  const service = {
    async get(categoryId: number): Promise<Category> {
      return toApi(await rowOrThrow(ctx.db, categoryId));
    },

    async search(query: CategorySearch): Promise<Category[]> {
      const rows = await searchCategories(ctx.db, { text: query.search, visible: query.visible, limit: query.limit, offset: query.offset });
      return rows.map(toApi);
    },

    async create(input: CategoryBody, actor: Actor): Promise<Category> {
      const id = await ctx.write(actor, async (tx) => {
        const id = ctx.ids.nextId();
        await insertCategory(tx.db, {
          id,
          name: input.name,
          description: input.description ?? null,
          visible: visibleOf(input) === false ? 0 : 1,
          image_json: input.image ? JSON.stringify(input.image) : null,
          created_at: tx.now,
          updated_at: tx.now,
        });
        await tx.journal('category', id, 'create', input);
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
        await updateCategory(tx.db, categoryId, values);
        await tx.journal('category', categoryId, 'update', input);
      });
      return service.get(categoryId);
    },

    /** Removes the category (its product links go with it); refused while a voucher is limited to it. */
    async remove(categoryId: number, actor: Actor): Promise<void> {
      await ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, categoryId);
        const voucher = await findVoucherLimitedToCategory(tx.db, categoryId);
        if (voucher !== undefined) throw new DomainError('IN_USE', `Category ${categoryId} limits voucher ${voucher}; change or delete the voucher first`);
        await deleteCategoryWithLinks(tx.db, categoryId);
        await tx.journal('category', categoryId, 'delete', {});
      });
    },

    /** The category's live products, in the order they were added. */
    async products(categoryId: number, paging: { limit: number; offset: number }): Promise<Product[]> {
      await rowOrThrow(ctx.db, categoryId);
      const rows = await findLiveProductsInCategory(ctx.db, categoryId, paging);
      return products.toApi(ctx.db, rows);
    },

    /** Adds a product at the end of the category; adding it again changes nothing. */
    async addProduct(categoryId: number, productCode: string, actor: Actor): Promise<void> {
      await ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, categoryId);
        await products.rowOrThrow(tx.db, productCode);
        if (await isProductInCategory(tx.db, categoryId, productCode)) return;
        await appendProductToCategory(tx.db, categoryId, productCode);
        await tx.journal('category', categoryId, 'addProduct', { productCode });
      });
    },

    /** Takes a product out of the category; 404 when it was not in it. */
    async removeProduct(categoryId: number, productCode: string, actor: Actor): Promise<void> {
      await ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, categoryId);
        if (!(await removeProductFromCategory(tx.db, categoryId, productCode))) throw new DomainError('NOT_FOUND', `Product ${productCode} is not in category ${categoryId}`);
        await tx.journal('category', categoryId, 'removeProduct', { productCode });
      });
    },
  };
  return service;
}

export type CategoriesService = ReturnType<typeof createCategories>;
