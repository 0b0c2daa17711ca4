import { z } from 'zod';
import { bool, num, opt } from './common';
import { paging, qString } from './query';

/** The spec's description also names PERCENTAGE for the percent type: accepted, answered as PERCENT. */
export const COMMISSION_TYPES = ['NET_RATE', 'PERCENT'] as const;
const commissionType = z.enum([...COMMISSION_TYPES, 'PERCENTAGE']).transform((v) => (v === 'PERCENTAGE' ? 'PERCENT' : v));

export const netRateSchema = z.object({
  priceOptionLabel: z.string().trim().min(1, 'must not be empty').max(120),
  netPrice: num.pipe(z.number().min(0, 'must not be negative')),
});

const productRateFields = {
  productCode: opt(z.string().trim().min(1).max(40)),
  commissionType,
  netRates: opt(z.array(netRateSchema).max(100)),
  percentageCommission: opt(num.pipe(z.number().min(0, 'must be 0 to 100').max(100, 'must be 0 to 100'))),
  percentageIncludeExtras: opt(bool),
};

type ProductRateShape = { commissionType: 'NET_RATE' | 'PERCENT'; netRates?: unknown[]; percentageCommission?: number; percentageIncludeExtras?: boolean };

/** Which fields are mandatory depends on commissionType; the message names the missing one. */
function mandatoryByType(rate: ProductRateShape, ctx: z.RefinementCtx): void {
  if (rate.commissionType === 'NET_RATE' && (!rate.netRates || rate.netRates.length === 0)) {
    ctx.addIssue({ code: 'custom', path: ['netRates'], message: 'is mandatory (at least one entry) when commissionType is NET_RATE' });
  }
  if (rate.commissionType === 'PERCENT') {
    if (rate.percentageCommission === undefined) ctx.addIssue({ code: 'custom', path: ['percentageCommission'], message: 'is mandatory when commissionType is PERCENT' });
    if (rate.percentageIncludeExtras === undefined) ctx.addIssue({ code: 'custom', path: ['percentageIncludeExtras'], message: 'is mandatory when commissionType is PERCENT' });
  }
}

/** PUT /v1/rates/{rateId}/products/{productCode}: the path names the product (a body productCode is ignored). */
export const productRateSchema = z.object(productRateFields).superRefine(mandatoryByType);
/** An entry of a rate's productRates[] names its product. */
const listedProductRateSchema = z.object({ ...productRateFields, productCode: z.string().trim().min(1, 'must not be empty').max(40) }).superRefine(mandatoryByType);

const rateFields = {
  name: z.string().trim().min(1, 'must not be empty').max(200),
  productRates: opt(z.array(listedProductRateSchema).max(500)),
};

/** POST /v1/rates and PUT /v1/rates/{rateId}: PUT replaces the product list when productRates is sent. */
export const rateBodySchema = z.object(rateFields);
export const rateUpdateSchema = z.object({ name: rateFields.name.optional(), productRates: rateFields.productRates });

export type ProductRateBody = z.infer<typeof productRateSchema>;
export type ListedProductRateBody = z.infer<typeof listedProductRateSchema>;
export type RateBody = z.infer<typeof rateBodySchema>;
export type RateUpdateBody = z.infer<typeof rateUpdateSchema>;

/** GET /v1/rates: by name or product, paged. */
export const rateSearchQuery = z.object({ rateName: qString.optional(), productCode: qString.optional(), ...paging });
export type RateSearch = z.infer<typeof rateSearchQuery>;

/** GET /v1/resellers (TourDesk extension): by name, paged. */
export const resellerSearchQuery = z.object({ search: qString.optional(), ...paging });
export type ResellerSearch = z.infer<typeof resellerSearchQuery>;
