import { z } from 'zod';

/**
 * Query parameter helpers. The server's query parser has already dropped empty and valueless
 * parameters (they count as absent) and turned repeated ones into arrays; unknown parameters
 * are stripped by z.object.
 */
const first = (v: string | string[]) => (Array.isArray(v) ? v[0] : v);

export const qString = z.union([z.string(), z.array(z.string())]).transform(first);
export const qList = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]));
export const qBool = qString.pipe(
  z
    .string()
    .toLowerCase()
    .refine((v) => ['true', 'false', '1', '0', 'yes', 'no'].includes(v), 'must be true or false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes'),
);
export const qInt = qString.pipe(
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(-Number.MAX_SAFE_INTEGER, 'is too large').max(Number.MAX_SAFE_INTEGER, 'is too large')),
);
/** A position or count in a query (resourceOrder): 0..2^31-1, so it is stored exactly and never as a REAL. */
export const qNonNegInt32 = qInt.pipe(z.number().min(0, 'must not be negative').max(2 ** 31 - 1, 'must be at most 2147483647'));
export const qId = qString.pipe(
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a numeric id')
    .transform(Number)
    .pipe(z.number().max(Number.MAX_SAFE_INTEGER, 'must be a numeric id')),
);

export const MAX_LIMIT = 100;
/** limit above 100 is clamped (clients send 1000 and page while pages come back full); 0 means the default. */
export const qLimit = qString
  .pipe(z.string().trim().regex(/^\d+$/, 'must be a non-negative whole number'))
  .transform((v) => {
    const n = Number(v);
    return n === 0 ? MAX_LIMIT : Math.min(n, MAX_LIMIT);
  })
  .optional()
  .transform((v) => v ?? MAX_LIMIT);
export const qOffset = qString
  .pipe(z.string().trim().regex(/^\d+$/, 'must be a non-negative whole number'))
  .transform(Number)
  .pipe(z.number().max(Number.MAX_SAFE_INTEGER))
  .optional()
  .transform((v) => v ?? 0);

export const paging = { limit: qLimit, offset: qOffset };

/** A time bound as sent; each route converts it with parseTimeParam in the right timezone. */
export const qTime = qString;
