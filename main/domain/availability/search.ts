import type { PriceOptionsTable } from '../../../db/schema';
import type { AvailabilitySearch } from '../../contract/availability';
import { findLiveSearchProducts, findSearchPriceOptions, sessionsInRangesReader, type SessionWithHeld, type SearchProduct } from '../../../db/queries/availabilitySearch';
import { areaChangeTokenOf, changeTokenOf } from '../../../db/queries/changes';
import type { EngineContext } from '../context';
import { sessionsToApi, type Session } from './sessionAnswers';
import { DomainError } from '../errors';
import { rangeOf, sameBounds, type SearchRange } from './searchRanges';
import { syntheticEntries, type SyntheticEntry } from './syntheticSessions';

const SCAN_CHUNK = 500;

type Entry = { start: number; code: string; row: SessionWithHeld; synthetic?: undefined } | (SyntheticEntry & { row?: undefined });

/** How many answers are kept while the database is unchanged (a desk repeats a few searches). */
const ANSWERS_CACHED = 50;

/** How many products' search facts the cache holds (a catalogue is tens of products, rarely hundreds). */
const PRODUCTS_CACHED = 500;

interface ProductFacts {
  product: SearchProduct;
  options: PriceOptionsTable[];
}

/**
 * A reader of products' search facts (timezone, currency, mode, price options). They change far less
 * often than seats: kept while the products area (products, price options, company) is unchanged
 * here, in another process or by sync. It answers the live products among `codes` with their price
 * options (position order); a deleted or unknown code is absent.
 */
function productFactsReader(ctx: EngineContext): (codes: string[]) => Promise<Map<string, ProductFacts>> {
  const changes = areaChangeTokenOf(ctx.handle);
  let facts: { token: string; byCode: Map<string, ProductFacts> } = { token: '', byCode: new Map() };
  return async function productFacts(codes) {
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
  };
}

/** Stored sessions in range, in start order, that pass minAvailability; at most `wanted` of them. */
async function storedEntries(read: ReturnType<typeof sessionsInRangesReader>, ranges: SearchRange[], minAvailability: number | undefined, wanted: number): Promise<Entry[]> {
  if (ranges.length === 0 || wanted <= 0) return [];
  const groups = sameBounds(ranges);
  const out: Entry[] = [];
  const toEntry = (row: SessionWithHeld): Entry => ({ start: row.start_at, code: row.product_code, row });
  if (minAvailability === undefined) return (await read(groups, { limit: wanted })).map(toEntry);
  // Availability is derived, not stored: scan in start order and filter, chunk by chunk.
  for (let offset = 0; out.length < wanted; offset += SCAN_CHUNK) {
    const rows = await read(groups, { limit: SCAN_CHUNK, offset });
    for (const row of rows) if (row.seats - row.seats_held >= minAvailability && out.length < wanted) out.push(toEntry(row));
    if (rows.length < SCAN_CHUNK) break;
  }
  return out;
}

export function createAvailabilitySearch(ctx: EngineContext, companyZone: () => Promise<string>) {
  const readSessionsInRanges = sessionsInRangesReader(ctx.handle);
  // Seats and sessions are read fresh on every search; the products' facts are kept (see productFactsReader).
  const productFacts = productFactsReader(ctx);
  // A whole answer is kept only while nothing at all was written: the whole-database token moves
  // on every commit here (total_changes) or by another process (data_version), so a booking, a
  // session or a price change anywhere empties it. Keyed by the resolved ranges (today's start
  // when no start is sent), never by the raw query alone.
  const databaseChanged = changeTokenOf(ctx.handle);
  let answers: { token: string; byKey: Map<string, { sessions: Session[]; warnings: string[] }> } = { token: '', byKey: new Map() };

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

  async function searchUncached(query: AvailabilitySearch, ranges: SearchRange[], defaultZone: string, known: Map<string, ProductFacts>): Promise<{ sessions: Session[]; warnings: string[] }> {
    const products = ranges.map((r) => r.product);
    const warnings: string[] = [];
    const wanted = query.offset + query.limit;
    const stored = await storedEntries(
      readSessionsInRanges,
      ranges.filter((r) => r.product.booking_mode === 'INVENTORY'),
      query.minAvailability,
      wanted,
    );
    const synthetic: Entry[] = syntheticEntries(
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
