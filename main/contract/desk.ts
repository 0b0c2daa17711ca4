import { z } from 'zod';

/**
 * The desk's own views (TourDesk extensions): the booking link clients of this API style put on the
 * API's host, the week of departures with the day's takings, and the check-ins admitted under an override.
 */

/** GET /orders/edit/{orderNumber}: any order number a booking may have (the booking page says whether it exists). */
export const orderLinkParams = z.object({ orderNumber: z.string().trim().min(1, 'must not be empty').max(40, 'must be at most 40 characters') });
