import { z } from 'zod';
import { idParam, num, opt, text } from './common';
import { CURRENCIES, VOUCHER_VALUE_TYPES } from './enums';
import { paging, qString } from './query';

/**
 * POST /v1/vouchers (TourDesk extension). Which of value, productCode and categoryId are needed
 * depends on valueType; the domain checks that (and that the product or category exists).
 */
export const voucherBodySchema = z.object({
  code: opt(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{2,39}$/, 'must be 3 to 40 letters, digits, dashes or underscores'),
  ),
  valueType: z.enum(VOUCHER_VALUE_TYPES),
  value: opt(num),
  currency: opt(z.enum(CURRENCIES)),
  productCode: opt(z.string().trim().min(1).max(40)),
  categoryId: opt(idParam),
  /** An ISO-8601 instant, `yyyy-MM-dd HH:mm:ss` in the company's timezone, or a date (valid through that day). */
  expiryDate: opt(z.string().trim().min(1).max(40)),
  internalNotes: opt(text(2000)),
  internalReference: opt(text(200)),
});

export type VoucherBody = z.infer<typeof voucherBodySchema>;

/** GET /v1/vouchers: a text search over code, internal reference, internal notes and source order, paged. */
export const voucherSearchQuery = z.object({ search: qString.optional(), ...paging });
export type VoucherSearch = z.infer<typeof voucherSearchQuery>;
