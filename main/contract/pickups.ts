import { z } from 'zod';
import { nonNegInt, num, opt, text } from './common';
import { paging, qString } from './query';

export const pickupLocationSchema = z.object({
  locationName: z.string().trim().min(1, 'must not be empty').max(300, 'must be at most 300 characters'),
  address: opt(text(1000)),
  latitude: opt(num.pipe(z.number().min(-90, 'must be between -90 and 90').max(90, 'must be between -90 and 90'))),
  longitude: opt(num.pipe(z.number().min(-180, 'must be between -180 and 180').max(180, 'must be between -180 and 180'))),
  minutesPrior: opt(nonNegInt.pipe(z.number().max(7 * 24 * 60, 'must be at most 10080 (a week)'))),
  additionalInstructions: opt(text(5000)),
});

const uniqueNames = {
  check: (list: { pickupLocations?: { locationName: string }[] }) => {
    const names = (list.pickupLocations ?? []).map((l) => l.locationName.toLowerCase());
    return new Set(names).size === names.length;
  },
  params: { message: 'two locations have the same locationName (bookings choose a location by name)', path: ['pickupLocations'] },
};

const listFields = {
  additionalNotes: opt(text(5000)),
  otherLocationInstructions: opt(text(5000)),
  pickupLocations: opt(z.array(pickupLocationSchema).max(500, 'at most 500 locations')),
};

export const pickupListBodySchema = z
  .object({ name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'), ...listFields })
  .refine(uniqueNames.check, uniqueNames.params);
/** PUT replaces the whole list; only `name` may be left out (it then keeps its value, a list needs one). */
export const pickupListReplaceSchema = z
  .object({ name: opt(z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters')), ...listFields })
  .refine(uniqueNames.check, uniqueNames.params);
export const pickupSearchQuery = z.object({ searchString: qString.optional(), ...paging });

export type PickupListBody = z.infer<typeof pickupListReplaceSchema>;
export type PickupSearch = z.infer<typeof pickupSearchQuery>;

/** A pickup location as answered: what was stored, fields without a value left out. */
export const pickupLocationAnswerSchema = z.object({
  locationName: z.string(),
  address: z.string().optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  minutesPrior: z.number().optional(),
  additionalInstructions: z.string().optional(),
});
export type PickupLocationAnswer = z.infer<typeof pickupLocationAnswerSchema>;

export const pickupListAnswerSchema = z.object({
  id: z.number(),
  name: z.string(),
  additionalNotes: z.string().optional(),
  /** When set, a booking may name a location that is not in the list (free text). */
  otherLocationInstructions: z.string().optional(),
  pickupLocations: z.array(pickupLocationAnswerSchema),
});
export type PickupListAnswer = z.infer<typeof pickupListAnswerSchema>;

/** GET /v1/products/:productCode/pickups: the locations (empty when the product has none), and their list when it has one. */
export const productPickupsAnswerSchema = z.object({ pickupLocations: z.array(pickupLocationAnswerSchema), pickupList: pickupListAnswerSchema.optional() });
export type ProductPickupsAnswer = z.infer<typeof productPickupsAnswerSchema>;
