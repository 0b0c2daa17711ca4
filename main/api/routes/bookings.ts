import QRCode from 'qrcode';
import { z } from 'zod';
import { defineRoute, RawResponse, type RouteHost } from '../route';
import { withRetryAfter, withWarning } from '../envelope';
import { bookingSchema, bookingUpdateSchema, type Booking, type BookingList, type BookingQuote } from '../../contract/bookings';
import { paging, qBool, qList, qString, qTime } from '../../contract/query';
import { BOOKING_STATUSES } from '../../contract/enums';
import { parseTimeParam, type Bound } from '../../domain/time';

const orderParams = z.object({ orderNumber: z.string().trim().min(1).max(40) });
const searchQuery = z.object({
  orderStatus: qString.pipe(z.enum(BOOKING_STATUSES)).optional(),
  search: qString.optional(),
  productCode: qList.optional(),
  minTourStartTime: qTime.optional(),
  maxTourStartTime: qTime.optional(),
  updatedSince: qTime.optional(),
  minDateCreated: qTime.optional(),
  maxDateCreated: qTime.optional(),
  resellerReference: qString.optional(),
  /** TourDesk extension: `tourStartTime` lists the soonest departure first (from minTourStartTime when given); the default is oldest booking first. */
  sort: qString.pipe(z.enum(['dateCreated', 'tourStartTime'])).optional(),
  ...paging,
});

/** A booking (or a quote) under `booking`, with the required-field warnings as the requestStatus warning. */
const answer = <B extends Booking | BookingQuote>({ booking, warnings }: { booking: B; warnings: string[] }) => withWarning({ booking }, warnings.length ? warnings.join('; ') : undefined);

export function registerBookingRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'POST',
    path: '/v1/bookings',
    summary: 'Create a booking (seats are taken in the same transaction)',
    tag: 'Bookings',
    right: 'bookings',
    body: bookingSchema,
    handler: async ({ body, actor, engine, reply }): Promise<{ booking: Booking }> => answer(await withRetryAfter(reply, () => engine.bookings.create(body, actor))),
  });
  defineRoute(host, {
    method: 'POST',
    path: '/v1/bookings/quote',
    summary: 'Price a booking without making it (nothing is reserved or written)',
    tag: 'Bookings',
    right: 'bookings',
    body: bookingSchema,
    handler: async ({ body, actor, engine, reply }): Promise<{ booking: BookingQuote }> => answer(await withRetryAfter(reply, () => engine.bookings.quote(body, actor))),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/bookings',
    summary: 'Search bookings',
    tag: 'Bookings',
    right: 'bookings',
    query: searchQuery,
    handler: async ({ query, actor, engine }): Promise<BookingList> => {
      const zone = (await engine.companies.supplier()).timezone;
      const time = (value: string | undefined, bound: Bound, field: string) => (value === undefined ? undefined : parseTimeParam(value, zone, bound, field));
      const bookings = await engine.bookings.search(
        {
          ...query,
          minTourStartTime: time(query.minTourStartTime, 'lower', 'minTourStartTime'),
          maxTourStartTime: time(query.maxTourStartTime, 'upper', 'maxTourStartTime'),
          updatedSince: time(query.updatedSince, 'lower', 'updatedSince'),
          minDateCreated: time(query.minDateCreated, 'lower', 'minDateCreated'),
          maxDateCreated: time(query.maxDateCreated, 'upper', 'maxDateCreated'),
        },
        actor,
      );
      return { bookings };
    },
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/bookings/:orderNumber',
    summary: 'Get a booking',
    tag: 'Bookings',
    right: 'bookings',
    params: orderParams,
    handler: async ({ params, actor, engine }): Promise<{ booking: Booking }> => ({ booking: await engine.bookings.get(params.orderNumber, actor) }),
  });
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/bookings/:orderNumber',
    summary: 'Update a booking (full replacement of the supported parts)',
    tag: 'Bookings',
    right: 'bookings',
    params: orderParams,
    body: bookingUpdateSchema,
    handler: async ({ params, body, actor, engine, reply }): Promise<{ booking: Booking }> =>
      answer(await withRetryAfter(reply, () => engine.bookings.update(params.orderNumber, body, actor))),
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/bookings/:orderNumber',
    aliases: ['/v1/bookings/:orderNumber/cancel'],
    summary: 'Cancel a booking (seats released, what was paid refunded)',
    tag: 'Bookings',
    right: 'bookings',
    params: orderParams,
    query: z.object({ sendNotifications: qBool.optional() }),
    handler: async ({ params, actor, engine }): Promise<{ booking: Booking }> => ({ booking: await engine.bookings.cancel(params.orderNumber, actor) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/bookings/:orderNumber/qr/:file',
    summary: 'A participant or order code of the booking as a QR image (.png or .svg)',
    tag: 'Bookings',
    right: 'bookings',
    params: z.object({ orderNumber: z.string().trim().min(1).max(40), file: z.string().regex(/^[0-9A-Za-z_-]+\.(png|svg)$/, 'must be {code}.png or {code}.svg') }),
    handler: async ({ params, actor, engine }) => {
      const dot = params.file.lastIndexOf('.');
      const code = await engine.bookings.codeOf(params.orderNumber, params.file.slice(0, dot), actor);
      if (params.file.endsWith('.svg')) return new RawResponse('image/svg+xml', await QRCode.toString(code, { type: 'svg', margin: 2 }));
      return new RawResponse('image/png', await QRCode.toBuffer(code, { type: 'png', margin: 2, width: 320 }));
    },
  });
}
