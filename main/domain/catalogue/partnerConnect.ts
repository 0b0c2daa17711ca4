import type { PartnerConnectBody } from '../../contract/partnerConnect';
import type { Actor, EngineContext } from '../context';
import type { ProductsService } from './products';
import { toIso } from '../time';

export type PartnerConnect = PartnerConnectBody & { productCode: string; enabled: boolean; dateUpdated?: string };

/** Per-product partner-connect settings, stored whole as JSON (they are only ever read whole). */
export function createPartnerConnect(ctx: EngineContext, products: ProductsService) {
  const service = {
    /** A product without settings answers the defaults (not enabled). */
    async get(productCode: string): Promise<PartnerConnect> {
      await products.rowOrThrow(ctx.db, productCode);
      const row = await ctx.db.selectFrom('partner_connect').selectAll().where('product_code', '=', productCode).executeTakeFirst();
      if (!row) return { productCode, enabled: false };
      return { productCode, enabled: false, ...(JSON.parse(row.settings_json) as PartnerConnectBody), dateUpdated: toIso(row.updated_at) };
    },

    /** Replaces the settings with what was sent (fields left out are cleared). */
    async put(productCode: string, input: PartnerConnectBody, actor: Actor): Promise<PartnerConnect> {
      await ctx.write(actor, async (tx) => {
        await products.rowOrThrow(tx.db, productCode);
        const settings_json = JSON.stringify(input);
        await tx.db
          .insertInto('partner_connect')
          .values({ product_code: productCode, settings_json, updated_at: tx.now })
          .onConflict((oc) => oc.column('product_code').doUpdateSet({ settings_json, updated_at: tx.now }))
          .execute();
        await tx.log('partnerConnect', productCode, 'put', input);
      });
      return service.get(productCode);
    },

    /** Removes the settings; removing settings that are not there is not an error. */
    async remove(productCode: string, actor: Actor): Promise<void> {
      await ctx.write(actor, async (tx) => {
        await products.rowOrThrow(tx.db, productCode);
        const result = await tx.db.deleteFrom('partner_connect').where('product_code', '=', productCode).executeTakeFirst();
        if (Number(result.numDeletedRows) > 0) await tx.log('partnerConnect', productCode, 'delete', {});
      });
    },
  };
  return service;
}

export type PartnerConnectService = ReturnType<typeof createPartnerConnect>;
