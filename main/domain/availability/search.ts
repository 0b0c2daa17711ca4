import { DateTime } from 'luxon';
import type { SessionsTable } from '../../../db/schema';
import type { AvailabilitySearch } from '../../contract/availability';
import { seatsHeldBySession } from '../../../db/queries/seats';
import { findLiveSearchProducts, sessionsInRangesReader, type SearchProduct, type SessionRangeGroup } from '../../../db/queries/availabilitySearch';
import { findPriceOptionsByPosition } from '../../../db/queries/sessionPriceOptions';
import type { EngineContext } from '../context';
import type { Session } from './sessions';
import { sessionsToApi } from './sessions';
import { DomainError } from '../errors';
import { priceOptionToApi } from '../catalogue/products';
import { parseTimeParam, toIso, toLocal } from '../time';

/** Synthetic sessions of NO_DATE / DATE_ENQUIRY products: one per local date, always "open". */
export const SYNTHETIC_SEATS = 999;
/** With no end bound, synthetic sessions cover this many local dates from the start. */
export const SYNTHETIC_DEFAULT_DAYS = 30;
/** At most this many synthetic dates per product and search. */
export const SYNTHETIC_MAX_DAYS = 366;
const SCAN_CHUNK = 500;

interface Range {
  product: SearchProduct;
  zone: string;
  lower: number;
  upper: number | undefined;
}

type Entry = { start: number; code: string; row: SessionsTable; synthetic?: undefined } | { start: number; code: string; synthetic: Session; row?: undefined };

/**
 * Ranges grouped by their bounds. Products in one timezone share them, and one
 * `product_code IN (…) AND start_at BETWEEN …` lets SQLite walk the start_at index in order and
 * stop at the page's end, where an OR per product sorts every session in range first.
 */
function sameBounds(ranges: Range[]): SessionRangeGroup[] {
  const groups = new Map<string, SessionRangeGroup>();
  for (const r of ranges) {
    const key = `${r.lower}|${r.upper}`;
    const group = groups.get(key);
    if (group) group.codes.push(r.product.product_code);
    else groups.set(key, { codes: [r.product.product_code], lower: r.lower, upper: r.upper });
  }
  return [...groups.values()];
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

export function createAvailabilitySearch(ctx: EngineContext, companyZone: () => Promise<string>) {
  const readSessionsInRanges = sessionsInRangesReader(ctx.handle);
  function rangeOf(product: SearchProduct, zone: string, query: AvailabilitySearch, now: number, startOfToday: Map<string, number>): Range {
    const lowerText = query.startTime ?? query.startTimeLocal;
    const upperText = query.endTime ?? query.endTimeLocal;
    const lowerField = query.startTime !== undefined ? 'startTime' : 'startTimeLocal';
    const upperField = query.endTime !== undefined ? 'endTime' : 'endTimeLocal';
    // No start: from the beginning of today where the product runs, so today's departures still show.
    const lower = lowerText !== undefined ? parseTimeParam(lowerText, zone, 'lower', lowerField) : startOfDay(now, zone, startOfToday);
    const upper = upperText !== undefined ? parseTimeParam(upperText, zone, 'upper', upperField) : undefined;
    if (upper !== undefined && upper < lower) throw new DomainError('VALIDATION_ERROR', `${upperField} ${upperText} is before ${lowerField} ${lowerText ?? '(today)'}`);
    return { product, zone, lower, upper };
  }

  /** Stored sessions in range, in start order, that pass minAvailability; at most `wanted` of them. */
  async function storedEntries(ranges: Range[], minAvailability: number | undefined, wanted: number): Promise<Entry[]> {
    if (ranges.length === 0 || wanted <= 0) return [];
    const groups = sameBounds(ranges);
    const out: Entry[] = [];
    const toEntry = (row: SessionsTable): Entry => ({ start: row.start_at, code: row.product_code, row });
    if (minAvailability === undefined) return (await readSessionsInRanges(groups, { limit: wanted })).map(toEntry);
    // Availability is derived, not stored: scan in start order and filter, chunk by chunk.
    for (let offset = 0; out.length < wanted; offset += SCAN_CHUNK) {
      const rows = await readSessionsInRanges(groups, { limit: SCAN_CHUNK, offset });
      const held = await seatsHeldBySession(ctx.db, rows.map((r) => r.id));
      for (const row of rows) if (row.seats - (held.get(row.id) ?? 0) >= minAvailability && out.length < wanted) out.push(toEntry(row));
      if (rows.length < SCAN_CHUNK) break;
    }
    return out;
  }

  async function syntheticEntries(ranges: Range[], minAvailability: number | undefined, warnings: string[]): Promise<Entry[]> {
    if (ranges.length === 0 || (minAvailability ?? 0) > SYNTHETIC_SEATS) return [];
    const options = await findPriceOptionsByPosition(
      ctx.db,
      ranges.map((r) => r.product.product_code),
    );
    const out: Entry[] = [];
    for (const { product, zone, lower, upper } of ranges) {
      const first = DateTime.fromMillis(lower, { zone }).startOf('day');
      const last = upper !== undefined ? DateTime.fromMillis(upper, { zone }).startOf('day') : first.plus({ days: SYNTHETIC_DEFAULT_DAYS - 1 });
      const priceOptions = options.filter((o) => o.product_code === product.product_code).map((o) => priceOptionToApi(o, product.currency));
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

  /**
   * Sessions of the products asked for, ordered by start. Stored sessions start inside the range
   * (bounds inclusive); products without inventory answer one all-day session per local date.
   */
  return async function search(query: AvailabilitySearch): Promise<{ sessions: Session[]; warnings: string[] }> {
    const defaultZone = await companyZone();
    const codes = [...new Set(query.productCode)];
    const products = await findLiveSearchProducts(ctx.db, codes);
    const missing = codes.filter((c) => !products.some((p) => p.product_code === c));
    if (missing.length) throw new DomainError('NOT_FOUND', `Product ${missing.join(', ')} was not found`);
    const now = ctx.clock.now().getTime();
    const startOfToday = new Map<string, number>();
    const ranges = products.map((p) => rangeOf(p, p.timezone ?? defaultZone, query, now, startOfToday));
    const warnings: string[] = [];
    const wanted = query.offset + query.limit;
    const [stored, synthetic] = await Promise.all([
      storedEntries(ranges.filter((r) => r.product.booking_mode === 'INVENTORY'), query.minAvailability, wanted),
      syntheticEntries(ranges.filter((r) => r.product.booking_mode !== 'INVENTORY'), query.minAvailability, warnings),
    ]);
    const page = [...stored, ...synthetic]
      .sort((a, b) => a.start - b.start || a.code.localeCompare(b.code))
      .slice(query.offset, wanted);
    const rows = page.filter((e) => e.row).map((e) => e.row!);
    const mapped = new Map((await sessionsToApi(ctx.db, rows, defaultZone, products)).map((s) => [s.id, s]));
    return { sessions: page.map((e) => e.synthetic ?? mapped.get(e.row!.id)!), warnings };
  };
}
