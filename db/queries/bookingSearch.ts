import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema';
import { containsText, phoneContainsDigits, phoneSearchDigits } from './search';

/** A booking search (GET /v1/bookings); times are epoch ms, every field left out filters nothing. */
export interface BookingFilter {
  /** Only this reseller's bookings (an agent key's); `null` matches no booking. */
  resellerId?: number | null;
  orderStatus?: string;
  /** The order number, the customer's full or last name, email, phone or mobile contains this text. */
  search?: string;
  productCode?: string[];
  minTourStartTime?: number;
  maxTourStartTime?: number;
  updatedSince?: number;
  minDateCreated?: number;
  maxDateCreated?: number;
  resellerReference?: string;
  /** 'tourStartTime': by each booking's first departure (at or after minTourStartTime); else by creation. */
  sort?: 'dateCreated' | 'tourStartTime';
  limit: number;
  offset: number;
}

/** The order numbers of one page of matching bookings, oldest first (or by first departure, `sort`). */
export async function searchBookingOrderNumbers(db: Kysely<Database>, filter: BookingFilter): Promise<string[]> {
  let q = db.selectFrom('bookings').leftJoin('customers', 'customers.id', 'bookings.customer_id').select('bookings.order_number');
  if (filter.resellerId !== undefined) q = q.where('bookings.reseller_id', '=', filter.resellerId);
  if (filter.orderStatus) q = q.where('bookings.status', '=', filter.orderStatus);
  if (filter.resellerReference) q = q.where('bookings.reseller_reference', '=', filter.resellerReference);
  if (filter.updatedSince !== undefined) q = q.where('bookings.updated_at', '>=', filter.updatedSince);
  if (filter.minDateCreated !== undefined) q = q.where('bookings.created_at', '>=', filter.minDateCreated);
  if (filter.maxDateCreated !== undefined) q = q.where('bookings.created_at', '<=', filter.maxDateCreated);
  if (filter.search) {
    const text = filter.search.trim();
    const phone = phoneSearchDigits(text);
    q = q.where((eb) =>
      eb.or([
        containsText('bookings.order_number', text),
        containsText(sql<string>`coalesce(customers.first_name, '') || ' ' || coalesce(customers.last_name, '')`, text),
        ...['customers.last_name', 'customers.email', 'customers.phone', 'customers.mobile'].map((column) => containsText(column, text)),
        // Typed as a phone number (local or international, any spacing): compared digit by digit.
        ...(phone.length >= 6 ? ['customers.phone', 'customers.mobile'].map((column) => phoneContainsDigits(column, phone)) : []),
      ]),
    );
  }
  if (filter.productCode?.length || filter.minTourStartTime !== undefined || filter.maxTourStartTime !== undefined) {
    q = q.where((eb) => {
      let items = eb.selectFrom('booking_items').select('booking_items.id').whereRef('booking_items.order_number', '=', 'bookings.order_number');
      if (filter.productCode?.length) items = items.where('booking_items.product_code', 'in', filter.productCode);
      if (filter.minTourStartTime !== undefined) items = items.where('booking_items.start_at', '>=', filter.minTourStartTime);
      if (filter.maxTourStartTime !== undefined) items = items.where('booking_items.start_at', '<=', filter.maxTourStartTime);
      return eb.exists(items);
    });
  }
  if (filter.sort === 'tourStartTime') {
    q = q.orderBy((eb) => {
      let first = eb.selectFrom('booking_items').select((e) => e.fn.min('booking_items.start_at').as('first')).whereRef('booking_items.order_number', '=', 'bookings.order_number');
      if (filter.minTourStartTime !== undefined) first = first.where('booking_items.start_at', '>=', filter.minTourStartTime);
      return first;
    });
  }
  const rows = await q.orderBy('bookings.created_at').orderBy('bookings.order_number').limit(filter.limit).offset(filter.offset).execute();
  return rows.map((r) => r.order_number);
}
