import { z } from 'zod';
import { defineRoute, type RouteHost } from '../route';
import { takePaymentSchema, type TakePaymentAnswer } from '../../contract/payments';

const orderParams = z.object({ orderNumber: z.string().trim().min(1).max(40) });

/** The desk takes a booking's balance (TourDesk extension): see docs/api.md (Payments). */
export function registerPaymentRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'POST',
    path: '/v1/bookings/:orderNumber/payments',
    summary: 'Record a payment taken at the desk (never more than is due; the key and device that took it are kept) (TourDesk extension)',
    tag: 'Bookings',
    right: 'bookings',
    params: orderParams,
    body: takePaymentSchema,
    handler: async ({ params, body, actor, engine }): Promise<TakePaymentAnswer> => ({ booking: await engine.bookings.takePayment(params.orderNumber, body, actor) }),
  });
}
