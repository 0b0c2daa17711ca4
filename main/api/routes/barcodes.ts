import { defineRoute, type RouteHost } from '../route';
import { orderNumberParams, reissueBodySchema, type ReissueAnswer } from '../../contract/barcodes';

/** TourDesk extension: reissue a booking's codes (the old ones answer CODE_REVOKED when scanned). */
export function registerBarcodeRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'POST',
    path: '/v1/bookings/:orderNumber/barcodes/reissue',
    summary: "Give a participant (or the whole order) new codes and revoke the old ones; supplier keys only (TourDesk extension)",
    tag: 'Bookings',
    right: 'bookings',
    params: orderNumberParams,
    // A POST with nothing to say (a JSON content type and no body, as generic clients send it) is `{}`.
    body: reissueBodySchema.optional().default({}),
    handler: async ({ params, body, actor, engine }): Promise<ReissueAnswer> => engine.barcodes.reissue(actor, params.orderNumber, body.participantId),
  });
}
