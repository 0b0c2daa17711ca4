import type { Actor, EngineContext } from '../context';
import { findResellerById, searchResellers, setResellerRate } from '../../../db/queries/resellers';
import type { RatesService } from './rates';
import { DomainError } from '../errors';
import { toIso } from '../time';
import type { ResellerSearch } from '../../contract/rates';

/** An agent company: every agent API key belongs to one; its rate sets the agent's commission. */
export interface Reseller {
  resellerId: number;
  name: string;
  alias: string;
  rateId: number | null;
  dateCreated: string;
}

export type { ResellerSearch };

export function createResellers(ctx: EngineContext, rates: RatesService) {
  const toApi = (row: { id: number; name: string; alias: string; rate_id: number | null; created_at: number }): Reseller => ({
    resellerId: row.id,
    name: row.name,
    alias: row.alias,
    rateId: row.rate_id,
    dateCreated: toIso(row.created_at),
  });

  async function rowOrThrow(resellerId: number) {
    const row = await findResellerById(ctx.db, resellerId);
    if (!row) throw new DomainError('NOT_FOUND', `Reseller ${resellerId} was not found`);
    return row;
  }

  /** Checks rate and reseller inside the write, so a rate deleted meanwhile is a 404, not a broken reference. */
  async function setRate(rateId: number, resellerId: number, attach: boolean, actor: Actor): Promise<Reseller> {
    await ctx.write(actor, async (tx) => {
      await rates.rowOrThrow(tx.db, rateId);
      const row = await findResellerById(tx.db, resellerId);
      if (!row) throw new DomainError('NOT_FOUND', `Reseller ${resellerId} was not found`);
      if (!attach && row.rate_id !== rateId) throw new DomainError('NOT_FOUND', `Reseller ${resellerId} is not on rate ${rateId}`);
      await setResellerRate(tx.db, resellerId, attach ? rateId : null);
      await tx.journal('reseller', resellerId, attach ? 'attach_rate' : 'detach_rate', { rateId });
    });
    return toApi(await rowOrThrow(resellerId));
  }

  return {
    async list(query: ResellerSearch): Promise<Reseller[]> {
      const rows = await searchResellers(ctx.db, { text: query.search, limit: query.limit, offset: query.offset });
      return rows.map(toApi);
    },

    async get(resellerId: number): Promise<Reseller> {
      return toApi(await rowOrThrow(resellerId));
    },

    /** Puts the reseller on the rate (a reseller has one rate; attaching moves it from its old one). */
    async attachRate(rateId: number, resellerId: number, actor: Actor): Promise<Reseller> {
      return setRate(rateId, resellerId, true, actor);
    },

    /** Takes the reseller off the rate; refused (404) when the reseller is not on that rate. */
    async detachRate(rateId: number, resellerId: number, actor: Actor): Promise<Reseller> {
      return setRate(rateId, resellerId, false, actor);
    },
  };
}

export type ResellersService = ReturnType<typeof createResellers>;
