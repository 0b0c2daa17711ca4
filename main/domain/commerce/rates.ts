import type { Kysely } from 'kysely';
import type { Database, RateProductsTable } from '../../../db/schema';
import {
  deleteRate,
  deleteRateTerms,
  deleteRateTermsForProduct,
  findPriceOptionLabels,
  findRateById,
  findTermsOfRates,
  insertRate,
  insertRateTerms,
  replaceRateTerms,
  searchRates,
  touchRate,
} from '../../../db/queries/rates';
import { detachResellersFromRate, findResellerRateId } from '../../../db/queries/resellers';
import type { ListedProductRateBody, ProductRateBody, RateBody, RateUpdateBody } from '../../contract/rates';
import type { Actor, EngineContext, Tx } from '../context';
import type { ProductsService } from '../catalogue/products';
import { DomainError } from '../errors';
import { fromMinor, toMinor } from '../money';
import type { RateSearch } from '../../contract/rates';

export type CommissionType = 'NET_RATE' | 'PERCENT';

export interface ProductRate {
  productCode: string;
  commissionType: CommissionType;
  netRates?: { priceOptionLabel: string; netPrice: number }[];
  percentageCommission?: number;
  percentageIncludeExtras?: boolean;
}

export interface Rate {
  rateId: number;
  name: string;
  productRates: ProductRate[];
}

export type { RateSearch };

/** How net rates sit in rate_products.net_rates_json: minor units in the product's currency. */
export interface StoredNetRate {
  priceOptionLabel: string;
  netPriceMinor: number;
}

export const parseNetRates = (json: string | null): StoredNetRate[] => (json ? (JSON.parse(json) as StoredNetRate[]) : []);

export function createRates(ctx: EngineContext, products: ProductsService) {
  async function rowOrThrow(db: Kysely<Database>, rateId: number) {
    const row = await findRateById(db, rateId);
    if (!row) throw new DomainError('NOT_FOUND', `Rate ${rateId} was not found`);
    return row;
  }

  /** The one rate an agent may see: its reseller's. Suppliers (and the system) see every rate. */
  async function agentRateId(actor: Actor): Promise<number | null | 'all'> {
    if (actor.role !== 'agent') return 'all';
    if (actor.resellerId === null) return null;
    return (await findResellerRateId(ctx.db, actor.resellerId)) ?? null;
  }

  async function toApi(db: Kysely<Database>, rows: { id: number; name: string }[]): Promise<Rate[]> {
    if (rows.length === 0) return [];
    const entries = await findTermsOfRates(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((row) => ({
      rateId: row.id,
      name: row.name,
      productRates: entries.filter((e) => e.rate_id === row.id).map((e) => productRateToApi(e, e.currency)),
    }));
  }

  /** Checks one product's terms against the product and turns them into a row. */
  async function productRateRow(tx: Tx, rateId: number, productCode: string, body: ProductRateBody): Promise<RateProductsTable> {
    const product = await products.rowOrThrow(tx.db, productCode);
    if (body.commissionType === 'PERCENT') {
      return {
        rate_id: rateId,
        product_code: productCode,
        commission_type: 'PERCENT',
        net_rates_json: null,
        percentage_commission: body.percentageCommission!,
        percentage_include_extras: body.percentageIncludeExtras ? 1 : 0,
      };
    }
    const options = await findPriceOptionLabels(tx.db, productCode);
    const seen = new Set<string>();
    const netRates: StoredNetRate[] = (body.netRates ?? []).map((entry) => {
      // Labels match the product's options case-insensitively; the product's spelling is stored.
      const option = options.find((o) => o.label.toLowerCase() === entry.priceOptionLabel.toLowerCase());
      if (!option) {
        throw new DomainError('VALIDATION_ERROR', `netRates: product ${productCode} has no price option "${entry.priceOptionLabel}" (it has ${options.map((o) => `"${o.label}"`).join(', ') || 'none'})`);
      }
      if (seen.has(option.label)) throw new DomainError('VALIDATION_ERROR', `netRates: price option "${option.label}" is listed twice`);
      seen.add(option.label);
      return { priceOptionLabel: option.label, netPriceMinor: toMinor(entry.netPrice, product.currency) };
    });
    return { rate_id: rateId, product_code: productCode, commission_type: 'NET_RATE', net_rates_json: JSON.stringify(netRates), percentage_commission: null, percentage_include_extras: null };
  }

  async function writeProductRates(tx: Tx, rateId: number, list: ListedProductRateBody[]): Promise<void> {
    const codes = list.map((r) => r.productCode);
    const duplicate = codes.find((c, i) => codes.indexOf(c) !== i);
    if (duplicate !== undefined) throw new DomainError('VALIDATION_ERROR', `productRates: product ${duplicate} is listed twice`);
    const rows: RateProductsTable[] = [];
    for (const entry of list) rows.push(await productRateRow(tx, rateId, entry.productCode, entry));
    await replaceRateTerms(tx.db, rateId, rows);
  }

  const service = {
    async get(rateId: number, actor: Actor): Promise<Rate> {
      const visible = await agentRateId(actor);
      // An agent asking for another reseller's rate learns nothing, not even that it exists.
      if (visible !== 'all' && visible !== rateId) throw new DomainError('NOT_FOUND', `Rate ${rateId} was not found`);
      return (await toApi(ctx.db, [await rowOrThrow(ctx.db, rateId)]))[0];
    },

    async search(query: RateSearch, actor: Actor): Promise<Rate[]> {
      const visible = await agentRateId(actor);
      if (visible === null) return [];
      const rows = await searchRates(ctx.db, {
        rateId: visible === 'all' ? undefined : visible,
        nameContains: query.rateName,
        productCode: query.productCode,
        limit: query.limit,
        offset: query.offset,
      });
      return toApi(ctx.db, rows);
    },

    async create(body: RateBody, actor: Actor): Promise<Rate> {
      const rateId = await ctx.write(actor, async (tx) => {
        const id = ctx.ids.nextId();
        await insertRate(tx.db, { id, name: body.name, created_at: tx.now, updated_at: tx.now });
        await writeProductRates(tx, id, body.productRates ?? []);
        await tx.journal('rate', id, 'create', body);
        return id;
      });
      return service.get(rateId, actor);
    },

    /** name left out keeps its value; a productRates list sent replaces the whole list. */
    async update(rateId: number, body: RateUpdateBody, actor: Actor): Promise<Rate> {
      await ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, rateId);
        await touchRate(tx.db, rateId, tx.now, body.name);
        if (body.productRates) await writeProductRates(tx, rateId, body.productRates);
        await tx.journal('rate', rateId, 'update', body);
      });
      return service.get(rateId, actor);
    },

    /** Deletes the rate; resellers on it are left without a rate (their agents earn no commission). */
    async remove(rateId: number, actor: Actor): Promise<void> {
      await ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, rateId);
        await detachResellersFromRate(tx.db, rateId);
        await deleteRateTerms(tx.db, rateId);
        await deleteRate(tx.db, rateId);
        await tx.journal('rate', rateId, 'delete', {});
      });
    },

    /** Adds the product to the rate, or replaces its terms there. */
    async putProduct(rateId: number, productCode: string, body: ProductRateBody, actor: Actor): Promise<Rate> {
      await ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, rateId);
        const row = await productRateRow(tx, rateId, productCode, body);
        await deleteRateTermsForProduct(tx.db, rateId, productCode);
        await insertRateTerms(tx.db, row);
        await touchRate(tx.db, rateId, tx.now);
        await tx.journal('rate', rateId, 'put_product', { ...body, productCode });
      });
      return service.get(rateId, actor);
    },

    async removeProduct(rateId: number, productCode: string, actor: Actor): Promise<Rate> {
      await ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, rateId);
        // Terms of a product archived since can still be removed, so no live-product check first.
        const removed = await deleteRateTermsForProduct(tx.db, rateId, productCode);
        if (removed === 0) {
          await products.rowOrThrow(tx.db, productCode);
          throw new DomainError('NOT_FOUND', `Rate ${rateId} has no terms for product ${productCode}`);
        }
        await touchRate(tx.db, rateId, tx.now);
        await tx.journal('rate', rateId, 'remove_product', { productCode });
      });
      return service.get(rateId, actor);
    },

    rowOrThrow,
  };
  return service;
}

export function productRateToApi(row: RateProductsTable, currency: string): ProductRate {
  if (row.commission_type === 'PERCENT') {
    return {
      productCode: row.product_code,
      commissionType: 'PERCENT',
      percentageCommission: row.percentage_commission ?? 0,
      percentageIncludeExtras: row.percentage_include_extras === 1,
    };
  }
  return {
    productCode: row.product_code,
    commissionType: 'NET_RATE',
    netRates: parseNetRates(row.net_rates_json).map((n) => ({ priceOptionLabel: n.priceOptionLabel, netPrice: fromMinor(n.netPriceMinor, currency) })),
  };
}

export type RatesService = ReturnType<typeof createRates>;
