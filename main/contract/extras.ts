import { z } from 'zod';
import { num, opt, text } from './common';
import { imageSchema } from './image';
import { paging, qString } from './query';

export const EXTRA_PRICE_TYPES = ['ANY', 'FIXED', 'QUANTITY'] as const;

const extraFields = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  description: opt(text(15_000)),
  extraPriceType: z.enum(EXTRA_PRICE_TYPES),
  /** Major units of the company currency, for a single quantity. */
  price: num.pipe(z.number().min(0, 'must not be negative').max(1e12, 'is too large')),
  image: opt(imageSchema),
  unitLabel: opt(text(100)),
});

export const extraBodySchema = extraFields;
/** PUT: fields left out keep their value. */
export const extraUpdateSchema = extraFields.partial();
export const extraSearchQuery = z.object({ searchString: qString.optional(), ...paging });

export type ExtraBody = z.infer<typeof extraBodySchema>;
export type ExtraUpdateBody = z.infer<typeof extraUpdateSchema>;
export type ExtraSearch = z.infer<typeof extraSearchQuery>;
