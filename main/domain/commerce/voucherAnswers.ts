import type { VoucherRow, VoucherUse } from '../../../db/queries/vouchers';
import type { Actor } from '../context';
import { fromMinor } from '../money';
import { toIso } from '../time';
import { isValueVoucher, voucherState, type VoucherStatus } from './voucherBalance';

/** The spec's voucher, plus TourDesk's remainingValue, currency, productCode and categoryId. */
export interface Voucher {
  code: string;
  status: VoucherStatus;
  issueDate: string;
  expiryDate: string | null;
  value?: number;
  valueType: string;
  sourceOrder: string | null;
  internalNotes?: string | null;
  internalReference: string | null;
  remainingValue?: number;
  currency: string | null;
  productCode?: string;
  categoryId?: number;
}

/** Internal notes are for the supplier only (the spec says so); agents get the voucher without them. */
export const seesNotes = (actor: Actor) => actor.role !== 'agent';

/** A voucher row as `actor` sees it at `now`, given its redemptions that count (those not reversed). */
export function voucherToApi(row: VoucherRow, use: VoucherUse | undefined, actor: Actor, now: number): Voucher {
  const state = voucherState(row, use?.redeemed ?? 0, use?.uses ?? 0, now);
  const currency = row.currency;
  const voucher: Voucher = {
    code: row.code,
    status: state.status,
    issueDate: toIso(row.issue_at),
    expiryDate: row.expiry_at === null ? null : toIso(row.expiry_at),
    valueType: row.value_type,
    sourceOrder: row.source_order,
    internalReference: row.internal_reference,
    currency,
  };
  if (isValueVoucher(row.value_type) && row.value_minor !== null && currency) {
    voucher.value = fromMinor(row.value_minor, currency);
    voucher.remainingValue = fromMinor(state.remainingMinor ?? 0, currency);
  } else if (row.value_percent !== null) {
    voucher.value = row.value_percent;
  }
  if (seesNotes(actor)) voucher.internalNotes = row.internal_notes;
  if (row.product_code !== null) voucher.productCode = row.product_code;
  if (row.category_id !== null) voucher.categoryId = row.category_id;
  return voucher;
}

/**
 * Status and remaining value depend on the time only through expiry: answers worked out at `now`
 * hold while the clock stays after the latest expiry already passed and at or before the next one.
 */
export function expiryWindow(rows: VoucherRow[], now: number): { expiredBefore: number; nextExpiry: number } {
  let expiredBefore = -Infinity;
  let nextExpiry = Infinity;
  for (const { expiry_at: at } of rows) {
    if (at === null) continue;
    if (at < now) expiredBefore = Math.max(expiredBefore, at);
    else nextExpiry = Math.min(nextExpiry, at);
  }
  return { expiredBefore, nextExpiry };
}
