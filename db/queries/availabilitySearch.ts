import type { Kysely } from 'kysely';
import type { DbHandle } from '../connection';
import type { Database, ProductsTable, SessionsTable } from '../schema';
import { pageReader } from './pages';

/** What an availability search needs of a product (not its descriptions and terms). */
const SEARCH_COLUMNS = ['product_code', 'currency', 'timezone', 'booking_mode'] as const satisfies readonly (keyof ProductsTable)[];
export type SearchProduct = Pick<ProductsTable, (typeof SEARCH_COLUMNS)[number]>;

/** Products that start at the same bounds: start_at in [lower, upper] (no upper: open-ended). */
export interface SessionRangeGroup {
  codes: string[];
  lower: number;
  upper: number | undefined;
}

export async function findLiveSearchProducts(db: Kysely<Database>, productCodes: string[]): Promise<SearchProduct[]> {
  return db.selectFrom('products').select(SEARCH_COLUMNS).where('product_code', 'in', productCodes).where('deleted_at', 'is', null).execute();
}

/**
 * Reads pages of the sessions in the given ranges, by start, product and id. One
 * `product_code IN (…) AND start_at BETWEEN …` per group lets SQLite walk the start_at index in
 * order and stop at the page's end. A search never runs inside a transaction, so its pages are
 * read as arrays (see pageReader).
 */
export function sessionsInRangesReader(handle: DbHandle) {
  const readPage = pageReader(handle);
  return function readSessionsInRanges(groups: SessionRangeGroup[], page: { limit: number; offset?: number }): Promise<SessionsTable[]> {
    const inRanges = handle.db
      .selectFrom('sessions')
      .selectAll()
      .where((eb) =>
        eb.or(
          groups.map((group) =>
            eb.and([
              eb('product_code', 'in', group.codes),
              eb('start_at', '>=', group.lower),
              ...(group.upper !== undefined ? [eb('start_at', '<=', group.upper)] : []),
            ]),
          ),
        ),
      )
      .orderBy('start_at')
      .orderBy('product_code')
      .orderBy('id')
      .limit(page.limit);
    return readPage(page.offset === undefined ? inRanges : inRanges.offset(page.offset));
  };
}
