import type { PartnerConnectBody } from '../../contract/partnerConnect';
import { deletePartnerConnect, findPartnerConnect, upsertPartnerConnect } from '../../../db/queries/partnerConnect';
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
      const row = await findPartnerConnect(ctx.db, productCode);
      if (!row) return { productCode, enabled: false };
      return { productCode, enabled: false, ...(JSON.parse(row.settings_json) as PartnerConnectBody), dateUpdated: toIso(row.updated_at) };
    },

    /** Replaces the settings with what was sent (fields left out are cleared). */
    async put(productCode: string, input: PartnerConnectBody, actor: Actor): Promise<PartnerConnect> {
      await ctx.write(actor, async (tx) => {
        await products.rowOrThrow(tx.db, productCode);
        await upsertPartnerConnect(tx.db, productCode, JSON.stringify(input), tx.now);
        await tx.journal('partnerConnect', productCode, 'put', input);
      });
      return service.get(productCode);
    },

    /** Removes the settings; removing settings that are not there is not an error. */
    async remove(productCode: string, actor: Actor): Promise<void> {
      await ctx.write(actor, async (tx) => {
        await products.rowOrThrow(tx.db, productCode);
        if (await deletePartnerConnect(tx.db, productCode)) await tx.journal('partnerConnect', productCode, 'delete', {});
      });
    },
  };
  return service;
}

export type PartnerConnectService = ReturnType<typeof createPartnerConnect>;
