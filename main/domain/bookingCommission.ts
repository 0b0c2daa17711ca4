import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { DomainError } from './errors';
import { roundMinor, toMinor } from './money';
import { extraLineMinor } from './pricing';
import type { PlannedItem } from './bookingPlan';

/**
 * An agent's commission per item from its reseller's rate (resellers.rate_id → rate_products),
 * until the rates service exports its own commissionFor. PERCENT: percentageCommission (capped
 * by the product's maxCommissionPercent) of the item amount, plus extras when
 * percentageIncludeExtras, rounded half-up once. NET_RATE: the item amount minus the net rates
 * of the booked quantities (netRates[] of { priceOptionLabel, netPrice } in major units), capped
 * by maxCommissionNetRate, never below 0. No rate for the product: no commission (null).
 *
 * The same net rates are the floor of an agent's `amount` override when the product's
 * agentPaymentType is PAYOUTS (an automated payment method).
 */
export async function commissionsFor(db: Kysely<Database>, resellerId: number | null, items: PlannedItem[]): Promise<(number | null)[]> {
  if (resellerId === null) return items.map(() => null);
  const reseller = await db.selectFrom('resellers').select('rate_id').where('id', '=', resellerId).executeTakeFirst();
  if (!reseller?.rate_id) return items.map(() => null);
  const codes = [...new Set(items.map((i) => i.product.product_code))];
  const terms = await db.selectFrom('rate_products').selectAll().where('rate_id', '=', reseller.rate_id).where('product_code', 'in', codes).execute();
  return items.map((item) => {
    const term = terms.find((t) => t.product_code === item.product.product_code);
    if (!term) return null;
    const extrasMinor = item.extras.reduce((sum, e) => sum + extraLineMinor(e), 0);
    if (term.commission_type === 'PERCENT') {
      const percent = Math.min(term.percentage_commission ?? 0, item.product.max_commission_percent ?? Infinity);
      return roundMinor(((item.amountMinor + (term.percentage_include_extras ? extrasMinor : 0)) * percent) / 100);
    }
    const netMinor = netRatesMinor(term.net_rates_json, item);
    if (netMinor === null) return null;
    if (item.amountOverridden && item.product.agent_payment_type === 'PAYOUTS' && item.amountMinor < netMinor) {
      throw new DomainError('BUSINESS_RULE', `items[${item.index}]: amount must not be below the net rates of the booked quantities`);
    }
    return Math.max(0, Math.min(item.amountMinor - netMinor, item.product.max_commission_net_rate_minor ?? Infinity));
  });
}

function netRatesMinor(json: string | null, item: PlannedItem): number | null {
  if (!json) return null;
  let rates: { priceOptionLabel?: string; netPrice?: number | string }[];
  try {
    rates = JSON.parse(json);
  } catch {
    return null;
  }
  if (!Array.isArray(rates)) return null;
  let total = 0;
  for (const q of item.quantities) {
    const rate = rates.find((r) => r.priceOptionLabel?.toLowerCase() === q.label.toLowerCase());
    if (!rate || rate.netPrice === undefined) return null;
    const netMinor = toMinor(Number(rate.netPrice), item.product.currency);
    total += q.priceGroupType === 'TOTAL' ? netMinor : netMinor * q.value;
  }
  return total;
}
