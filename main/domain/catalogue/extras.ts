import type { ExtrasTable } from '../../../db/schema';
import type { ExtraBody, ExtraSearch, ExtraUpdateBody } from '../../contract/extras';
import { deleteExtra, findExtra, findProductsOfferingExtra, insertExtra, searchExtras, unlinkExtraFromProducts, updateExtra } from '../../../db/queries/extras';
import type { Actor, EngineContext } from '../context';
import type { CompaniesService } from '../platform/companies';
import { DomainError, notFound } from '../errors';
import { fromMinor, toMinor } from '../money';

export interface Extra {
  id: number;
  name: string;
  description?: string;
  extraPriceType: string;
  /** Major units of the extra's currency (the company's when it was created). */
  price: number;
  image?: Record<string, unknown>;
  unitLabel?: string;
}

export function extraToApi(row: ExtrasTable): Extra {
  const extra: Extra = { id: row.id, name: row.name, extraPriceType: row.extra_price_type, price: fromMinor(row.price_minor, row.currency) };
  if (row.description !== null) extra.description = row.description;
  if (row.image_json !== null) extra.image = JSON.parse(row.image_json);
  if (row.unit_label !== null) extra.unitLabel = row.unit_label;
  return extra;
}

export function createExtras(ctx: EngineContext, companies: CompaniesService) {
  async function rowOrThrow(db: EngineContext['db'], extraId: number): Promise<ExtrasTable> {
    const row = await findExtra(db, extraId);
    if (!row) throw notFound('Extra', extraId);
    return row;
  }

  const service = {
    async get(extraId: number): Promise<Extra> {
      return extraToApi(await rowOrThrow(ctx.db, extraId));
    },

    async search(query: ExtraSearch): Promise<Extra[]> {
      const rows = await searchExtras(ctx.db, { text: query.searchString, limit: query.limit, offset: query.offset });
      return rows.map(extraToApi);
    },

    async create(input: ExtraBody, actor: Actor): Promise<Extra> {
      const { currency } = await companies.supplier();
      const id = await ctx.write(actor, async (tx) => {
        const id = ctx.ids.nextId();
        await insertExtra(tx.db, {
          id,
          name: input.name,
          description: input.description ?? null,
          extra_price_type: input.extraPriceType,
          price_minor: toMinor(input.price, currency),
          currency,
          unit_label: input.unitLabel ?? null,
          image_json: input.image ? JSON.stringify(input.image) : null,
          created_at: tx.now,
          updated_at: tx.now,
        });
        await tx.journal('extra', id, 'create', input);
        return id;
      });
      return service.get(id);
    },

    /** Fields left out keep their value; the price stays in the extra's currency. */
    async update(extraId: number, input: ExtraUpdateBody, actor: Actor): Promise<Extra> {
      await ctx.write(actor, async (tx) => {
        const row = await rowOrThrow(tx.db, extraId);
        const values: Partial<ExtrasTable> = { updated_at: tx.now };
        if (input.name !== undefined) values.name = input.name;
        if (input.description !== undefined) values.description = input.description;
        if (input.extraPriceType !== undefined) values.extra_price_type = input.extraPriceType;
        if (input.price !== undefined) values.price_minor = toMinor(input.price, row.currency);
        if (input.unitLabel !== undefined) values.unit_label = input.unitLabel;
        if (input.image !== undefined) values.image_json = JSON.stringify(input.image);
        await updateExtra(tx.db, extraId, values);
        await tx.journal('extra', extraId, 'update', input);
      });
      return service.get(extraId);
    },

    /**
     * Refused while a live product offers the extra. Archived products lose the link (they are
     * never shown again); bookings keep their own copy of the extra, so they are unaffected.
     */
    async remove(extraId: number, actor: Actor): Promise<void> {
      await ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, extraId);
        const users = await findProductsOfferingExtra(tx.db, extraId);
        const live = users.filter((u) => u.deleted_at === null).map((u) => u.product_code);
        if (live.length) throw new DomainError('IN_USE', `Extra ${extraId} is offered by product(s) ${live.join(', ')}; remove it from them first`);
        await unlinkExtraFromProducts(tx.db, extraId);
        await deleteExtra(tx.db, extraId);
        await tx.journal('extra', extraId, 'delete', {});
      });
    },
  };
  return service;
}

export type ExtrasService = ReturnType<typeof createExtras>;
