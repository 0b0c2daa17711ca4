import type { VouchersTable } from '../../../db/schema';

export { VOUCHER_VALUE_TYPES } from '../../contract/enums';
export type VoucherStatus = 'ISSUED' | 'REDEEMED' | 'PARTIALLY_REDEEMED' | 'EXPIRED';

export const isValueVoucher = (valueType: string) => valueType.startsWith('VALUE');

/**
 * A voucher's state is derived, never stored: VALUE* vouchers hold value_minor and are used up by
 * the sum of their non-reversed redemptions; PERCENT* and PRODUCT vouchers are single-use (one
 * non-reversed redemption uses them up). Expiry applies to whatever is left.
 */
export function voucherState(voucher: Pick<VouchersTable, 'value_type' | 'value_minor' | 'expiry_at'>, redeemedMinor: number, redemptions: number, now: number): { status: VoucherStatus; remainingMinor: number | null } {
  if (isValueVoucher(voucher.value_type)) {
    const remaining = Math.max(0, (voucher.value_minor ?? 0) - redeemedMinor);
    if (remaining === 0) return { status: 'REDEEMED', remainingMinor: 0 };
    if (voucher.expiry_at !== null && voucher.expiry_at < now) return { status: 'EXPIRED', remainingMinor: remaining };
    return { status: redeemedMinor > 0 ? 'PARTIALLY_REDEEMED' : 'ISSUED', remainingMinor: remaining };
  }
  if (redemptions > 0) return { status: 'REDEEMED', remainingMinor: null };
  if (voucher.expiry_at !== null && voucher.expiry_at < now) return { status: 'EXPIRED', remainingMinor: null };
  return { status: 'ISSUED', remainingMinor: null };
}
