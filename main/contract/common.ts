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


const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** An ISO-8601 instant with `Z` or an offset (a body's startTime/endTime); the domain's fromIso parses it. */
export function isIsoInstant(text: string): boolean {
  return isoInstantMs(text) !== null;
}

/**
 * The epoch milliseconds of an ISO-8601 instant with `Z` or an offset, or null when the text is
 * none. The form `Date.toISOString()` writes (what devices send as a scan's `occurredAt`, each one
 * its own instant, so no memo helps) is read directly, ~0.5 µs; any other form, and any field out
 * of range in that one, goes to luxon (~15 µs), which decides as before.
 */
export function isoInstantMs(text: string): number | null {
  const trimmed = text.trim();
  const direct = canonicalUtcMs(trimmed);
  if (direct !== undefined) return direct;
  if (!ISO_INSTANT.test(trimmed)) return null;
  const dt = DateTime.fromISO(trimmed, { setZone: true });
  return dt.isValid ? dt.toMillis() : null;
}

const CANONICAL_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** `yyyy-MM-ddTHH:mm:ss[.SSS]Z` with every field in range: its instant. Undefined for anything else (luxon's to decide). */
function canonicalUtcMs(text: string): number | undefined {
  const m = CANONICAL_UTC.exec(text);
  if (m === null) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  // Years below 1000 are left to luxon, as are hour 24 and second 60 (Date.UTC would carry them over).
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1] + (month === 2 && leap ? 1 : 0)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  // Fractions as luxon reads them (truncated to the millisecond).
  const millis = m[7] === undefined ? 0 : Math.floor(parseFloat(`0.${m[7]}`) * 1000);
  return Date.UTC(year, month - 1, day, hour, minute, second, millis);
}
