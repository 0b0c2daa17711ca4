import { DateTime } from 'luxon';
import type { PriceOptionsTable } from '../../../db/schema';
import type { SessionAnswer } from '../../contract/availability';
import { priceOptionToApi } from '../catalogue/products';
import { toIso, toLocal } from '../time';
import type { SearchRange } from './searchRanges';

/** Synthetic sessions of NO_DATE / DATE_ENQUIRY products: one per local date, always "open". */
export const SYNTHETIC_SEATS = 999;
/** With no end bound, synthetic sessions cover this many local dates from the start. */
export const SYNTHETIC_DEFAULT_DAYS = 30;
/** At most this many synthetic dates per product and search. */
export const SYNTHETIC_MAX_DAYS = 366;

/** One all-day session a product without inventory answers, with where it sorts in a search page. */
export interface SyntheticEntry {
  start: number;
  code: string;
  synthetic: SessionAnswer;
}

/**
 * One all-day session per local date of each range (ranges of products without inventory), none when
 * minAvailability asks for more than SYNTHETIC_SEATS. A range past SYNTHETIC_MAX_DAYS dates is cut
 * there, with a warning pushed to `warnings`. `known` holds each product's price options.
 */
export function syntheticEntries(ranges: SearchRange[], minAvailability: number | undefined, warnings: string[], known: ReadonlyMap<string, { options: PriceOptionsTable[] }>): SyntheticEntry[] {
  if (ranges.length === 0 || (minAvailability ?? 0) > SYNTHETIC_SEATS) return [];
  const out: SyntheticEntry[] = [];
  for (const { product, zone, lower, upper } of ranges) {
    const first = DateTime.fromMillis(lower, { zone }).startOf('day');
    const last = upper !== undefined ? DateTime.fromMillis(upper, { zone }).startOf('day') : first.plus({ days: SYNTHETIC_DEFAULT_DAYS - 1 });
    const priceOptions = known.get(product.product_code)!.options.map((o) => priceOptionToApi(o, product.currency));
    let day = first;
    for (let n = 0; day <= last; n++, day = day.plus({ days: 1 })) {
      if (n === SYNTHETIC_MAX_DAYS) {
        warnings.push(`Product ${product.product_code} is bookable for any date; only the first ${SYNTHETIC_MAX_DAYS} dates of the range are listed`);
        break;
      }
      const start = day.toMillis();
      const end = day.plus({ days: 1 }).toMillis();
      out.push({
        start,
        code: product.product_code,
        synthetic: {
          productCode: product.product_code,
          startTime: toIso(start),
          startTimeLocal: toLocal(start, zone),
          endTime: toIso(end),
          endTimeLocal: toLocal(end, zone),
          allDay: true,
          seats: SYNTHETIC_SEATS,
          seatsAvailable: SYNTHETIC_SEATS,
          priceOptions: priceOptions.map((o) => ({ ...o })),
        },
      });
    }
  }
  return out;
}
