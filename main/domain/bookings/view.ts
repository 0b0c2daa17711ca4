import type { Kysely } from 'kysely';
import type { BookingsTable, Database, PaymentsTable, VouchersTable } from '../../../db/schema';
import { loadBookingViewRows, type BookingViewRows, type ItemWithProduct } from '../../../db/queries/bookingView';
import type { Booking, BookingExtra, BookingItem, IssuedVoucher, Participant, Payment, VoucherRedemption } from '../../contract/bookings';
import type { Company } from '../platform/companies';
import { customerToApi } from './customers';
import { fromMinor } from '../money';
import type { TaxLine } from './pricing';
import type { BookingStatus } from '../statuses';
import { toIso, toLocal } from '../time';
import { voucherState } from '../commerce/voucherBalance';

export type { Booking } from '../../contract/bookings';

/** An answer whose optional fields may also be given as null (no value). */
type Draft<T> = { [K in keyof T]: undefined extends T[K] ? T[K] | null : T[K] };

/**
 * The answer without its empty optional fields (the API leaves them out, never null). Keys stay in
 * the order written. Only for answers whose required fields are never null.
 */
function withoutEmpty<T extends object>(draft: Draft<T>): T {
  return Object.fromEntries(Object.entries(draft).filter(([, value]) => value !== null && value !== undefined)) as T;
}

const isoOrNull = (ms: number | null) => (ms === null ? null : toIso(ms));

/** Booking rows → the API's Booking objects, in the order of orderNumbers. */
export async function loadBookings(db: Kysely<Database>, orderNumbers: string[], company: Company, now: number): Promise<Booking[]> {
  if (orderNumbers.length === 0) return [];
  const rows = await loadBookingViewRows(db, orderNumbers);
  const byNumber = new Map(rows.bookings.map((b) => [b.order_number, b]));
  return orderNumbers
    .map((n) => byNumber.get(n))
    .filter((b) => b !== undefined)
    .map((row) => bookingToApi(row, rows, company, now));
}

function bookingToApi(row: BookingsTable, rows: BookingViewRows, company: Company, now: number): Booking {
  const money = (minor: number) => fromMinor(minor, row.currency);
  const reseller = rows.resellers.find((r) => r.id === row.reseller_id);
  const customer = rows.customers.find((c) => c.id === row.customer_id);
  const codes = rows.orderCodes.filter((c) => c.order_number === row.order_number);
  const items = rows.items.filter((i) => i.order_number === row.order_number);
  const redemptions = rows.redemptions.filter((r) => r.order_number === row.order_number);
  const payments = rows.payments.filter((p) => p.order_number === row.order_number);
  const paidMinor = payments.reduce((sum, p) => sum + (p.is_refund ? -p.amount_minor : p.amount_minor), 0);
  const commissions = items.filter((i) => i.commission_minor !== null && i.commission_minor !== undefined);
  return withoutEmpty<Booking>({
    orderNumber: row.order_number,
    status: row.status as BookingStatus,
    supplierId: company.id,
    supplierName: company.companyName,
    supplierAlias: company.alias,
    resellerId: reseller?.id,
    resellerName: reseller?.name,
    resellerAlias: reseller?.alias,
    resellerComments: row.reseller_comments,
    resellerReference: row.reseller_reference,
    internalNotes: row.internal_notes,
    comments: row.comments,
    source: row.source,
    sourceChannel: row.source_channel,
    createdBy: row.created_by_json ? JSON.parse(row.created_by_json) : null,
    resellerUser: row.reseller_user_json ? JSON.parse(row.reseller_user_json) : null,
    customer: customer ? customerToApi(customer) : null,
    fields: JSON.parse(row.fields_json),
    barcode: codes.find((c) => c.item_id === null)?.code,
    items: items.map((item) => itemToApi(item, row, rows, company, now)),
    vouchers: redemptions.map((r) => r.voucher_code),
    voucherRedemptions: redemptions.map((r) => withoutEmpty<VoucherRedemption>({ code: r.voucher_code, amount: money(r.amount_minor), reversed: isoOrNull(r.reversed_at) })),
    payments: payments.map(paymentToApi),
    totalCommission: commissions.length ? money(commissions.reduce((sum, i) => sum + i.commission_minor!, 0)) : null,
    totalAmount: money(row.total_amount_minor),
    totalCurrency: row.currency,
    totalPaid: money(paidMinor),
    totalDue: money(Math.max(0, row.total_amount_minor - paidMinor)),
    dateCreated: toIso(row.created_at),
    dateUpdated: toIso(row.updated_at),
    dateConfirmed: isoOrNull(row.confirmed_at),
    dateCancelled: isoOrNull(row.cancelled_at),
  });
}

function itemToApi(item: ItemWithProduct, row: BookingsTable, rows: BookingViewRows, company: Company, now: number): BookingItem {
  const money = (minor: number) => fromMinor(minor, row.currency);
  const zone = item.product_timezone ?? company.timezone;
  const code = rows.orderCodes.find((c) => c.order_number === row.order_number && c.item_id === item.id);
  return withoutEmpty<BookingItem>({
    productCode: item.product_code,
    productName: item.product_name,
    startTime: toIso(item.start_at),
    endTime: toIso(item.end_at),
    startTimeLocal: toLocal(item.start_at, zone),
    endTimeLocal: toLocal(item.end_at, zone),
    amount: money(item.amount_minor),
    subtotal: money(item.subtotal_minor),
    totalQuantity: item.total_quantity,
    allDay: item.all_day ? true : null,
    commission: item.commission_minor !== null && item.commission_minor !== undefined ? money(item.commission_minor) : null,
    quantities: rows.quantities
      .filter((q) => q.item_id === item.id)
      .map((q) => ({ optionId: q.option_id, optionLabel: q.option_label, optionPrice: money(q.option_price_minor), value: q.value })),
    extras: rows.extras
      .filter((e) => e.item_id === item.id)
      .map((e) => withoutEmpty<BookingExtra>({ id: e.extra_id, name: e.name, extraPriceType: e.extra_price_type, price: money(e.price_minor), quantity: e.quantity, description: e.description })),
    participants: rows.participants.filter((p) => p.item_id === item.id).map((p) => withoutEmpty<Participant>({ fields: JSON.parse(p.fields_json), barcode: p.barcode })),
    barcode: code?.code,
    pickupLocation: item.pickup_json ? JSON.parse(item.pickup_json) : null,
    taxes: item.taxes_json ? (JSON.parse(item.taxes_json) as TaxLine[]).map(({ amountMinor, ...line }) => ({ ...line, amount: money(amountMinor) })) : null,
    vouchers: rows.issued.filter((v) => v.source_item_id === item.id).map((v) => issuedVoucherToApi(v, rows, row.currency, now)),
  });
}

/** A gift voucher the item issued, with its state from every redemption of it (by any order). */
function issuedVoucherToApi(voucher: VouchersTable, rows: BookingViewRows, bookingCurrency: string, now: number): IssuedVoucher {
  const live = rows.giftUses.filter((r) => r.voucher_code === voucher.code && r.reversed_at === null);
  const spentMinor = live.reduce((sum, r) => sum + r.amount_minor, 0);
  return withoutEmpty<IssuedVoucher>({
    code: voucher.code,
    status: voucherState(voucher, spentMinor, live.length, now).status,
    issueDate: toIso(voucher.issue_at),
    valueType: voucher.value_type,
    // Read by source_order in (…), so never null here.
    sourceOrder: voucher.source_order!,
    value: voucher.value_minor === null ? null : fromMinor(voucher.value_minor, voucher.currency ?? bookingCurrency),
    expiryDate: isoOrNull(voucher.expiry_at),
  });
}

function paymentToApi(p: PaymentsTable): Payment {
  return withoutEmpty<Payment>({
    id: p.id,
    amount: fromMinor(p.amount_minor, p.currency),
    currency: p.currency,
    type: p.type,
    recipient: p.recipient,
    label: p.label,
    date: isoOrNull(p.paid_at),
    refund: p.is_refund ? true : null,
    recordedBy: p.recorded_by_reseller_id != null ? 'AGENT' : null,
    takenBy: p.taken_by,
    device: p.taken_device,
  });
}
