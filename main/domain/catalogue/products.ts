import type { Kysely } from 'kysely';
import type { Database, ProductsTable, PriceOptionsTable } from '../../../db/schema';
import {
  archiveProduct,
  countUpcomingLiveBookingItems,
  findExtraLinksOfProducts,
  findImagesOfProducts,
  findLiveProduct,
  findPriceOptionsOfProducts,
  insertProduct,
  productCodeTaken,
  productHasBookings,
  replaceProductExtras,
  searchLiveProducts,
  updateProduct,
} from '../../../db/queries/products';
import { areaChangeTokenOf, type ChangeObservation } from '../../../db/queries/changes';
import { sharedAnswer } from '../sharedAnswers';
import type { ProductBody, ProductUpdateBody, PriceOptionAnswer } from '../../contract/products';
import type { Actor, EngineContext, IdGenerator, Tx } from '../context';
import type { CompaniesService } from '../platform/companies';
import { DomainError } from '../errors';
import { fromMinor } from '../money';
import { toIso } from '../time';
import { imageToApi } from './imageUrls';
import { detailsJson, flatColumns, flatFields } from './productColumns';
import type { ProductSearchQuery } from '../../contract/products';
import { checkReferences, normaliseProductInput } from './productInput';
import { writePriceOptions } from './priceOptionWrites';

/** A price option as the API answers it. */
export type PriceOption = PriceOptionAnswer;

export type Product = Record<string, unknown> & {
  productCode: string;
  name: string;
  currency: string;
  bookingMode: string;
  confirmMode: string;
  timezone: string;
  priceOptions: PriceOption[];
};

/** The API's search, and whether only marketplace products are wanted. */
export type ProductSearch = ProductSearchQuery & { marketplace?: boolean };

export function priceOptionToApi(row: PriceOptionsTable, currency: string): PriceOption {
  const option: PriceOption = { id: row.id, label: row.label, price: fromMinor(row.price_minor, currency), seatsUsed: row.seats_used, productCode: row.product_code };
  if (row.price_group_type !== null) option.priceGroupType = row.price_group_type;
  if (row.min_quantity !== null) option.minQuantity = row.min_quantity;
  if (row.max_quantity !== null) option.maxQuantity = row.max_quantity;
  return option;
}

/** How many product answers the cache holds (a catalogue is tens of products, rarely hundreds). */
const PRODUCTS_CACHED = 500;

async function rowOrThrow(db: Kysely<Database>, productCode: string): Promise<ProductsTable> {
  const row = await findLiveProduct(db, productCode);
  if (!row) throw new DomainError('NOT_FOUND', `Product ${productCode} was not found`);
  return row;
}

async function writeExtras(tx: Tx, productCode: string, extras: { id: number }[]): Promise<void> {
  await replaceProductExtras(tx.db, productCode, [...new Set(extras.map((e) => e.id))]);
}

async function newProductCode(db: Kysely<Database>, ids: IdGenerator): Promise<string> {
  for (;;) {
    const code = `P${ids.token(4)}`.slice(0, 7);
    if (!(await productCodeTaken(db, code))) return code;
  }
}

export function createProducts(ctx: EngineContext, companies: CompaniesService) {
  // A product answer is read far more often than written; it is kept while nothing it is made of
  // (product, options, extras, images, company) changed here, in another process or by sync.
  const changes = areaChangeTokenOf(ctx.handle);
  let answers: { token: string; byCode: Map<string, Product> } = { token: '', byCode: new Map() };

  async function toApi(db: Kysely<Database>, rows: ProductsTable[]): Promise<Product[]> {
    if (rows.length === 0) return [];
    const company = await companies.supplier();
    const codes = rows.map((r) => r.product_code);
    const [options, extras, images] = await Promise.all([findPriceOptionsOfProducts(db, codes), findExtraLinksOfProducts(db, codes), findImagesOfProducts(db, codes)]);
    return rows.map((row) => {
      const product: Record<string, unknown> = { productCode: row.product_code };
      Object.assign(product, flatFields(row));
      product.timezone = row.timezone ?? company.timezone;
      Object.assign(product, JSON.parse(row.details_json));
      product.priceOptions = options.filter((o) => o.product_code === row.product_code).map((o) => priceOptionToApi(o, row.currency));
      product.extras = extras.filter((e) => e.product_code === row.product_code).map((e) => ({ id: e.extra_id }));
      product.images = images.filter((i) => i.product_code === row.product_code).map(imageToApi);
      product.supplierId = company.id;
      product.supplierName = company.companyName;
      product.supplierAlias = company.alias;
      product.dateCreated = toIso(row.created_at);
      product.dateUpdated = toIso(row.updated_at);
      return product as Product;
    });
  }

  const service = {
    /** `seen`: the caller's observation of other processes' commits (a request's, taken as it starts). */
    async get(productCode: string, seen?: ChangeObservation): Promise<Product> {
      const token = changes('products', seen);
      if (answers.token !== token) answers = { token, byCode: new Map() };
      const known = answers.byCode.get(productCode);
      if (known) return known;
      const product = (await toApi(ctx.db, [await rowOrThrow(ctx.db, productCode)]))[0];
      // Kept answers are shared by every caller: frozen, and serialized once by the API.
      if (answers.token === token && answers.byCode.size < PRODUCTS_CACHED) answers.byCode.set(productCode, sharedAnswer(product));
      return product;
    },

    async search(query: ProductSearch): Promise<Product[]> {
      const rows = await searchLiveProducts(ctx.db, { text: query.search, marketplaceOnly: query.marketplace, limit: query.limit, offset: query.offset });
      return toApi(ctx.db, rows);
    },

    async create(body: ProductBody, actor: Actor): Promise<Product> {
      const input = normaliseProductInput(body);
      const company = await companies.supplier();
      const currency = input.currency ?? company.currency;
      const productCode = await ctx.write(actor, async (tx) => {
        await checkReferences(tx, input);
        const productCode = await newProductCode(tx.db, ctx.ids);
        await insertProduct(tx.db, {
          product_code: productCode,
          product_type: 'ACTIVITY',
          booking_mode: 'INVENTORY',
          confirm_mode: 'AUTOCONFIRM',
          ...flatColumns(input, currency),
          name: input.name,
          currency,
          details_json: detailsJson(input),
          created_at: tx.now,
          updated_at: tx.now,
        } as ProductsTable);
        await writePriceOptions(tx, ctx.ids, productCode, currency, input.priceOptions ?? []);
        await writeExtras(tx, productCode, input.extras ?? []);
        await tx.journal('product', productCode, 'create', input);
        return productCode;
      });
      return service.get(productCode);
    },

    /** Fields left out keep their value; a priceOptions or extras list given replaces the old one. */
    async update(productCode: string, body: ProductUpdateBody, actor: Actor): Promise<Product> {
      const input = normaliseProductInput(body);
      await ctx.write(actor, async (tx) => {
        const row = await rowOrThrow(tx.db, productCode);
        if (input.currency !== undefined && input.currency !== row.currency && (await productHasBookings(tx.db, productCode))) {
          throw new DomainError('CONFLICT', `Product ${productCode} has bookings; its currency cannot change`);
        }
        const currency = input.currency ?? row.currency;
        const merged = { quantityRequiredMin: input.quantityRequiredMin ?? row.quantity_required_min, quantityRequiredMax: input.quantityRequiredMax ?? row.quantity_required_max };
        if (merged.quantityRequiredMin !== null && merged.quantityRequiredMax !== null && merged.quantityRequiredMin > merged.quantityRequiredMax) {
          throw new DomainError('VALIDATION_ERROR', 'quantityRequiredMin must not be greater than quantityRequiredMax');
        }
        await checkReferences(tx, input);
        await updateProduct(tx.db, productCode, { ...flatColumns(input, currency), details_json: detailsJson(input, JSON.parse(row.details_json)), updated_at: tx.now });
        if (input.priceOptions) await writePriceOptions(tx, ctx.ids, productCode, currency, input.priceOptions);
        if (input.extras) await writeExtras(tx, productCode, input.extras);
        await tx.journal('product', productCode, 'update', input);
      });
      return service.get(productCode);
    },

    /** Archives the product; refused while it has live bookings for sessions yet to start. */
    async remove(productCode: string, actor: Actor): Promise<void> {
      await ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, productCode);
        const upcoming = await countUpcomingLiveBookingItems(tx.db, productCode, tx.now);
        if (upcoming > 0) {
          throw new DomainError('IN_USE', `Product ${productCode} has ${upcoming} upcoming booking(s); cancel or move them before deleting the product`);
        }
        await archiveProduct(tx.db, productCode, tx.now);
        await tx.journal('product', productCode, 'delete', {});
      });
    },

    /** The product's timezone (its own, or the company's). */
    async timezoneOf(productCode: string): Promise<string> {
      const row = await rowOrThrow(ctx.db, productCode);
      return row.timezone ?? (await companies.supplier()).timezone;
    },

    rowOrThrow,
    toApi,
  };
  return service;
}

export type ProductsService = ReturnType<typeof createProducts>;
