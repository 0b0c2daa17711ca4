import type BetterSqlite3 from 'better-sqlite3';
import type { CompiledQuery, Kysely } from 'kysely';
import type { DbHandle } from '../connection';
import type { Database, PriceOptionsTable, ProductsTable, SessionsTable } from '../schema';
import { LIVE_STATUSES } from '../../main/contract/enums';

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
 * the (product_code, start_at) index. Building and compiling the query cost more than running it, so
 * it is compiled (and prepared) once per shape (how many groups, codes and bounds) and run with fresh
 * parameters. Rows are read as arrays and named here with a fixed shape (as pageReader does, but
 * without its generic naming loop); the read takes Kysely's connection lock like any query on `db`,
 * so it never sees another request's transaction half-way. Never call it inside a transaction.
 */
export function sessionsInRangesReader(handle: DbHandle) {
  const shapes = new Map<string, { statement: BetterSqlite3.Statement; at: number[] }>();
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
    if (handle.dialect === 'postgres') {
      // A round trip to the server costs far more than building the query: no statement cache there.
      return handle.db
        .executeQuery(build(groups, page).compile() as CompiledQuery<SessionWithHeld>)
        .then((result) => result.rows.map((row) => ({ ...row, seats_held: Number(row.seats_held) })));
    }
    const shape = `${groups.map((g) => `${g.codes.length}${g.upper === undefined ? 'o' : 'c'}`).join(',')}|${page.offset === undefined ? '' : 'o'}`;
    const parameters = parametersOf(groups, page);
    let prepared = shapes.get(shape);
    if (!prepared) {
      const compiled = build(groups, page).compile() as CompiledQuery<SessionWithHeld>;
      // The parameter order is ours to know: check it once against what Kysely bound.
      if (compiled.parameters.length !== parameters.length || compiled.parameters.some((p, i) => p !== parameters[i])) {
        throw new Error(`sessionsInRangesReader: unexpected parameter order in ${compiled.sql}`);
      }
      const statement = handle.sqlite.prepare(compiled.sql).raw(true);
      const names = statement.columns().map((c) => c.name);
      const at = SESSION_COLUMNS.map((name) => names.indexOf(name));
      if (at.includes(-1)) throw new Error(`sessionsInRangesReader: a column is missing from ${compiled.sql}`);
      prepared = { statement, at };
      if (shapes.size >= 100) shapes.delete(shapes.keys().next().value!);
      shapes.set(shape, prepared);
    }
    const { statement, at } = prepared;
    const [id, productCode, startAt, endAt, allDay, seats, createdAt, updatedAt, seatsHeld] = at;
    return handle.db.connection().execute(async () =>
      (statement.all(...parameters) as unknown[][]).map(
        (c): SessionWithHeld => ({
          id: c[id] as number,
          product_code: c[productCode] as string,
          start_at: c[startAt] as number,
          end_at: c[endAt] as number,
          all_day: c[allDay] as SessionsTable['all_day'],
          seats: c[seats] as number,
          created_at: c[createdAt] as number,
          updated_at: c[updatedAt] as number,
          seats_held: c[seatsHeld] as number,
        }),
      ),
    );
  };
}

const SESSION_COLUMNS = ['id', 'product_code', 'start_at', 'end_at', 'all_day', 'seats', 'created_at', 'updated_at', 'seats_held'] as const satisfies readonly (keyof SessionWithHeld)[];
