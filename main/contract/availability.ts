import { z } from 'zod';
import { bool, int, int32, nonNegInt, num, opt } from './common';
import { PRICE_GROUP_TYPES, priceOptionAnswerSchema } from './products';
import { paging, qInt, qList, qTime } from './query';

/** A session's price option override: names a product option by id or label, overrides what is sent. */
export const sessionPriceOptionSchema = z.object({
  id: opt(int),
  label: opt(z.string().trim().max(120)),
  price: opt(num.pipe(z.number().min(0, 'must not be negative'))),
  priceGroupType: opt(z.enum(PRICE_GROUP_TYPES)),
  minQuantity: opt(nonNegInt),
  maxQuantity: opt(nonNegInt),
  seatsUsed: opt(nonNegInt),
  productCode: opt(z.string()),
});

export const sessionCreateSchema = z.object({
  productCode: z.string().trim().min(1, 'is required').max(40),
  startTime: opt(z.string().max(40)),
  startTimeLocal: opt(z.string().max(40)),
  endTime: opt(z.string().max(40)),
  endTimeLocal: opt(z.string().max(40)),
  allDay: opt(bool),
  seats: opt(nonNegInt),
  /** Accepted in place of seats on create: a new session has no bookings, so they are the same. */
  seatsAvailable: opt(nonNegInt),
  priceOptions: opt(z.array(sessionPriceOptionSchema).max(100)),
});

const batchEntries = z.array(sessionCreateSchema).min(1, 'send at least one session').max(1000, 'send at most 1000 sessions at once');
/** A top-level array, or `{ "sessions": [...] }`; errors name the entry as sessions[i] either way. */
export const sessionBatchSchema = z
  .preprocess((v) => (Array.isArray(v) ? { sessions: v } : v), z.object({ sessions: batchEntries }))
  .transform((v) => v.sessions);

/** SessionUpdateRequest. seatsAvailable may be negative as long as the resulting total seats are not. */
export const sessionUpdateSchema = z.object({
  allDay: opt(bool),
  seats: opt(int32),
  seatsAvailable: opt(int32),
  priceOptions: opt(z.array(sessionPriceOptionSchema).max(100)),
});

export const availabilitySearchSchema = z.object({
  productCode: qList.pipe(z.array(z.string().trim().min(1).max(40)).max(100)),
  startTime: qTime.optional(),
  endTime: qTime.optional(),
  startTimeLocal: qTime.optional(),
  endTimeLocal: qTime.optional(),
  minAvailability: qInt.pipe(z.number().min(0, 'must not be negative')).optional(),
  ...paging,
});

export type SessionPriceOptionBody = z.infer<typeof sessionPriceOptionSchema>;
export type SessionCreateBody = z.infer<typeof sessionCreateSchema>;
export type SessionUpdateBody = z.infer<typeof sessionUpdateSchema>;
export type AvailabilitySearch = z.infer<typeof availabilitySearchSchema>;

/** A session as the API answers it (availability, session writes, a resource's sessions). Synthetic sessions (NO_DATE / DATE_ENQUIRY products) have no id. */
export const sessionAnswerSchema = z.object({
  id: z.number().optional(),
  productCode: z.string(),
  startTime: z.string(),
  startTimeLocal: z.string(),
  endTime: z.string(),
  endTimeLocal: z.string(),
  allDay: z.boolean(),
  seats: z.number(),
  seatsAvailable: z.number(),
  priceOptions: z.array(priceOptionAnswerSchema),
});
export type SessionAnswer = z.infer<typeof sessionAnswerSchema>;
