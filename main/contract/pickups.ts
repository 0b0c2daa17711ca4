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
export type PickupLocationBody = z.infer<typeof pickupLocationSchema>;
export type PickupSearch = z.infer<typeof pickupSearchQuery>;
