import { DateTime } from 'luxon';
import type { SearchProduct, SessionRangeGroup } from '../../../db/queries/availabilitySearch';
import type { AvailabilitySearch } from '../../contract/availability';
import { DomainError } from '../errors';
import { parseTimeParam } from '../time';

/** The instants a search covers for one product, in that product's timezone (upper undefined: open-ended). */
export interface SearchRange {
  product: SearchProduct;
  zone: string;
  lower: number;
  upper: number | undefined;
}

/** The start of the local day of `now` in a zone, worked out once per zone and search (luxon's zone maths is slow). */
function startOfDay(now: number, zone: string, memo: Map<string, number>): number {
  let start = memo.get(zone);
  if (start === undefined) {
    start = DateTime.fromMillis(now, { zone }).startOf('day').toMillis();
    memo.set(zone, start);
  }
  return start;
}

/**
 * The range a query names for a product: an ISO bound wins over a local one, and with no start the
 * range begins at the start of today where the product runs, so today's departures still show.
 * `startOfToday` memoises that start per zone for one search.
 */
export function rangeOf(product: SearchProduct, zone: string, query: AvailabilitySearch, now: number, startOfToday: Map<string, number>): SearchRange {
  const lowerText = query.startTime ?? query.startTimeLocal;
  const upperText = query.endTime ?? query.endTimeLocal;
  const lowerField = query.startTime !== undefined ? 'startTime' : 'startTimeLocal';
  const upperField = query.endTime !== undefined ? 'endTime' : 'endTimeLocal';
  const lower = lowerText !== undefined ? parseTimeParam(lowerText, zone, 'lower', lowerField) : startOfDay(now, zone, startOfToday);
  const upper = upperText !== undefined ? parseTimeParam(upperText, zone, 'upper', upperField) : undefined;
  if (upper !== undefined && upper < lower) throw new DomainError('VALIDATION_ERROR', `${upperField} ${upperText} is before ${lowerField} ${lowerText ?? '(today)'}`);
  return { product, zone, lower, upper };
}

/**
 * Ranges grouped by their bounds. Products in one timezone share them, and one
 * `product_code IN (…) AND start_at BETWEEN …` lets SQLite walk the start_at index in order and
 * stop at the page's end, where an OR per product sorts every session in range first.
 */
export function sameBounds(ranges: SearchRange[]): SessionRangeGroup[] {
  const groups = new Map<string, SessionRangeGroup>();
  for (const r of ranges) {
    const key = `${r.lower}|${r.upper}`;
    const group = groups.get(key);
    if (group) group.codes.push(r.product.product_code);
    else groups.set(key, { codes: [r.product.product_code], lower: r.lower, upper: r.upper });
  }
  return [...groups.values()];
}
