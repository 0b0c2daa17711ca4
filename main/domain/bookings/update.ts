import type { BookingsTable } from '../../../db/schema';
import { markBookingCancelled, setBookingStatus, updateBookingDetails } from '../../../db/queries/bookings';
import { listItemQuantities, listItemsWithProductRules, setItemPickup, type ItemWithProductRules } from '../../../db/queries/bookingRows';
import { getProduct } from '../../../db/queries/bookingCatalogue';
import { setParticipantFields } from '../../../db/queries/participants';
import { updateCustomerRow } from '../../../db/queries/customers';
import { expireGiftVouchersOf, reverseOrderRedemptions } from '../../../db/queries/bookingVouchers';
import type { BookingFieldBody, BookingUpdateBody } from '../../contract/bookings';
import type { Tx } from '../context';
import type { Company } from '../platform/companies';
import { DomainError } from '../errors';
import { checkFieldValues, requiredFieldProblems } from './fields';
import { statusFromConfirmMode } from './create';
import { checkUnsupportedUnchanged, refuseChange } from './updateUnsupported';
import type { Booking } from '../../contract/bookings';
import { resolvePickup } from './pickup';
import { customerColumns, hasCustomerData, insertCustomer } from './customers';
import { toMinor } from '../money';
import { refInstant } from '../availability/sessionRef';
import { localDate } from '../time';
import type { BookingStatus } from '../statuses';

type ItemUpdate = NonNullable<BookingUpdateBody['items']>[number];

const refuse = refuseChange;

/** The transitions PUT allows; anything else is a 409 naming what is allowed. */
export function checkTransition(from: string, to: string, role: string): void {
  if (from === to) return;
  if (from === 'CANCELLED') throw new DomainError('INVALID_STATE', `The booking is cancelled; it cannot become ${to}`);
  if (to === 'CANCELLED') return;
  if (from === 'PROCESSING' && (to === 'CONFIRMED' || to === 'ABANDONED_CART')) return;
  if (to === 'CONFIRMED' && role !== 'agent' && ['NEW', 'ON_HOLD', 'PENDING_SUPPLIER', 'PENDING_CUSTOMER'].includes(from)) return;
  throw new DomainError('INVALID_STATE', `A ${from} booking cannot become ${to}: PROCESSING may become CONFIRMED or ABANDONED_CART, the supplier may confirm a pending booking, and any booking may be CANCELLED`);
}

type StoredItem = ItemWithProductRules;

/** The stored item must match what the body repeats of it; answers its participants' fields as sent (checked). */
async function checkItemUnchanged(tx: Tx, row: BookingsTable, given: ItemUpdate, stored: StoredItem, definitions: BookingFieldBody[], index: number, company: Company): Promise<BookingFieldBody[][]> {
  const zone = stored.product_timezone ?? company.timezone;
  const where = `items[${index}]`;
  if (given.productCode && given.productCode !== stored.product_code) throw refuse(`${where}: the product cannot change (${stored.product_code})`);
  if (given.startTime || given.startTimeLocal) {
    const instant = refInstant({ productCode: stored.product_code, startTime: given.startTime, startTimeLocal: given.startTimeLocal }, zone);
    // An all-day item is named by its date; a session by its exact start.
    const same = stored.all_day ? localDate(instant, zone) === localDate(stored.start_at, zone) : instant === stored.start_at;
    if (!same) throw refuse(`${where}: the session (start time) cannot change`);
  }
  if (given.quantities !== undefined) {
    const quantities = await listItemQuantities(tx.db, stored.id);
    const sent = given.quantities.filter((q) => q.value > 0);
    const same =
      sent.length === quantities.length &&
      sent.every((q) => {
        const match = quantities.find((s) => (q.optionId !== undefined ? s.option_id === q.optionId : q.optionLabel ? s.option_label.toLowerCase() === q.optionLabel.trim().toLowerCase() : quantities.length === 1));
        return match !== undefined && match.value === q.value;
      });
    if (!same) throw refuse(`${where}: quantities cannot change`);
  }
  if (given.amount !== undefined && toMinor(given.amount, row.currency) !== stored.amount_minor) throw refuse(`${where}: the amount cannot change`);
  const sentParticipants = given.participants ?? [];
  if (sentParticipants.length > stored.total_quantity) throw refuse(`${where}: ${sentParticipants.length} participants for a total quantity of ${stored.total_quantity}`);
  return Array.from({ length: stored.total_quantity }, (_, p) => checkFieldValues(sentParticipants[p]?.fields ?? [], definitions, `${where}.participants[${p}]`));
}

/** What PUT may not change must repeat the stored value (or be left out). */
function checkFixedFields(row: BookingsTable, body: BookingUpdateBody): void {
  const fixed: [keyof BookingUpdateBody, string | null][] = [
    ['internalNotes', row.internal_notes],
    ['comments', row.comments],
    ['sourceChannel', row.source_channel],
  ];
  for (const [field, stored] of fixed) {
    if (body[field] !== undefined && body[field] !== stored) throw refuse(`${field} cannot change`);
  }
  if (body.resellerId !== undefined && body.resellerId !== row.reseller_id) throw refuse('resellerId cannot change');
}

/**
 * Applies a status change. Step 2 of the two-step process by an agent key (PROCESSING → CONFIRMED)
 * on a product the supplier must confirm lands as PENDING_SUPPLIER, with a warning: an agent never
 * confirms what confirmMode leaves to the supplier, at create or here.
 */
async function changeStatus(tx: Tx, row: BookingsTable, status: BookingStatus, items: StoredItem[]): Promise<string[]> {
  checkTransition(row.status, status, tx.actor.role);
  if (status === 'CANCELLED') {
    await cancelRows(tx, row);
    return [];
  }
  if (status === 'CONFIRMED' && tx.actor.role === 'agent') {
    const byConfirmMode = statusFromConfirmMode(items.map((i) => ({ product: i, totalQuantity: i.total_quantity })));
    if (byConfirmMode !== 'CONFIRMED') {
      await setBookingStatus(tx.db, row.order_number, byConfirmMode, row.confirmed_at);
      return [`The booking is ${byConfirmMode}, not CONFIRMED: the supplier confirms this product`];
    }
  }
  await setBookingStatus(tx.db, row.order_number, status, status === 'CONFIRMED' ? tx.now : row.confirmed_at);
  return [];
}


/** The pickup each item now names, and its participants' fields. */
async function writeItemChanges(tx: Tx, items: StoredItem[], given: ItemUpdate[], participantsByItem: BookingFieldBody[][][], company: Company): Promise<void> {
  for (const [index, stored] of items.entries()) {
    const product = await getProduct(tx.db, stored.product_code);
    const pickup = await resolvePickup(tx.db, product, given[index]?.pickupLocation?.locationName, stored.start_at, stored.product_timezone ?? company.timezone);
    await setItemPickup(tx.db, stored.id, pickup ? JSON.stringify(pickup) : null);
    for (const [position, fieldsOfOne] of participantsByItem[index].entries()) await setParticipantFields(tx.db, stored.id, position, JSON.stringify(fieldsOfOne));
  }
}

/** The body's customer replaces the booking's own (or becomes a new one); without customer data the link is cleared. */
async function saveCustomer(tx: Tx, row: BookingsTable, customer: BookingUpdateBody['customer'], nextId: () => number): Promise<number | null> {
  if (!hasCustomerData(customer)) return null;
  if (row.customer_id === null) return insertCustomer(tx, customer, nextId);
  await updateCustomerRow(tx.db, row.customer_id, { ...customerColumns(customer), updated_at: tx.now });
  await tx.journal('customer', row.customer_id, 'update', customer);
  return row.customer_id;
}

/**
 * PUT: a full replacement of the supported parts (omitted ones are cleared, as the spec says); anything
 * else in the body must repeat the stored value (as `asRead`, the booking as GET answers it to this
 * key) or the request is refused, so nothing is silently ignored. Items left out entirely keep their
 * products, sessions and quantities, but their participant fields and pickups are supported parts
 * and so are cleared.
 */
export async function updateBookingRows(tx: Tx, row: BookingsTable, body: BookingUpdateBody, company: Company, nextId: () => number, asRead: Booking): Promise<string[]> {
  const items = await listItemsWithProductRules(tx.db, row.order_number);
  const definitions = items.map((i) => (JSON.parse(i.details_json).bookingFields ?? []) as BookingFieldBody[]);
  let participantsByItem: BookingFieldBody[][][] = [];
  if (body.items !== undefined) {
    if (body.items.length !== items.length) throw refuse(`items: the booking has ${items.length} item(s), the body ${body.items.length}`);
    for (const [index, given] of body.items.entries()) participantsByItem.push(await checkItemUnchanged(tx, row, given, items[index], definitions[index], index, company));
  } else {
    participantsByItem = items.map((i) => Array.from({ length: i.total_quantity }, () => []));
  }
  checkFixedFields(row, body);
  checkUnsupportedUnchanged(body, asRead, company.timezone);
  const statusWarnings = body.status !== undefined && body.status !== row.status ? await changeStatus(tx, row, body.status, items) : [];

  const fields = checkFieldValues(body.fields ?? [], definitions.flat(), 'fields');
  const problems = requiredFieldProblems(fields, items.map((i, index) => ({ productCode: i.product_code, enforce: i.enforce_required_fields === 1, fields: definitions[index], participants: participantsByItem[index], index })));
  if (problems.errors.length) throw new DomainError('VALIDATION_ERROR', `Required booking fields are missing: ${problems.errors.join('; ')}`);

  await writeItemChanges(tx, items, body.items ?? [], participantsByItem, company);
  const customerId = await saveCustomer(tx, row, body.customer, nextId);
  await updateBookingDetails(tx.db, row.order_number, { customer_id: customerId, fields_json: JSON.stringify(fields), reseller_comments: body.resellerComments ?? null, reseller_reference: body.resellerReference ?? null, updated_at: tx.now });
  await tx.journal('booking', row.order_number, 'update', body);
  return [...statusWarnings, ...problems.warnings];
}

/** Status CANCELLED (seats follow the status), its voucher redemptions reversed, its gift vouchers expired. */
export async function cancelRows(tx: Tx, row: BookingsTable): Promise<void> {
  if (row.status === 'CANCELLED') throw new DomainError('INVALID_STATE', `Booking ${row.order_number} is already cancelled`);
  await markBookingCancelled(tx.db, row.order_number, tx.now);
  await reverseOrderRedemptions(tx.db, row.order_number, tx.now);
  // Gift vouchers this order issued die with it, whatever value is left.
  await expireGiftVouchersOf(tx.db, row.order_number, tx.now);
}
