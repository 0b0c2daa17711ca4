import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { DomainError } from '../errors';
import { roundMinor } from '../money';
import { extraLineMinor } from './pricing';
import { commissionFor } from '../commerce/commission';
import type { PlannedItem } from './plan';

/**
 * An agent's commission per item, from its reseller's rate (commissionFor in commission.ts does
 * the rate arithmetic), with the product's caps applied here: maxCommissionPercent of the commission base
 * for PERCENT terms, maxCommissionNetRate for NET_RATE terms; never below 0. No rate for the
 * product: no commission (null).
 *
 * The net rates are also the floor of an agent's `amount` override when the product's
 * agentPaymentType is PAYOUTS (an automated payment method): an override below them is refused.
 */
export async function commissionsFor(db: Kysely<Database>, resellerId: number | null, items: PlannedItem[]): Promise<(number | null)[]> {
  if (resellerId === null) return items.map(() => null);
  const out: (number | null)[] = [];
  for (const item of items) {
    const extrasMinor = item.extras.reduce((sum, e) => sum + extraLineMinor(e), 0);
    const quantities = item.quantities.map((q) => ({ optionLabel: q.label, value: q.value }));
    const terms = await commissionFor(db, resellerId, item.product.product_code, { amountMinor: item.amountMinor, extrasMinor, quantities });
    if (!terms) {
      out.push(null);
      continue;
    }
    if (terms.commissionType === 'NET_RATE' && item.amountOverridden && item.product.agent_payment_type === 'PAYOUTS' && terms.commissionMinor < 0) {
      throw new DomainError('BUSINESS_RULE', `items[${item.index}]: amount must not be below the net rates of the booked quantities`);
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
