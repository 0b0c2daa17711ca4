import { DateTime } from 'luxon';
import type { PriceOptionsTable } from '../../../db/schema';
import type { AvailabilitySearch } from '../../contract/availability';
import { findLiveSearchProducts, findSearchPriceOptions, sessionsInRangesReader, type SearchProduct, type SessionRangeGroup, type SessionWithHeld } from '../../../db/queries/availabilitySearch';
import { areaChangeTokenOf, changeTokenOf } from '../../../db/queries/changes';
import type { EngineContext } from '../context';
import { sessionsToApi, type Session } from './sessionAnswers';
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

type Entry = { start: number; code: string; row: SessionWithHeld; synthetic?: undefined } | { start: number; code: string; synthetic: Session; row?: undefined };

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

/** How many answers are kept while the database is unchanged (a desk repeats a few searches). */
const ANSWERS_CACHED = 50;

/** How many products' search facts the cache holds (a catalogue is tens of products, rarely hundreds). */
const PRODUCTS_CACHED = 500;

interface ProductFacts {
  product: SearchProduct;
  options: PriceOptionsTable[];
}

export function createAvailabilitySearch(ctx: EngineContext, companyZone: () => Promise<string>) {
  const readSessionsInRanges = sessionsInRangesReader(ctx.handle);
  // A product's search facts (timezone, currency, mode, price options) change far less often than
  // seats: kept while the products area (products, price options, company) is unchanged here, in
  // another process or by sync. Seats and sessions are read fresh on every search.
  const changes = areaChangeTokenOf(ctx.handle);
  let facts: { token: string; byCode: Map<string, ProductFacts> } = { token: '', byCode: new Map() };
  // A whole answer is kept only while nothing at all was written: the whole-database token moves
  // on every commit here (total_changes) or by another process (data_version), so a booking, a
  // session or a price change anywhere empties it. Keyed by the resolved ranges (today's start
  // when no start is sent), never by the raw query alone.
  const databaseChanged = changeTokenOf(ctx.handle);
  let answers: { token: string; byKey: Map<string, { sessions: Session[]; warnings: string[] }> } = { token: '', byKey: new Map() };

  /** The live products among `codes` with their price options (position order); a deleted or unknown code is absent. */
  async function productFacts(codes: string[]): Promise<Map<string, ProductFacts>> {
    const token = changes('products');
    if (facts.token !== token || facts.byCode.size > PRODUCTS_CACHED) facts = { token, byCode: new Map() };
    const cache = facts;
    const missing = codes.filter((c) => !cache.byCode.has(c));
    if (missing.length) {
      const [products, options] = await Promise.all([findLiveSearchProducts(ctx.db, missing), findSearchPriceOptions(ctx.db, missing)]);
      for (const product of products) cache.byCode.set(product.product_code, { product, options: options.filter((o) => o.product_code === product.product_code) });
    }
    const out = new Map<string, ProductFacts>();
    for (const code of codes) {
      const found = cache.byCode.get(code);
      if (found) out.set(code, found);
    }
    return out;
  }

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
    const toEntry = (row: SessionWithHeld): Entry => ({ start: row.start_at, code: row.product_code, row });
    if (minAvailability === undefined) return (await readSessionsInRanges(groups, { limit: wanted })).map(toEntry);
    // Availability is derived, not stored: scan in start order and filter, chunk by chunk.
    for (let offset = 0; out.length < wanted; offset += SCAN_CHUNK) {
      const rows = await readSessionsInRanges(groups, { limit: SCAN_CHUNK, offset });
      for (const row of rows) if (row.seats - row.seats_held >= minAvailability && out.length < wanted) out.push(toEntry(row));
      if (rows.length < SCAN_CHUNK) break;
    }
    return out;
  }

  function syntheticEntries(ranges: Range[], minAvailability: number | undefined, warnings: string[], known: Map<string, ProductFacts>): Entry[] {
    if (ranges.length === 0 || (minAvailability ?? 0) > SYNTHETIC_SEATS) return [];
    const out: Entry[] = [];
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

  /**
   * Sessions of the products asked for, ordered by start. Stored sessions start inside the range
   * (bounds inclusive); products without inventory answer one all-day session per local date.
   */
  return async function search(query: AvailabilitySearch): Promise<{ sessions: Session[]; warnings: string[] }> {
    // Read before anything it guards is loaded: an answer is never older than its token.
    const token = databaseChanged();
    const defaultZone = await companyZone();
    const codes = [...new Set(query.productCode)];
    const known = await productFacts(codes);
    const products = [...known.values()].map((f) => f.product);
    const missing = codes.filter((c) => !known.has(c));
    if (missing.length) throw new DomainError('NOT_FOUND', `Product ${missing.join(', ')} was not found`);
    const now = ctx.clock.now().getTime();
    const startOfToday = new Map<string, number>();
    const ranges = products.map((p) => rangeOf(p, p.timezone ?? defaultZone, query, now, startOfToday));
    const key = JSON.stringify([defaultZone, query.minAvailability, query.offset, query.limit, ranges.map((r) => [r.product.product_code, r.zone, r.lower, r.upper])]);
    if (answers.token !== token) answers = { token, byKey: new Map() };
    const cache = answers;
    const cached = cache.byKey.get(key);
    if (cached) return { sessions: cached.sessions, warnings: [...cached.warnings] };
    const answer = await searchUncached(query, ranges, defaultZone, known);
    if (cache.byKey.size >= ANSWERS_CACHED) cache.byKey.delete(cache.byKey.keys().next().value!);
    cache.byKey.set(key, { sessions: answer.sessions, warnings: [...answer.warnings] });
    return answer;
  };

  async function searchUncached(query: AvailabilitySearch, ranges: Range[], defaultZone: string, known: Map<string, ProductFacts>): Promise<{ sessions: Session[]; warnings: string[] }> {
    const products = ranges.map((r) => r.product);
    const warnings: string[] = [];
    const wanted = query.offset + query.limit;
    const stored = await storedEntries(
      ranges.filter((r) => r.product.booking_mode === 'INVENTORY'),
      query.minAvailability,
      wanted,
    );
    const synthetic = syntheticEntries(
      ranges.filter((r) => r.product.booking_mode !== 'INVENTORY'),
      query.minAvailability,
      warnings,
      known,
    );
    const page = [...stored, ...synthetic]
      .sort((a, b) => a.start - b.start || a.code.localeCompare(b.code))
      .slice(query.offset, wanted);
    const rows = page.filter((e) => e.row).map((e) => e.row!);
    const options = [...known.values()].flatMap((f) => f.options);
    const mapped = new Map((await sessionsToApi(ctx.db, rows, defaultZone, { products, options })).map((s) => [s.id, s]));
    return { sessions: page.map((e) => e.synthetic ?? mapped.get(e.row!.id)!), warnings };
  }
}
