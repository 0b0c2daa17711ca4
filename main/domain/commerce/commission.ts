import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { roundMinor } from '../money';
import { parseNetRates } from './rates';
import { findOptionPrices, findResellerTermsForProduct } from '../../../db/queries/commission';

export interface CommissionInput {
  /** The price of the booked quantities, extras excluded, in minor units of the product's currency. */
  amountMinor: number;
  /** The price of the item's extras, in the same currency. */
  extrasMinor: number;
  quantities: { optionLabel: string; value: number }[];
}

export interface Commission {
  /** What the agent keeps. */
  commissionMinor: number;
  /** What the supplier is owed for the product price: always amountMinor − commissionMinor. */
  netMinor: number;
  commissionType: 'NET_RATE' | 'PERCENT';
  /** PERCENT only: the amount the percentage was taken of (extras included when the rate says so). */
  baseMinor?: number;
}

/**
 * The agent's commission on one booking item, from the rate attached to the agent's reseller;
 * null when the reseller has no rate or its rate does not list the product.
 *
 * NET_RATE: net = Σ netPrice × quantity; a booked option without a net rate counts at its product
 * price (the agent earns nothing on it); commission = amount − net (negative when the amount was
 * overridden below the net total: the caller decides what that means).
 * PERCENT: commission = percentage × (amount [+ extras when percentageIncludeExtras]), rounded
 * once, half-up, to the currency's minor unit.
 *
 * Takes a Kysely handle so the bookings service can call it inside its own transaction (tx.db).
 */
export async function commissionFor(db: Kysely<Database>, resellerId: number, productCode: string, input: CommissionInput): Promise<Commission | null> {
  const terms = await findResellerTermsForProduct(db, resellerId, productCode);
  if (!terms) return null;

  if (terms.commission_type === 'PERCENT') {
    const base = input.amountMinor + (terms.percentage_include_extras === 1 ? input.extrasMinor : 0);
    const commissionMinor = roundMinor(((terms.percentage_commission ?? 0) * base) / 100);
    return { commissionMinor, netMinor: input.amountMinor - commissionMinor, commissionType: 'PERCENT', baseMinor: base };
  }

  const netRates = new Map(parseNetRates(terms.net_rates_json).map((n) => [n.priceOptionLabel.toLowerCase(), n.netPriceMinor]));
  const unrated = input.quantities.filter((q) => q.value > 0 && !netRates.has(q.optionLabel.toLowerCase()));
  const prices = new Map<string, number>();
  if (unrated.length) {
    const rows = await findOptionPrices(db, productCode);
    for (const row of rows) prices.set(row.label.toLowerCase(), row.price_minor);
  }
  let netMinor = 0;
  for (const q of input.quantities) {
    if (q.value <= 0) continue;
    const label = q.optionLabel.toLowerCase();
    netMinor += (netRates.get(label) ?? prices.get(label) ?? 0) * q.value;
  }
  return { commissionMinor: input.amountMinor - netMinor, netMinor, commissionType: 'NET_RATE' };
}
