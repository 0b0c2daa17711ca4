import { DateTime } from 'luxon';
import { z } from 'zod';

/**
 * Body field helpers. Clients of this API style send numbers and booleans as strings
 * ("200.00", "true"), and null for "not set": we accept both, then validate strictly.
 * Unknown fields are stripped by z.object (ignored, never stored).
 */
export const num = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, 'must be a number')
    .transform(Number),
]);
export const INT32_MAX = 2 ** 31 - 1;
const INT32_MIN = -(2 ** 31);
/** An int64 (an id): whole and exact in JavaScript, so at most 2^53-1 either way. */
export const int = num.pipe(
  z
    .number()
    .int('must be a whole number')
    .min(-Number.MAX_SAFE_INTEGER, `must be at least ${-Number.MAX_SAFE_INTEGER}`)
    .max(Number.MAX_SAFE_INTEGER, `must be at most ${Number.MAX_SAFE_INTEGER}`),
);
/** What the spec types int32 (seats, quantities, counts, minutes): -2^31..2^31-1. */
export const int32 = int.pipe(z.number().min(INT32_MIN, `must be at least ${INT32_MIN}`).max(INT32_MAX, `must be at most ${INT32_MAX}`));
/** A count or a number of minutes: 0..2^31-1 (every use is an int32 of the spec, or minutes that no tour outlasts). */
export const nonNegInt = int32.pipe(z.number().min(0, 'must not be negative'));
export const bool = z.union([z.boolean(), z.enum(['true', 'false', 'TRUE', 'FALSE', 'True', 'False']).transform((v) => v.toLowerCase() === 'true')]);

/** Optional in the API: missing and null both mean "not given". */
export const opt = <T extends z.ZodType>(schema: T) =>
  z
    .union([schema, z.null()])
    .optional()
    .transform((v) => (v === null ? undefined : v)) as unknown as z.ZodOptional<T>;

export const text = (max = 10_000) => z.string().max(max, `must be at most ${max} characters`);

/** An id in a path or body: a positive safe integer, digits accepted as a string. */
export const idParam = z.union([z.number(), z.string().trim().regex(/^\d+$/, 'must be a numeric id').transform(Number)]).pipe(
  z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
);

export const localTimeString = z.string().regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/, 'must be yyyy-MM-dd HH:mm:ss');

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** An ISO-8601 instant with `Z` or an offset (a body's startTime/endTime); the domain's fromIso parses it. */
export function isIsoInstant(text: string): boolean {
  const trimmed = text.trim();
  return ISO_INSTANT.test(trimmed) && DateTime.fromISO(trimmed, { setZone: true }).isValid;
}
