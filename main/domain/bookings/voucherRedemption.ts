import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { findVoucherAnyCase, listCategoryProductCodes, liveRedemptionTotals } from '../../../db/queries/bookingVouchers';
import { claimRows, voucherClaim } from '../../../db/queries/claims';
import { DomainError } from '../errors';
import { roundMinor } from '../money';
import { spread } from './pricing';
import { voucherState, isValueVoucher } from '../commerce/voucherBalance';

export interface VoucherUse {
  code: string;
  amountMinor: number;
}

interface PricedItem {
  productCode: string;
  subtotalMinor: number;
}

/**
 * The one answer for a code that cannot be used: unknown, expired, used up, or not valid for this
 * booking's products or currency. An agent may redeem any code a customer hands it, so "not yours"
 * means not usable here; telling these apart would tell a guesser which of its guesses exist. The
 * code is echoed as sent (not as stored), so even its case tells nothing. Each one counts as a
 * failed guess (voucherGuessing.ts).
 */
export class VoucherNotUsable extends DomainError {
  constructor(code: string) {
    super('BUSINESS_RULE', `vouchers: voucher ${code} cannot be used for this booking (unknown, expired, used up, or not valid for these products or this currency)`);
  }
}

/**
 * Applies voucher codes in the order given, each on what the booking still owes after the ones
 * before it. VALUE*: up to the voucher's remaining balance (a remainder stays on the voucher);
 * PERCENT*: that percent of each eligible item, rounded half-up per item; PRODUCT: pays the first
 * item of its product in full. *_LIMITPRODUCT applies to items of voucher.product_code only,
 * *_LIMITCATALOG to items whose product is in voucher.category_id (category_products). `claim`: each
 * voucher applied is claimed first (a create; a quote claims nothing).
 */
export async function applyVouchers(db: Kysely<Database>, codes: string[], items: PricedItem[], currency: string, now: number, claim: boolean): Promise<{ uses: VoucherUse[]; discountByItem: number[] }> {
  const due = items.map((i) => i.subtotalMinor);
  const discountByItem = items.map(() => 0);
  const uses: VoucherUse[] = [];
  const unique = [...new Set(codes.map((c) => c.trim()).filter(Boolean))];
  for (const code of unique) {
    const voucher = await findVoucherAnyCase(db, code);
    if (!voucher) throw new VoucherNotUsable(code);
    // The same voucher typed twice in other cases is applied once, as the same code twice is.
    if (uses.some((use) => use.code === voucher.code)) continue;
    // On the hub, creates run side by side: the claim keeps two of them from both spending one balance (a quote spends nothing).
    if (claim) await claimRows(db, [voucherClaim(voucher.code)]);
    const used = await liveRedemptionTotals(db, voucher.code);
    const state = voucherState(voucher, used.minor, used.n, now);
    if (state.status === 'EXPIRED' || state.status === 'REDEEMED') throw new VoucherNotUsable(code);
    if (isValueVoucher(voucher.value_type) && voucher.currency && voucher.currency !== currency) throw new VoucherNotUsable(code);
    let categoryProducts: string[] = [];
    if (voucher.value_type.endsWith('_LIMITCATALOG') && voucher.category_id !== null) {
      categoryProducts = await listCategoryProductCodes(db, voucher.category_id);
    }
    const eligible = items.map((item, i) => {
      if (due[i] <= 0) return false;
      if (voucher.value_type.endsWith('_LIMITPRODUCT') || voucher.value_type === 'PRODUCT') return item.productCode === voucher.product_code;
      if (voucher.value_type.endsWith('_LIMITCATALOG')) return categoryProducts.includes(item.productCode);
      return true;
    });
    let take = items.map(() => 0);
    if (isValueVoucher(voucher.value_type)) {
      take = spread(state.remainingMinor ?? 0, due.map((d, i) => (eligible[i] ? d : 0)));
    } else if (voucher.value_type === 'PRODUCT') {
      const first = eligible.indexOf(true);
      if (first >= 0) take[first] = due[first];
    } else {
      take = due.map((d, i) => (eligible[i] ? Math.min(d, roundMinor((d * (voucher.value_percent ?? 0)) / 100)) : 0));
    }
    const amountMinor = take.reduce((a, b) => a + b, 0);
    if (amountMinor <= 0) throw new VoucherNotUsable(code);
    take.forEach((t, i) => {
      due[i] -= t;
      discountByItem[i] += t;
    });
    uses.push({ code: voucher.code, amountMinor });
  }
  return { uses, discountByItem };
}
