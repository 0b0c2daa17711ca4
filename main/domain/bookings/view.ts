import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import type { Company } from '../platform/companies';
import { customerToApi } from './customers';
import { fromMinor } from '../money';
import type { TaxLine } from './pricing';
import { toIso, toLocal } from '../time';
import { voucherState } from '../commerce/voucherBalance';

export type Booking = Record<string, unknown> & { orderNumber: string; status: string };

const put = (target: Record<string, unknown>, key: string, value: unknown) => {
  if (value !== null && value !== undefined) target[key] = value;
};

/** Booking rows → the API's Booking objects, in the order of orderNumbers. */
export async function loadBookings(db: Kysely<Database>, orderNumbers: string[], company: Company, now: number): Promise<Booking[]> {
  if (orderNumbers.length === 0) return [];
  const bookings = await db.selectFrom('bookings').selectAll().where('order_number', 'in', orderNumbers).execute();
  const customerIds = bookings.map((b) => b.customer_id).filter((id): id is number => id !== null);
  const resellerIds = bookings.map((b) => b.reseller_id).filter((id): id is number => id !== null);
  const [customers, resellers, items, payments, redemptions, orderCodes, issued] = await Promise.all([
    customerIds.length ? db.selectFrom('customers').selectAll().where('id', 'in', customerIds).execute() : [],
    resellerIds.length ? db.selectFrom('resellers').selectAll().where('id', 'in', resellerIds).execute() : [],
    db
      .selectFrom('booking_items')
      .innerJoin('products', 'products.product_code', 'booking_items.product_code')
      .selectAll('booking_items')
      .select(['products.name as product_name', 'products.timezone as product_timezone', 'products.details_json as product_details'])
      .where('order_number', 'in', orderNumbers)
      .orderBy('position')
      .execute(),
    db.selectFrom('payments').selectAll().where('order_number', 'in', orderNumbers).orderBy('position').execute(),
    db.selectFrom('voucher_redemptions').selectAll().where('order_number', 'in', orderNumbers).orderBy('id').execute(),
    db.selectFrom('order_barcodes').selectAll().where('order_number', 'in', orderNumbers).execute(),
    db.selectFrom('vouchers').selectAll().where('source_order', 'in', orderNumbers).orderBy('code').execute(),
  ]);
  const issuedCodes = issued.map((v) => v.code);
  const giftUses = issuedCodes.length ? await db.selectFrom('voucher_redemptions').selectAll().where('voucher_code', 'in', issuedCodes).execute() : [];
  const itemIds = items.map((i) => i.id);
  const [quantities, extras, participants] = itemIds.length
    ? await Promise.all([
        db.selectFrom('booking_item_quantities').selectAll().where('item_id', 'in', itemIds).orderBy('position').execute(),
        db.selectFrom('booking_item_extras').selectAll().where('item_id', 'in', itemIds).orderBy('position').execute(),
        db.selectFrom('participants').selectAll().where('item_id', 'in', itemIds).orderBy('position').execute(),
      ])
    : [[], [], []];

  const byNumber = new Map(bookings.map((b) => [b.order_number, b]));
  return orderNumbers
    .map((n) => byNumber.get(n))
    .filter((b) => b !== undefined)
    .map((row) => {
      const money = (minor: number) => fromMinor(minor, row.currency);
      const booking: Booking = { orderNumber: row.order_number, status: row.status };
      booking.supplierId = company.id;
      booking.supplierName = company.companyName;
      booking.supplierAlias = company.alias;
      const reseller = resellers.find((r) => r.id === row.reseller_id);
      if (reseller) Object.assign(booking, { resellerId: reseller.id, resellerName: reseller.name, resellerAlias: reseller.alias });
      put(booking, 'resellerComments', row.reseller_comments);
      put(booking, 'resellerReference', row.reseller_reference);
      put(booking, 'internalNotes', row.internal_notes);
      put(booking, 'comments', row.comments);
      put(booking, 'source', row.source);
      put(booking, 'sourceChannel', row.source_channel);
      if (row.created_by_json) booking.createdBy = JSON.parse(row.created_by_json);
      if (row.reseller_user_json) booking.resellerUser = JSON.parse(row.reseller_user_json);
      const customer = customers.find((c) => c.id === row.customer_id);
      if (customer) booking.customer = customerToApi(customer);
      booking.fields = JSON.parse(row.fields_json);
      const codes = orderCodes.filter((c) => c.order_number === row.order_number);
      const orderCode = codes.find((c) => c.item_id === null);
      if (orderCode) booking.barcode = orderCode.code;
      booking.items = items
        .filter((i) => i.order_number === row.order_number)
        .map((item) => {
          const zone = item.product_timezone ?? company.timezone;
          const out: Record<string, unknown> = {
            productCode: item.product_code,
            productName: item.product_name,
            startTime: toIso(item.start_at),
            endTime: toIso(item.end_at),
            startTimeLocal: toLocal(item.start_at, zone),
            endTimeLocal: toLocal(item.end_at, zone),
            amount: money(item.amount_minor),
            subtotal: money(item.subtotal_minor),
            totalQuantity: item.total_quantity,
          };
          if (item.all_day) out.allDay = true;
          if (item.commission_minor !== null && item.commission_minor !== undefined) out.commission = money(item.commission_minor);
          out.quantities = quantities
            .filter((q) => q.item_id === item.id)
            .map((q) => ({ optionId: q.option_id, optionLabel: q.option_label, optionPrice: money(q.option_price_minor), value: q.value }));
          out.extras = extras
            .filter((e) => e.item_id === item.id)
            .map((e) => {
              const extra: Record<string, unknown> = { id: e.extra_id, name: e.name, extraPriceType: e.extra_price_type, price: money(e.price_minor), quantity: e.quantity };
              put(extra, 'description', e.description);
              return extra;
            });
          out.participants = participants
            .filter((p) => p.item_id === item.id)
            .map((p) => {
              const participant: Record<string, unknown> = { fields: JSON.parse(p.fields_json) };
              put(participant, 'barcode', p.barcode);
              return participant;
            });
          const itemCode = codes.find((c) => c.item_id === item.id);
          if (itemCode) out.barcode = itemCode.code;
          if (item.pickup_json) out.pickupLocation = JSON.parse(item.pickup_json);
          if (item.taxes_json) {
            out.taxes = (JSON.parse(item.taxes_json) as TaxLine[]).map(({ amountMinor, ...line }) => ({ ...line, amount: money(amountMinor) }));
          }
          out.vouchers = issued
            .filter((v) => v.source_item_id === item.id)
            .map((v) => {
              const spent = redemptionsOf(v.code);
              const voucher: Record<string, unknown> = {
                code: v.code,
                status: voucherState(v, spent.minor, spent.n, now).status,
                issueDate: toIso(v.issue_at),
                valueType: v.value_type,
                sourceOrder: v.source_order,
              };
              put(voucher, 'value', v.value_minor === null ? null : fromMinor(v.value_minor, v.currency ?? row.currency));
              put(voucher, 'expiryDate', v.expiry_at === null ? null : toIso(v.expiry_at));
              return voucher;
            });
          return out;
        });
      const own = redemptions.filter((r) => r.order_number === row.order_number);
      booking.vouchers = own.map((r) => r.voucher_code);
      booking.voucherRedemptions = own.map((r) => {
        const use: Record<string, unknown> = { code: r.voucher_code, amount: money(r.amount_minor) };
        if (r.reversed_at !== null) use.reversed = toIso(r.reversed_at);
        return use;
      });
      const mine = payments.filter((p) => p.order_number === row.order_number);
      booking.payments = mine.map((p) => {
        const payment: Record<string, unknown> = { id: p.id, amount: fromMinor(p.amount_minor, p.currency), currency: p.currency };
        put(payment, 'type', p.type);
        put(payment, 'recipient', p.recipient);
        put(payment, 'label', p.label);
        put(payment, 'date', p.paid_at === null ? null : toIso(p.paid_at));
        if (p.is_refund) payment.refund = true;
        return payment;
      });
      const paidMinor = mine.reduce((sum, p) => sum + (p.is_refund ? -p.amount_minor : p.amount_minor), 0);
      const commissions = items.filter((i) => i.order_number === row.order_number && i.commission_minor !== null && i.commission_minor !== undefined);
      if (commissions.length) booking.totalCommission = money(commissions.reduce((sum, i) => sum + i.commission_minor!, 0));
      booking.totalAmount = money(row.total_amount_minor);
      booking.totalCurrency = row.currency;
      booking.totalPaid = money(paidMinor);
      booking.totalDue = money(Math.max(0, row.total_amount_minor - paidMinor));
      booking.dateCreated = toIso(row.created_at);
      booking.dateUpdated = toIso(row.updated_at);
      put(booking, 'dateConfirmed', row.confirmed_at === null ? null : toIso(row.confirmed_at));
      put(booking, 'dateCancelled', row.cancelled_at === null ? null : toIso(row.cancelled_at));
      return booking;
    });

  function redemptionsOf(code: string): { minor: number; n: number } {
    const live = giftUses.filter((r) => r.voucher_code === code && r.reversed_at === null);
    return { minor: live.reduce((sum, r) => sum + r.amount_minor, 0), n: live.length };
  }
}
