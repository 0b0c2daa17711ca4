import { z } from 'zod';
import { paging, qInt, qTime } from './query';

/**
 * The desk's own views (TourDesk extensions): the booking link clients of this API style put on the
 * API's host, the week of departures with the day's takings, and the check-ins admitted under an override.
 */

/** GET /orders/edit/{orderNumber}: any order number a booking may have (the booking page says whether it exists). */
export const orderLinkParams = z.object({ orderNumber: z.string().trim().min(1, 'must not be empty').max(40, 'must be at most 40 characters') });

/**
 * GET /v1/manifest/week: `from` in any date form (default today in the company's timezone); `days`
 * from it, seven unless fewer are asked for (the board asks for its one day's totals with days=1).
 */
export const weekQuery = z.object({
  from: qTime.optional(),
  days: qInt.pipe(z.number().min(1, 'must be from 1 to 7').max(7, 'must be from 1 to 7')).optional(),
});

/** One departure of a day of the week: seats as availability counts them, people as the manifest does. */
export const weekDepartureSchema = z.object({
  sessionId: z.number(),
  productCode: z.string(),
  productName: z.string(),
  startTimeLocal: z.string(),
  seatsSold: z.number(),
  capacity: z.number(),
  checkedIn: z.number(),
  noShow: z.number(),
});

/** Money the desk took on a day, by payment type and currency (refunds count against their own type, REFUND). */
export const moneyTakenSchema = z.object({ type: z.string(), currency: z.string(), amount: z.number(), payments: z.number() });

export const weekDaySchema = z.object({
  date: z.string(),
  departures: z.array(weekDepartureSchema),
  totals: z.object({ seatsSold: z.number(), checkedIn: z.number(), noShow: z.number(), moneyTaken: z.array(moneyTakenSchema) }),
});
export type WeekDay = z.infer<typeof weekDaySchema>;

/** GET /v1/manifest/week's answer. */
export const weekAnswerSchema = z.object({ week: z.object({ from: z.string(), timezone: z.string(), days: z.array(weekDaySchema) }) });
export type WeekAnswer = z.infer<typeof weekAnswerSchema>;

/** GET /v1/checkin/overrides: the day (any date form; default today in the company's timezone) and a page. */
export const overridesQuery = z.object({ date: qTime.optional(), ...paging });

/** One check-in admitted under an override. */
export const overrideCheckinSchema = z.object({
  eventId: z.string(),
  /** The key's name when the check-in was made ("Pier tablet"). */
  by: z.string().nullable(),
  apiKeyId: z.number().nullable(),
  device: z.string().nullable(),
  rules: z.array(z.string()),
  orderNumber: z.string().nullable(),
  participant: z.object({ id: z.number().nullable(), name: z.string().nullable() }),
  occurredAt: z.string(),
  occurredAtLocal: z.string(),
  session: z.object({ id: z.number(), productCode: z.string(), productName: z.string(), startTimeLocal: z.string() }),
});
export type OverrideCheckin = z.infer<typeof overrideCheckinSchema>;
