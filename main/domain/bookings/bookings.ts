import { sql, type Kysely } from 'kysely';
import { containsText } from '../../../db/queries/search';
import type { BookingsTable, Database } from '../../../db/schema';
import type { BookingBody, BookingUpdateBody } from '../../contract/bookings';
import type { Actor, EngineContext } from '../context';
import type { CompaniesService } from '../platform/companies';
import type { ProductsService } from '../catalogue/products';
import { DomainError } from '../errors';
import { createBookingRows, type CreateOptions } from './create';
import { loadBookings, type Booking } from './view';
import { cancelRows, updateBookingRows } from './update';

export interface BookingSearch {
  orderStatus?: string;
  search?: string;
  productCode?: string[];
  minTourStartTime?: number;
  maxTourStartTime?: number;
  updatedSince?: number;
  minDateCreated?: number;
  maxDateCreated?: number;
  resellerReference?: string;
  limit: number;
  offset: number;
}

export type Result = { booking: Booking; warnings: string[] };

/** A quote is a booking that was never kept: no order number, status, dates, codes or payment ids. */
function asQuote(booking: Booking): Booking {
  const { orderNumber: _n, status: _s, dateCreated: _c, dateUpdated: _u, dateConfirmed: _d, barcode: _b, voucherRedemptions: _r, ...priced } = booking;
  const items = (priced.items as Record<string, unknown>[]).map(({ vouchers: _v, barcode: _ib, ...item }) => ({
    ...item,
    participants: (item.participants as Record<string, unknown>[]).map(({ barcode: _pb, ...p }) => p),
  }));
  const payments = (priced.payments as Record<string, unknown>[]).map(({ id: _id, ...p }) => p);
  return { ...priced, items, payments } as unknown as Booking;
}

/** internalNotes are for the supplier only. */
const forActor = (booking: Booking, actor: Actor): Booking => {
  if (actor.role === 'agent') delete booking.internalNotes;
  return booking;
};

const noOrder = (orderNumber: string) => new DomainError('24', `No order found with order number ${orderNumber}`);

/**
 * The booking row an actor may see: agents see only their reseller's bookings; any other order
 * answers "no order found" (24), never 403, so order numbers do not leak.
 */
export async function visibleBooking(db: Kysely<Database>, orderNumber: string, actor: Actor): Promise<BookingsTable> {
  const row = await db.selectFrom('bookings').selectAll().where('order_number', '=', orderNumber).executeTakeFirst();
  if (!row || (actor.role === 'agent' && row.reseller_id !== actor.resellerId)) throw noOrder(orderNumber);
  return row;
}

export function createBookings(ctx: EngineContext, deps: { companies: CompaniesService; products: ProductsService }) {
  const options = (quote: boolean): CreateOptions => ({
    quote,
    nextId: () => ctx.ids.nextId(),
    nextOrderSeq: () => ctx.ids.nextOrderSeq(),
    token: (bytes) => ctx.ids.token(bytes),
    instanceNo: ctx.ids.instanceNo,
  });

  const load = async (db: Kysely<Database>, orderNumber: string, now: number) => (await loadBookings(db, [orderNumber], await deps.companies.supplier(), now))[0];

  const service = {
    async get(orderNumber: string, actor: Actor): Promise<Booking> {
      await visibleBooking(ctx.db, orderNumber, actor);
      return forActor(await load(ctx.db, orderNumber, ctx.clock.now().getTime()), actor);
    },

    async create(body: BookingBody, actor: Actor): Promise<Result> {
      const company = await deps.companies.supplier();
      const { orderNumber, warnings } = await ctx.write(actor, (tx) => createBookingRows(tx, body, company, options(false)));
      return { booking: forActor(await load(ctx.db, orderNumber, ctx.clock.now().getTime()), actor), warnings };
    },

    /** Runs the whole create as a dry run (the transaction is rolled back by design): the same numbers, nothing kept. */
    async quote(body: BookingBody, actor: Actor): Promise<Result> {
      const company = await deps.companies.supplier();
      const { booking, warnings } = await ctx.dryRun(actor, async (tx) => {
        const created = await createBookingRows(tx, body, company, options(true));
        return { booking: (await loadBookings(tx.db, [created.orderNumber], company, tx.now))[0], warnings: created.warnings };
      });
      return { booking: forActor(asQuote(booking), actor), warnings };
    },

    async search(query: BookingSearch, actor: Actor): Promise<Booking[]> {
      let q = ctx.db.selectFrom('bookings').leftJoin('customers', 'customers.id', 'bookings.customer_id').select('bookings.order_number');
      if (actor.role === 'agent') q = q.where('bookings.reseller_id', '=', actor.resellerId);
      if (query.orderStatus) q = q.where('bookings.status', '=', query.orderStatus);
      if (query.resellerReference) q = q.where('bookings.reseller_reference', '=', query.resellerReference);
      if (query.updatedSince !== undefined) q = q.where('bookings.updated_at', '>=', query.updatedSince);
      if (query.minDateCreated !== undefined) q = q.where('bookings.created_at', '>=', query.minDateCreated);
      if (query.maxDateCreated !== undefined) q = q.where('bookings.created_at', '<=', query.maxDateCreated);
      if (query.search) {
        const text = query.search.trim();
        q = q.where((eb) =>
          eb.or([
            containsText('bookings.order_number', text),
            containsText(sql<string>`coalesce(customers.first_name, '') || ' ' || coalesce(customers.last_name, '')`, text),
            ...['customers.last_name', 'customers.email', 'customers.phone', 'customers.mobile'].map((column) => containsText(column, text)),
          ]),
        );
      }
      if (query.productCode?.length || query.minTourStartTime !== undefined || query.maxTourStartTime !== undefined) {
        q = q.where((eb) => {
          let items = eb.selectFrom('booking_items').select('booking_items.id').whereRef('booking_items.order_number', '=', 'bookings.order_number');
          if (query.productCode?.length) items = items.where('booking_items.product_code', 'in', query.productCode);
          if (query.minTourStartTime !== undefined) items = items.where('booking_items.start_at', '>=', query.minTourStartTime);
          if (query.maxTourStartTime !== undefined) items = items.where('booking_items.start_at', '<=', query.maxTourStartTime);
          return eb.exists(items);
        });
      }
      const rows = await q.orderBy('bookings.created_at').orderBy('bookings.order_number').limit(query.limit).offset(query.offset).execute();
      const bookings = await loadBookings(ctx.db, rows.map((r) => r.order_number), await deps.companies.supplier(), ctx.clock.now().getTime());
      return bookings.map((b) => forActor(b, actor));
    },

    async update(orderNumber: string, body: BookingUpdateBody, actor: Actor): Promise<Result> {
      const company = await deps.companies.supplier();
      const warnings = await ctx.write(actor, async (tx) => updateBookingRows(tx, await visibleBooking(tx.db, orderNumber, actor), body, company, () => ctx.ids.nextId()));
      return { booking: forActor(await load(ctx.db, orderNumber, ctx.clock.now().getTime()), actor), warnings };
    },

    /** A participant's or the order's code, when it belongs to this booking (else 404). */
    async codeOf(orderNumber: string, code: string, actor: Actor): Promise<string> {
      await visibleBooking(ctx.db, orderNumber, actor);
      const participant = await ctx.db
        .selectFrom('participants')
        .innerJoin('booking_items', 'booking_items.id', 'participants.item_id')
        .select('participants.barcode as code')
        .where('booking_items.order_number', '=', orderNumber)
        .where('participants.barcode', '=', code)
        .executeTakeFirst();
      const order = participant ?? (await ctx.db.selectFrom('order_barcodes').select('code').where('order_number', '=', orderNumber).where('code', '=', code).executeTakeFirst());
      if (!order?.code) throw new DomainError('NOT_FOUND', `Booking ${orderNumber} has no code ${code}`);
      return order.code;
    },

    /** DELETE: cancels, gives seats and redeemed voucher value back, and refunds what was paid. */
    async cancel(orderNumber: string, actor: Actor): Promise<Booking> {
      await ctx.write(actor, async (tx) => {
        const row = await visibleBooking(tx.db, orderNumber, actor);
        await cancelRows(tx, row);
        const paid = await tx.db
          .selectFrom('payments')
          .select([sql<number>`coalesce(sum(case when is_refund = 1 then -amount_minor else amount_minor end), 0)`.as('minor'), sql<number>`coalesce(max(position), -1)`.as('last')])
          .where('order_number', '=', orderNumber)
          .executeTakeFirstOrThrow();
        if (Number(paid.minor) > 0) {
          await tx.db
            .insertInto('payments')
            .values({ id: ctx.ids.nextId(), order_number: orderNumber, position: Number(paid.last) + 1, type: 'REFUND', amount_minor: Number(paid.minor), currency: row.currency, recipient: null, label: 'Refund on cancellation', paid_at: tx.now, is_refund: 1, created_at: tx.now })
            .execute();
        }
        await tx.log('booking', orderNumber, 'cancel', { refundMinor: Math.max(0, Number(paid.minor)) });
      });
      return forActor(await load(ctx.db, orderNumber, ctx.clock.now().getTime()), actor);
    },
  };
  return service;
}

export type BookingsService = ReturnType<typeof createBookings>;
