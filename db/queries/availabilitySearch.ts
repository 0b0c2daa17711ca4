import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { DbHandle } from '../connection';
import type { Database, PriceOptionsTable, ProductsTable, SessionsTable } from '../schema';
import { LIVE_STATUSES } from '../../main/contract/enums';
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

/** A session row with the seats its live bookings hold. */
export type SessionWithHeld = SessionsTable & { seats_held: number };

export async function findLiveSearchProducts(db: Kysely<Database>, productCodes: string[]): Promise<SearchProduct[]> {
  return db.selectFrom('products').select(SEARCH_COLUMNS).where('product_code', 'in', productCodes).where('deleted_at', 'is', null).execute();
}

/** The products' price options, each product's in position order. */
export async function findSearchPriceOptions(db: Kysely<Database>, productCodes: string[]): Promise<PriceOptionsTable[]> {
  return db.selectFrom('price_options').selectAll().where('product_code', 'in', productCodes).orderBy('product_code').orderBy('position').execute();
}

/** The parameters of a page query in the order the query below binds them. */
function parametersOf(groups: SessionRangeGroup[], page: { limit: number; offset?: number }): unknown[] {
  const parameters: unknown[] = [...LIVE_STATUSES];
  for (const group of groups) {
    parameters.push(...group.codes, group.lower);
    if (group.upper !== undefined) parameters.push(group.upper);
  }
  parameters.push(page.limit);
  if (page.offset !== undefined) parameters.push(page.offset);
  return parameters;
}

/**
 * Reads pages of the sessions in the given ranges, by start, product and id, each with the seats
 * live bookings hold (one correlated sum per row of the page: the same statement a hand-written
 * search would run). One `product_code IN (…) AND start_at BETWEEN …` per group lets SQLite use
 * the (product_code, start_at) index. A search never runs inside a transaction, so its pages are
 * read as arrays (see pageReader). Building and compiling the query cost more than running it, so
 * it is compiled once per shape (how many groups, codes and bounds) and run with fresh parameters.
 */
export function sessionsInRangesReader(handle: DbHandle) {
  const readPage = pageReader(handle);
  const shapes = new Map<string, CompiledQuery<SessionWithHeld>>();
  const build = (groups: SessionRangeGroup[], page: { limit: number; offset?: number }) => {
    const inRanges = handle.db
      .selectFrom('sessions')
      .selectAll('sessions')
      .select((eb) =>
        eb.fn
          .coalesce(
            eb
              .selectFrom('booking_items')
              .innerJoin('bookings', 'bookings.order_number', 'booking_items.order_number')
              .select((inner) => inner.fn.sum<number>('booking_items.seats_held').as('held'))
              .whereRef('booking_items.session_id', '=', 'sessions.id')
              .where('bookings.status', 'in', [...LIVE_STATUSES]),
            eb.lit(0),
          )
          .as('seats_held'),
      )
      .where((eb) =>
        eb.or(
          groups.map((group) =>
            eb.and([
              eb('sessions.product_code', 'in', group.codes),
              eb('sessions.start_at', '>=', group.lower),
              ...(group.upper !== undefined ? [eb('sessions.start_at', '<=', group.upper)] : []),
            ]),
          ),
        ),
      )
      .orderBy('sessions.start_at')
      .orderBy('sessions.product_code')
      .orderBy('sessions.id')
      .limit(page.limit);
    return page.offset === undefined ? inRanges : inRanges.offset(page.offset);
  };
  return function readSessionsInRanges(groups: SessionRangeGroup[], page: { limit: number; offset?: number }): Promise<SessionWithHeld[]> {
    const shape = `${groups.map((g) => `${g.codes.length}${g.upper === undefined ? 'o' : 'c'}`).join(',')}|${page.offset === undefined ? '' : 'o'}`;
    const parameters = parametersOf(groups, page);
    let compiled = shapes.get(shape);
    if (!compiled) {
      compiled = build(groups, page).compile() as CompiledQuery<SessionWithHeld>;
      // The parameter order is ours to know: check it once against what Kysely bound.
      if (compiled.parameters.length !== parameters.length || compiled.parameters.some((p, i) => p !== parameters[i])) {
        throw new Error(`sessionsInRangesReader: unexpected parameter order in ${compiled.sql}`);
      }
      if (shapes.size >= 100) shapes.delete(shapes.keys().next().value!);
      shapes.set(shape, compiled);
    }
    const withParameters: CompiledQuery<SessionWithHeld> = { ...compiled, parameters };
    const query: Compilable<SessionWithHeld> = { compile: () => withParameters };
    return readPage(query);
  };
}
