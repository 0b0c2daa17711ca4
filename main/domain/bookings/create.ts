import type { Insertable } from 'kysely';
import type { BookingsTable } from '../../../db/schema';
import { insertBooking } from '../../../db/queries/bookings';
import { flushInsertBatch, openInsertBatch } from '../../../db/queries/insertBatch';
import { insertBookingItem, insertItemExtras, insertItemQuantities } from '../../../db/queries/bookingRows';
import { findResellerId } from '../../../db/queries/bookingCatalogue';
import { findLinkableCustomerId } from '../../../db/queries/customers';
import { insertParticipants } from '../../../db/queries/participants';
import { insertPayment } from '../../../db/queries/payments';
import { assignExternalCode, insertOrderBarcode, pickFreeExternalCode } from '../../../db/queries/barcodes';
import { insertGiftVoucher, insertVoucherRedemption } from '../../../db/queries/bookingVouchers';
import type { BookingBody, BookingFieldBody, PaymentBody } from '../../contract/bookings';
import type { Tx } from '../context';
import type { Company } from '../platform/companies';
import { seatsHeldBySession, liveBookingCount } from '../../../db/queries/seats';
import { claimRows, sessionClaim } from '../../../db/queries/claims';
import { DomainError } from '../errors';
import { checkFieldValues, requiredFieldProblems } from './fields';
import { planItem, type PlannedItem } from './plan';
import { applyVouchers } from './voucherRedemption';
import { commissionsFor } from './commission';
import { hasCustomerData, insertCustomer } from './customers';
import { toMinor } from '../money';
import { parseTimeParam, toLocal } from '../time';
import type { BookingStatus } from '../statuses';

export interface CreateOptions {
  /** A quote prices and checks everything but takes no codes (the caller rolls the transaction back). */
  quote: boolean;
  nextId(): number;
  nextOrderSeq(): number;
  token(bytes?: number): string;
  instanceNo: number;
}

/** Without a status in the body, each product's confirmMode decides; one pending item keeps the booking pending. */
export function statusFromConfirmMode(items: { product: Pick<PlannedItem['product'], 'confirm_mode' | 'confirm_mode_min_participants'>; totalQuantity: number }[]): BookingStatus {
  const pending = items.some(({ product, totalQuantity }) => {
    const min = product.confirm_mode_min_participants;
    switch (product.confirm_mode) {
      case 'MANUAL':
        return true;
      // Without a threshold the mixed modes have nothing to switch on: they confirm.
      case 'MANUAL_THEN_AUTO':
        return min !== null && totalQuantity < min;
      case 'AUTO_THEN_MANUAL':
        return min !== null && totalQuantity >= min;
      default:
        return false;
    }
  });
  return pending ? 'PENDING_SUPPLIER' : 'CONFIRMED';
}

/**
 * Seats and charters, checked on the transaction's own view of the rows: on SQLite no other write
 * can interleave; on the PostgreSQL hub, where creates run side by side, each session booked is
 * claimed (db/queries/claims.ts) before its seats count, so no other open write of it can commit too.
 */
async function checkSeats(tx: Tx, items: PlannedItem[], claim: boolean): Promise<void> {
  const sessionIds = [...new Set(items.map((i) => i.sessionId).filter((id): id is number => id !== null))];
  // Read (and claimed) with the item's rules on the hub (one statement for them all); else claimed and read here.
  const known = new Map(items.filter((i) => i.sessionId !== null && i.sessionHeld !== undefined).map((i) => [i.sessionId!, i.sessionHeld!]));
  if (claim) await claimRows(tx.db, sessionIds.filter((id) => !known.has(id)).map(sessionClaim));
  const held = sessionIds.every((id) => known.has(id)) ? known : await seatsHeldBySession(tx.db, sessionIds);
  for (const sessionId of sessionIds) {
    const mine = items.filter((i) => i.sessionId === sessionId);
    const first = mine[0];
    if (first.product.charter && (mine.length > 1 || (await liveBookingCount(tx.db, sessionId)) > 0)) {
      throw new DomainError('CHARTER_TAKEN', `items[${first.index}]: the charter session of ${first.product.product_code} at ${toLocal(first.startAt, first.timezone)} is already booked`);
    }
    const wanted = mine.reduce((sum, i) => sum + i.seatsHeld, 0);
    const available = first.sessionSeats! - (held.get(sessionId) ?? 0);
    if (wanted > available) {
      throw new DomainError('NO_SEATS', `items[${first.index}]: only ${Math.max(0, available)} seat(s) left for ${first.product.product_code} at ${toLocal(first.startAt, first.timezone)}; ${wanted} asked for`);
    }
  }
}

/** An agent key's own reseller; a supplier key may name one (booking on an agent's behalf). */
async function resellerOf(tx: Tx, requested: number | undefined): Promise<number | null> {
  if (tx.actor.role === 'agent') return tx.actor.resellerId;
  if (requested === undefined) return null;
  const resellerId = await findResellerId(tx.db, requested);
  if (resellerId === undefined) throw new DomainError('VALIDATION_ERROR', `resellerId ${requested} names no reseller`);
  return resellerId;
}

/**
 * A supplier key may link an existing customer by customer.id (its stored fields are kept);
 * otherwise the customer data sent becomes a new customer. Agents always create a new one, so an
 * agent cannot attach or read another party's customer record.
 */
async function customerOf(tx: Tx, customer: BookingBody['customer'], nextId: () => number): Promise<number | null> {
  if (customer?.id !== undefined && tx.actor.role !== 'agent') {
    const customerId = await findLinkableCustomerId(tx.db, customer.id);
    if (customerId === undefined) throw new DomainError('VALIDATION_ERROR', `customer.id ${customer.id} names no customer`);
    return customerId;
  }
  return hasCustomerData(customer) ? insertCustomer(tx, customer, nextId) : null;
}

/** The reseller of an agent key (its payments are marked as the agent's); null for every other key. */
export const agentResellerOf = (tx: Tx): number | null => (tx.actor.role === 'agent' ? tx.actor.resellerId : null);

/** Assigns a random unused imported code of the product to the order. */
export async function takeExternalCode(tx: Tx, productCode: string, orderNumber: string): Promise<string> {
  const code = await pickFreeExternalCode(tx.db, productCode);
  if (code === undefined) throw new DomainError('CONFLICT', `Product ${productCode} has no external QR codes left; import more codes before booking it`);
  await assignExternalCode(tx.db, code, orderNumber);
  return code;
}

/** Every body item planned, all in one currency. */
async function planItems(tx: Tx, body: BookingBody, company: Company, claim: boolean): Promise<{ items: PlannedItem[]; currency: string }> {
  const items: PlannedItem[] = [];
  for (const [index, item] of body.items.entries()) items.push(await planItem(tx.db, item, index, company.timezone, tx.now, claim));
  const currency = items[0].product.currency;
  const other = items.find((i) => i.product.currency !== currency);
  if (other) throw new DomainError('VALIDATION_ERROR', `items[${other.index}]: product ${other.product.product_code} is priced in ${other.product.currency}; every item of a booking must share one currency (${currency})`);
  return { items, currency };
}

/** The booking's and each participant's fields checked against the products' definitions (participants updated in place). */
function checkFields(body: BookingBody, items: PlannedItem[]): { fields: BookingFieldBody[]; warnings: string[] } {
  const allDefinitions = items.flatMap((i) => i.bookingFields);
  const fields = checkFieldValues(body.fields ?? [], allDefinitions, 'fields');
  for (const item of items) item.participants = item.participants.map((p, pi) => checkFieldValues(p, item.bookingFields, `items[${item.index}].participants[${pi}]`));
  const problems = requiredFieldProblems(fields, items.map((i) => ({ productCode: i.product.product_code, enforce: i.product.enforce_required_fields === 1, fields: i.bookingFields, participants: i.participants, index: i.index })));
  if (problems.errors.length) throw new DomainError('VALIDATION_ERROR', `Required booking fields are missing: ${problems.errors.join('; ')}`);
  return { fields, warnings: problems.warnings };
}

/**
 * The status a new booking starts in. An agent may not confirm what the supplier must confirm:
 * CONFIRMED from an agent key is refused when confirmMode would leave the booking pending, the
 * same rule PUT applies (checkTransition: only a supplier key confirms a PENDING_SUPPLIER booking).
 */
function initialStatus(tx: Tx, body: BookingBody, items: PlannedItem[]): BookingStatus {
  const byConfirmMode = statusFromConfirmMode(items);
  if (body.status === undefined) return byConfirmMode;
  if (body.status === 'CONFIRMED' && tx.actor.role === 'agent' && byConfirmMode !== 'CONFIRMED') {
    throw new DomainError('INVALID_STATE', 'An agent key cannot create this booking as CONFIRMED: its product must be confirmed by the supplier (confirmMode); send no status (it becomes PENDING_SUPPLIER) or PROCESSING');
  }
  if (body.status === 'CONFIRMED' || body.status === 'PROCESSING') return body.status;
  throw new DomainError('INVALID_STATE', `A new booking can be created as CONFIRMED or PROCESSING (or without status), not ${body.status}`);
}

interface PlannedPayment extends PaymentBody {
  amountMinor: number;
  paidAt: number;
}

/** The body's payments in the booking's currency, each above 0. */
function planPayments(body: BookingBody, currency: string, company: Company, now: number): PlannedPayment[] {
  const payments = (body.payments ?? []).map((p, pi) => {
    if (p.currency !== undefined && p.currency !== currency) throw new DomainError('VALIDATION_ERROR', `payments[${pi}]: currency ${p.currency} differs from the booking's ${currency}`);
    return { ...p, amountMinor: toMinor(p.amount, currency), paidAt: p.date ? parseTimeParam(p.date, company.timezone, 'lower', `payments[${pi}].date`) : now };
  });
  if (payments.some((p) => p.amountMinor <= 0)) throw new DomainError('VALIDATION_ERROR', 'payments: every amount must be above 0');
  return payments;
}

interface BookingHeader {
  orderNumber: string;
  status: BookingStatus;
  customerId: number | null;
  resellerId: number | null;
  currency: string;
  totalMinor: number;
  fields: BookingFieldBody[];
}

function bookingRow(tx: Tx, body: BookingBody, header: BookingHeader, id: number): Insertable<BookingsTable> {
  return {
    order_number: header.orderNumber,
    id,
    status: header.status,
    customer_id: header.customerId,
    reseller_id: header.resellerId,
    api_key_id: tx.actor.keyId,
    currency: header.currency,
    total_amount_minor: header.totalMinor,
    reseller_comments: body.resellerComments ?? null,
    reseller_reference: body.resellerReference ?? null,
    // Supplier-only notes: an agent key cannot write them either.
    internal_notes: tx.actor.role === 'agent' ? null : (body.internalNotes ?? null),
    comments: body.comments ?? null,
    source: tx.actor.role === 'agent' ? 'API' : 'INTERNAL',
    source_channel: body.sourceChannel ?? null,
    fields_json: JSON.stringify(header.fields),
    created_by_json: body.createdBy ? JSON.stringify(body.createdBy) : null,
    reseller_user_json: body.resellerUser ? JSON.stringify(body.resellerUser) : null,
    created_at: tx.now,
    updated_at: tx.now,
    confirmed_at: header.status === 'CONFIRMED' ? tx.now : null,
    cancelled_at: null,
  };
}

/** What the item rows of one booking share while they are written. */
interface ItemWriter {
  tx: Tx;
  orderNumber: string;
  currency: string;
  options: CreateOptions;
  /** The order's one generated code (ORDER output), once an item made it. */
  orderCode: string | null;
}

/** One item's rows: the item, its quantities, extras and participants, its codes and the gift voucher it issues. */
async function insertItemRows(writer: ItemWriter, item: PlannedItem, commissionMinor: number | null): Promise<void> {
  const { tx, orderNumber, options } = writer;
  const itemId = options.nextId();
  await insertBookingItem(tx.db, {
    id: itemId,
    order_number: orderNumber,
    position: item.index,
    product_code: item.product.product_code,
    session_id: item.sessionId,
    start_at: item.startAt,
    end_at: item.endAt,
    all_day: item.allDay ? 1 : 0,
    amount_minor: item.amountMinor,
    subtotal_minor: item.subtotalMinor,
    amount_overridden: item.amountOverridden ? 1 : 0,
    total_quantity: item.totalQuantity,
    seats_held: item.seatsHeld,
    pickup_json: item.pickup ? JSON.stringify(item.pickup) : null,
    taxes_json: item.taxes.length ? JSON.stringify(item.taxes) : null,
    commission_minor: commissionMinor,
  });
  await insertItemQuantities(tx.db, item.quantities.map((q, position) => ({ item_id: itemId, position, option_id: q.optionId, option_label: q.label, option_price_minor: q.priceMinor, price_group_type: q.priceGroupType, seats_used: q.seatsUsed, value: q.value })));
  await insertItemExtras(tx.db, item.extras.map((e, position) => ({ item_id: itemId, position, extra_id: e.extraId, name: e.name, description: e.description, extra_price_type: e.extraPriceType, price_minor: e.priceMinor, quantity: e.quantity })));
  await insertItemCodesAndParticipants(writer, item, itemId);
  if (item.product.product_type === 'GIFT_CARD' && !options.quote) {
    await flushInsertBatch(tx.db);
    await insertGiftVoucher(tx.db, { code: options.token(10), value_type: 'VALUE', value_minor: item.amountMinor, value_percent: null, currency: writer.currency, product_code: null, category_id: null, issue_at: tx.now, expiry_at: null, source_order: orderNumber, internal_notes: null, internal_reference: null, created_at: tx.now, updated_at: tx.now, source_item_id: itemId });
  }
}

/**
 * The item's participants, each with a code of their own (PARTICIPANT output), or the order's code
 * (ORDER output: one generated code per order, or one external code per item). A quote takes no codes.
 */
async function insertItemCodesAndParticipants(writer: ItemWriter, item: PlannedItem, itemId: number): Promise<void> {
  const { tx, orderNumber, options } = writer;
  const qrType = options.quote ? null : item.product.qr_code_type;
  const output = item.product.barcode_output_type ?? 'PARTICIPANT';
  const code = async () => (qrType === 'EXTERNAL' ? flushInsertBatch(tx.db).then(() => takeExternalCode(tx, item.product.product_code, orderNumber)) : options.token(10));
  const participantRows = [];
  for (const [position, fieldsOfOne] of item.participants.entries()) {
    const barcode = qrType && output === 'PARTICIPANT' ? await code() : null;
    participantRows.push({ id: options.nextId(), item_id: itemId, position, fields_json: JSON.stringify(fieldsOfOne), barcode });
  }
  await insertParticipants(tx.db, participantRows);
  if (!qrType || output !== 'ORDER') return;
  await flushInsertBatch(tx.db);
  if (qrType === 'EXTERNAL') await insertOrderBarcode(tx.db, { code: await code(), order_number: orderNumber, item_id: itemId });
  else if (writer.orderCode === null) {
    writer.orderCode = options.token(10);
    await insertOrderBarcode(tx.db, { code: writer.orderCode, order_number: orderNumber, item_id: null });
  }
}

/** Creates every row of one booking inside the caller's transaction; answers the order number and warnings. */
export async function createBookingRows(tx: Tx, body: BookingBody, company: Company, options: CreateOptions): Promise<{ orderNumber: string; warnings: string[] }> {
  // A quote claims nothing (db/queries/claims.ts): it commits nothing, so it never waits for a create.
  const claim = !options.quote;
  const { items, currency } = await planItems(tx, body, company, claim);
  const { fields, warnings } = checkFields(body, items);
  const status = initialStatus(tx, body, items);
  await checkSeats(tx, items, claim);
  const resellerId = await resellerOf(tx, body.resellerId);
  const commissions = await commissionsFor(tx.db, resellerId, items, tx.actor.role === 'agent');
  const { uses } = await applyVouchers(tx.db, body.vouchers ?? [], items.map((i) => ({ productCode: i.product.product_code, subtotalMinor: i.subtotalMinor })), currency, tx.now, claim);
  const totalMinor = items.reduce((sum, i) => sum + i.subtotalMinor, 0) - uses.reduce((sum, u) => sum + u.amountMinor, 0);
  if (!Number.isSafeInteger(totalMinor)) throw new DomainError('VALIDATION_ERROR', `The booking's total of ${totalMinor} minor units is too large`);
  const payments = planPayments(body, currency, company, tx.now);

  const orderNumber = `T${options.instanceNo}-${String(options.nextOrderSeq()).padStart(5, '0')}`;
  // The booking's rows travel as one statement on the hub until something other than an insert comes.
  openInsertBatch(tx.db);
  const customerId = await customerOf(tx, body.customer, options.nextId);
  await insertBooking(tx.db, bookingRow(tx, body, { orderNumber, status, customerId, resellerId, currency, totalMinor, fields }, options.nextId()));
  const writer: ItemWriter = { tx, orderNumber, currency, options, orderCode: null };
  for (const item of items) await insertItemRows(writer, item, commissions[item.index]);
  await flushInsertBatch(tx.db);
  for (const [position, p] of payments.entries()) {
    await insertPayment(tx.db, { id: options.nextId(), order_number: orderNumber, position, type: p.type ?? null, amount_minor: p.amountMinor, currency, recipient: p.recipient ?? null, label: p.label ?? null, paid_at: p.paidAt, is_refund: 0, created_at: tx.now, recorded_by_reseller_id: agentResellerOf(tx), taken_by: tx.actor.name });
  }
  for (const use of uses) {
    await insertVoucherRedemption(tx.db, { id: options.nextId(), voucher_code: use.code, order_number: orderNumber, amount_minor: use.amountMinor, created_at: tx.now, reversed_at: null });
  }
  await tx.journal('booking', orderNumber, 'create', body);
  return { orderNumber, warnings };
}
