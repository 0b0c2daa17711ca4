import type { Kysely } from 'kysely';
import type { BookingsTable, Database } from '../../../db/schema';
import { findBooking } from '../../../db/queries/bookings';
import { searchBookingOrderNumbers, type BookingFilter } from '../../../db/queries/bookingSearch';
import { findOrderCode, findParticipantCodeOfOrder } from '../../../db/queries/barcodes';
import { insertPayment, paymentBalance } from '../../../db/queries/payments';
import type { Booking, BookingBody, BookingQuote, BookingUpdateBody } from '../../contract/bookings';
import type { Actor, EngineContext, Tx } from '../context';
import type { CompaniesService, Company } from '../platform/companies';
import type { ProductsService } from '../catalogue/products';
import { DomainError } from '../errors';
import { agentResellerOf, createBookingRows, type CreateOptions } from './create';
import { loadBookings } from './view';
import { cancelRows, updateBookingRows } from './update';
import { createVoucherGuessing } from './voucherGuessing';
import { takePaymentRows, whoDidIt } from './takePayment';
import type { TakePaymentBody } from '../../contract/payments';

/** GET /v1/bookings: every filter but the reseller (an agent key's own reseller is added here). */
export type BookingSearch = Omit<BookingFilter, 'resellerId'>;

export type Result = { booking: Booking; warnings: string[] };
export type QuoteResult = { booking: BookingQuote; warnings: string[] };

/** A quote is a booking that was never kept: no order number, status, dates, codes or payment ids. */
function asQuote(booking: Booking): BookingQuote {
  const { orderNumber: _n, status: _s, dateCreated: _c, dateUpdated: _u, dateConfirmed: _d, barcode: _b, voucherRedemptions: _r, ...priced } = booking;
  return {
    ...priced,
    items: priced.items.map(({ vouchers: _v, barcode: _ib, ...item }) => ({ ...item, participants: item.participants.map(({ barcode: _pb, ...p }) => p) })),
    payments: priced.payments.map(({ id: _id, ...p }) => p),
  };
}

/** internalNotes are for the supplier only. */
const forActor = <T extends { internalNotes?: string }>(booking: T, actor: Actor): T => {
  if (actor.role === 'agent') delete booking.internalNotes;
  return booking;
};

const noOrder = (orderNumber: string) => new DomainError('24', `No order found with order number ${orderNumber}`);

/**
 * The booking row an actor may see: agents see only their reseller's bookings; any other order
 * answers "no order found" (24), never 403, so order numbers do not leak.
 */
export async function visibleBooking(db: Kysely<Database>, orderNumber: string, actor: Actor): Promise<BookingsTable> {
  const row = await findBooking(db, orderNumber);
  if (!row || (actor.role === 'agent' && row.reseller_id !== actor.resellerId)) throw noOrder(orderNumber);
  return row;
}

/** Cancels the booking and refunds what was paid on it, in the caller's transaction. */
async function cancelAndRefund(tx: Tx, row: BookingsTable, nextId: () => number): Promise<void> {
  await cancelRows(tx, row);
  const { netPaidMinor, lastPosition } = await paymentBalance(tx.db, row.order_number);
  if (netPaidMinor > 0) {
    await insertPayment(tx.db, {
      id: nextId(),
      order_number: row.order_number,
      position: lastPosition + 1,
      type: 'REFUND',
      amount_minor: netPaidMinor,
      currency: row.currency,
      recipient: null,
      label: 'Refund on cancellation',
      paid_at: tx.now,
      is_refund: 1,
      created_at: tx.now,
      recorded_by_reseller_id: agentResellerOf(tx),
      ...whoDidIt(tx.actor, null),
    });
  }
  await tx.journal('booking', row.order_number, 'cancel', { refundMinor: Math.max(0, netPaidMinor) });
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
  /**
   * A booking read inside a write, on its connection (the group's prepared statements, no wait for
   * the connection after the COMMIT). A write's answer is read so: the booking exactly as the write
   * leaves it, sent only once the COMMIT that holds it is durable, as every write's answer is.
   */
  const readInWrite = async (tx: Tx, orderNumber: string, company: Company) => (await loadBookings(tx.db, [orderNumber], company, tx.now))[0];
  const voucherGuessing = createVoucherGuessing(ctx.clock);

  const service = {
    async get(orderNumber: string, actor: Actor): Promise<Booking> {
      await visibleBooking(ctx.db, orderNumber, actor);
      return forActor(await load(ctx.db, orderNumber, ctx.clock.now().getTime()), actor);
    },

    async create(body: BookingBody, actor: Actor): Promise<Result> {
      const company = await deps.companies.supplier();
      const { booking, warnings } = await voucherGuessing.guard(actor, body.vouchers, () =>
        // Side by side on the hub: every row its rules read is claimed (create.ts, voucherRedemption.ts).
        ctx.write(
          actor,
          async (tx) => {
            const created = await createBookingRows(tx, body, company, options(false));
            return { booking: await readInWrite(tx, created.orderNumber, company), warnings: created.warnings };
          },
          { sideBySide: true },
        ),
      );
      return { booking: forActor(booking, actor), warnings };
    },

    /** Runs the whole create as a dry run (the transaction is rolled back by design): the same numbers, nothing kept. */
    async quote(body: BookingBody, actor: Actor): Promise<QuoteResult> {
      const company = await deps.companies.supplier();
      const { booking, warnings } = await voucherGuessing.guard(actor, body.vouchers, () =>
        ctx.dryRun(actor, async (tx) => {
          const created = await createBookingRows(tx, body, company, options(true));
          return { booking: (await loadBookings(tx.db, [created.orderNumber], company, tx.now))[0], warnings: created.warnings };
        }),
      );
      return { booking: forActor(asQuote(booking), actor), warnings };
    },

    async search(query: BookingSearch, actor: Actor): Promise<Booking[]> {
      const filter: BookingFilter = { ...query, resellerId: actor.role === 'agent' ? actor.resellerId : undefined };
      const orderNumbers = await searchBookingOrderNumbers(ctx.db, filter);
      const bookings = await loadBookings(ctx.db, orderNumbers, await deps.companies.supplier(), ctx.clock.now().getTime());
      return bookings.map((b) => forActor(b, actor));
    },

    async update(orderNumber: string, body: BookingUpdateBody, actor: Actor): Promise<Result> {
      const company = await deps.companies.supplier();
      // PUT looks no code up (its codes must be the booking's own), but a key held back sends none.
      const { booking, warnings } = await voucherGuessing.guard(actor, body.vouchers, () =>
        ctx.write(actor, async (tx) => {
          const row = await visibleBooking(tx.db, orderNumber, actor);
          // What the body must repeat of the parts PUT cannot change: the booking as this key reads it.
          const asRead = forActor(await readInWrite(tx, orderNumber, company), actor);
          const changed = await updateBookingRows(tx, row, body, company, () => ctx.ids.nextId(), asRead);
          return { booking: await readInWrite(tx, orderNumber, company), warnings: changed };
        }),
      );
      return { booking: forActor(booking, actor), warnings };
    },

    /** A participant's or the order's code, when it belongs to this booking (else 404). */
    async codeOf(orderNumber: string, code: string, actor: Actor): Promise<string> {
      await visibleBooking(ctx.db, orderNumber, actor);
      const found = (await findParticipantCodeOfOrder(ctx.db, orderNumber, code)) ?? (await findOrderCode(ctx.db, orderNumber, code));
      if (!found) throw new DomainError('NOT_FOUND', `Booking ${orderNumber} has no code ${code}`);
      return found;
    },

    /** The desk takes (part of) the balance: the booking as the payment leaves it (see takePaymentRows). */
    async takePayment(orderNumber: string, body: TakePaymentBody, actor: Actor): Promise<Booking> {
      const company = await deps.companies.supplier();
      const booking = await ctx.write(actor, async (tx) => {
        await takePaymentRows(tx, await visibleBooking(tx.db, orderNumber, actor), body, company, () => ctx.ids.nextId());
        return readInWrite(tx, orderNumber, company);
      });
      return forActor(booking, actor);
    },

    /** DELETE: cancels, gives seats and redeemed voucher value back, and refunds what was paid. */
    async cancel(orderNumber: string, actor: Actor): Promise<Booking> {
      const company = await deps.companies.supplier();
      const booking = await ctx.write(actor, async (tx) => {
        await cancelAndRefund(tx, await visibleBooking(tx.db, orderNumber, actor), () => ctx.ids.nextId());
        return readInWrite(tx, orderNumber, company);
      });
      return forActor(booking, actor);
    },
  };
  return service;
}

export type BookingsService = ReturnType<typeof createBookings>;
