import type { BookingsTable } from '../../../db/schema';
import type { BookingFieldBody, BookingUpdateBody } from '../../contract/bookings';
import type { Tx } from '../context';
import type { Company } from '../platform/companies';
import { DomainError } from '../errors';
import { checkFieldValues, requiredFieldProblems } from './fields';
import { resolvePickup } from './pickup';
import { customerColumns, hasCustomerData, insertCustomer } from './customers';
import { toMinor } from '../money';
import { refInstant } from '../availability/sessionRef';
import { localDate } from '../time';

const refuse = (message: string) => new DomainError('VALIDATION_ERROR', `${message}; PUT changes only status, customer, fields, participant fields, resellerComments, resellerReference and pickupLocation.locationName`);

/** The transitions PUT allows; anything else is a 409 naming what is allowed. */
export function checkTransition(from: string, to: string, role: string): void {
  if (from === to) return;
  if (from === 'CANCELLED') throw new DomainError('INVALID_STATE', `The booking is cancelled; it cannot become ${to}`);
  if (to === 'CANCELLED') return;
  if (from === 'PROCESSING' && (to === 'CONFIRMED' || to === 'ABANDONED_CART')) return;
  if (to === 'CONFIRMED' && role !== 'agent' && ['NEW', 'ON_HOLD', 'PENDING_SUPPLIER', 'PENDING_CUSTOMER'].includes(from)) return;
  throw new DomainError('INVALID_STATE', `A ${from} booking cannot become ${to}: PROCESSING may become CONFIRMED or ABANDONED_CART, the supplier may confirm a pending booking, and any booking may be CANCELLED`);
}

/**
 * PUT: a full replacement of the supported parts (omitted ones are cleared); anything else in the
 * body must repeat the stored value or the request is refused, so nothing is silently ignored.
 * Items left out entirely are kept as they are.
 */
export async function updateBookingRows(tx: Tx, row: BookingsTable, body: BookingUpdateBody, company: Company, nextId: () => number): Promise<string[]> {
  const items = await tx.db
    .selectFrom('booking_items')
    .innerJoin('products', 'products.product_code', 'booking_items.product_code')
    .selectAll('booking_items')
    .select(['products.timezone as product_timezone', 'products.details_json', 'products.enforce_required_fields'])
    .where('order_number', '=', row.order_number)
    .orderBy('position')
    .execute();
  const definitions = items.map((i) => (JSON.parse(i.details_json).bookingFields ?? []) as BookingFieldBody[]);
  const participantsByItem: BookingFieldBody[][][] = [];

  if (body.items !== undefined) {
    if (body.items.length !== items.length) throw refuse(`items: the booking has ${items.length} item(s), the body ${body.items.length}`);
    for (const [index, given] of body.items.entries()) {
      const stored = items[index];
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
        const quantities = await tx.db.selectFrom('booking_item_quantities').selectAll().where('item_id', '=', stored.id).orderBy('position').execute();
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
      participantsByItem.push(Array.from({ length: stored.total_quantity }, (_, p) => checkFieldValues(sentParticipants[p]?.fields ?? [], definitions[index], `${where}.participants[${p}]`)));
    }
  }

  const fixed: [keyof BookingUpdateBody, string | null][] = [
    ['internalNotes', row.internal_notes],
    ['comments', row.comments],
    ['sourceChannel', row.source_channel],
  ];
  for (const [field, stored] of fixed) {
    if (body[field] !== undefined && body[field] !== stored) throw refuse(`${field} cannot change`);
  }
  if (body.resellerId !== undefined && body.resellerId !== row.reseller_id) throw refuse('resellerId cannot change');

  if (body.status !== undefined && body.status !== row.status) {
    checkTransition(row.status, body.status, tx.actor.role);
    if (body.status === 'CANCELLED') await cancelRows(tx, row);
    else await tx.db.updateTable('bookings').set({ status: body.status, confirmed_at: body.status === 'CONFIRMED' ? tx.now : row.confirmed_at }).where('order_number', '=', row.order_number).execute();
  }

  const fields = checkFieldValues(body.fields ?? [], definitions.flat(), 'fields');
  const storedParticipants = body.items === undefined ? await Promise.all(items.map(async (i) => (await tx.db.selectFrom('participants').select('fields_json').where('item_id', '=', i.id).orderBy('position').execute()).map((p) => JSON.parse(p.fields_json) as BookingFieldBody[]))) : participantsByItem;
  const problems = requiredFieldProblems(fields, items.map((i, index) => ({ productCode: i.product_code, enforce: i.enforce_required_fields === 1, fields: definitions[index], participants: storedParticipants[index], index })));
  if (problems.errors.length) throw new DomainError('VALIDATION_ERROR', `Required booking fields are missing: ${problems.errors.join('; ')}`);

  if (body.items !== undefined) {
    for (const [index, stored] of items.entries()) {
      const product = await tx.db.selectFrom('products').selectAll().where('product_code', '=', stored.product_code).executeTakeFirstOrThrow();
      const pickup = await resolvePickup(tx.db, product, body.items[index].pickupLocation?.locationName, stored.start_at, stored.product_timezone ?? company.timezone);
      await tx.db.updateTable('booking_items').set({ pickup_json: pickup ? JSON.stringify(pickup) : null }).where('id', '=', stored.id).execute();
      for (const [position, fieldsOfOne] of participantsByItem[index].entries()) {
        await tx.db.updateTable('participants').set({ fields_json: JSON.stringify(fieldsOfOne) }).where('item_id', '=', stored.id).where('position', '=', position).execute();
      }
    }
  }

  let customerId: number | null = null;
  if (hasCustomerData(body.customer)) {
    if (row.customer_id !== null) {
      customerId = row.customer_id;
      await tx.db.updateTable('customers').set({ ...customerColumns(body.customer), updated_at: tx.now }).where('id', '=', customerId).execute();
      await tx.log('customer', customerId, 'update', body.customer);
    } else customerId = await insertCustomer(tx, body.customer, nextId);
  }
  await tx.db
    .updateTable('bookings')
    .set({ customer_id: customerId, fields_json: JSON.stringify(fields), reseller_comments: body.resellerComments ?? null, reseller_reference: body.resellerReference ?? null, updated_at: tx.now })
    .where('order_number', '=', row.order_number)
    .execute();
  await tx.log('booking', row.order_number, 'update', body);
  return problems.warnings;
}

/** Status CANCELLED (seats follow the status), its voucher redemptions reversed, its gift vouchers expired. */
export async function cancelRows(tx: Tx, row: BookingsTable): Promise<void> {
  if (row.status === 'CANCELLED') throw new DomainError('INVALID_STATE', `Booking ${row.order_number} is already cancelled`);
  await tx.db.updateTable('bookings').set({ status: 'CANCELLED', cancelled_at: tx.now, updated_at: tx.now }).where('order_number', '=', row.order_number).execute();
  await tx.db.updateTable('voucher_redemptions').set({ reversed_at: tx.now }).where('order_number', '=', row.order_number).where('reversed_at', 'is', null).execute();
  // Gift vouchers this order issued die with it, whatever value is left (voucherState counts a
  // voucher as expired once expiry_at < now, hence a millisecond before).
  await tx.db
    .updateTable('vouchers')
    .set({ expiry_at: tx.now - 1, updated_at: tx.now })
    .where('source_order', '=', row.order_number)
    .where((eb) => eb.or([eb('expiry_at', 'is', null), eb('expiry_at', '>=', tx.now)]))
    .execute();
}
