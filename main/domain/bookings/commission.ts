import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { DomainError } from '../errors';
import { fromMinor, roundMinor } from '../money';
import { extraLineMinor, itemAmountMinor } from './pricing';
import { commissionFor, type Commission } from '../commerce/commission';
import type { PlannedItem } from './plan';

/**
 * An agent's commission per item, from its reseller's rate (commissionFor in commission.ts does
 * the rate arithmetic), with the product's caps applied here: maxCommissionPercent of the commission base
 * for PERCENT terms, maxCommissionNetRate for NET_RATE terms; never below 0. No rate for the
 * product: no commission (null).
 *
 * An agent key's `amount` override has a floor, on every product (the spec states it for
 * automated-payment products; an agent that prices under it takes the supplier's money): see agentFloor.
 */
export async function commissionsFor(db: Kysely<Database>, resellerId: number | null, items: PlannedItem[], byAgent = false): Promise<(number | null)[]> {
  if (resellerId === null) return items.map(() => null);
  const out: (number | null)[] = [];
  for (const item of items) {
    const extrasMinor = item.extras.reduce((sum, e) => sum + extraLineMinor(e), 0);
    const quantities = item.quantities.map((q) => ({ optionLabel: q.label, value: q.value }));
    const terms = await commissionFor(db, resellerId, item.product.product_code, { amountMinor: item.amountMinor, extrasMinor, quantities });
    if (byAgent && item.amountOverridden) {
      const listTerms = terms?.commissionType === 'PERCENT' ? await commissionFor(db, resellerId, item.product.product_code, { amountMinor: itemAmountMinor(item.quantities), extrasMinor: 0, quantities }) : terms;
      checkAgentFloor(item, listTerms);
    }
    if (!terms) {
      out.push(null);
      continue;
    }
    const cap =
      terms.commissionType === 'PERCENT'
        ? item.product.max_commission_percent === null
          ? Infinity
          : roundMinor(((terms.baseMinor ?? item.amountMinor) * item.product.max_commission_percent) / 100)
        : (item.product.max_commission_net_rate_minor ?? Infinity);
    out.push(Math.max(0, Math.min(terms.commissionMinor, cap)));
  }
  return out;
}

/**
 * What the supplier is owed on an agent's item never drops below its floor, so an agent's `amount`
 * under it is refused (422):
 * - NET_RATE: the net rates of the booked quantities;
 * - PERCENT: the price (from the price options) less the agent's commission on it, capped by the
 *   product's maxCommissionPercent: the agent may give away its commission, not the supplier's share;
 * - no rate for the product: the price itself (there is no commission to give away).
 * Extras and taxes are priced by the catalogue and cannot be overridden, so only the amount is checked.
 */
function checkAgentFloor(item: PlannedItem, listTerms: Commission | null): void {
  const listMinor = itemAmountMinor(item.quantities);
  let floorMinor: number;
  let what: string;
  if (listTerms?.commissionType === 'NET_RATE') {
    floorMinor = listTerms.netMinor;
    what = 'the net rates of the booked quantities';
  } else if (listTerms?.commissionType === 'PERCENT') {
    const capMinor = item.product.max_commission_percent === null ? Infinity : roundMinor((listMinor * item.product.max_commission_percent) / 100);
    floorMinor = listMinor - Math.max(0, Math.min(listTerms.commissionMinor, capMinor));
    what = "the price less the agent's commission";
  } else {
    floorMinor = listMinor;
    what = 'the price (the agent has no rate with commission for this product)';
  }
  if (item.amountMinor < floorMinor) {
    const currency = item.product.currency;
    throw new DomainError(
      'BUSINESS_RULE',
      `items[${item.index}]: amount must not be below ${what}: ${fromMinor(floorMinor, currency)} ${currency} is what the supplier is owed, ${fromMinor(item.amountMinor, currency)} ${currency} was sent`,
    );
  }
}
