import type { RouteHost } from '../route';
import { toErrorResponse } from '../envelope';
import { orderLinkParams } from '../../contract/desk';

/** The desk's page for one booking (renderer/src/store/nav.ts; `tourdesk serve` serves it at this path). */
export const bookingPagePath = (orderNumber: string) => `/bookings/${encodeURIComponent(orderNumber)}`;

/**
 * Client libraries of this API style link each booking to /orders/edit/{orderNumber} on the API's
 * host: the link opens the desk's page for that booking. A link, not an operation of the /v1 API
 * (like /docs), so it is not in the OpenAPI document: it redirects any order number without looking
 * it up, where every operation there refuses an unknown one. It needs no key (it reads nothing; the
 * page asks for one) and redirects only to a path on this host: the order number is percent-encoded,
 * so no value of it (`//elsewhere`, `..`, a URL) can make the target another host or another page.
 */
export function registerOrderLinkRoutes(host: RouteHost): void {
  host.app.get('/orders/edit/:orderNumber', (request, reply) => {
    const params = orderLinkParams.safeParse(request.params);
    if (!params.success) {
      const refused = toErrorResponse(params.error, 'params');
      return reply.status(refused.status).send(refused.body);
    }
    return reply.header('cache-control', 'no-store').redirect(bookingPagePath(params.data.orderNumber), 302);
  });
}
