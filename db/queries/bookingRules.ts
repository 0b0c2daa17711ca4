import { CompiledQuery, type Kysely } from 'kysely';
import type { Database, ExtrasTable, PriceOptionsTable, ProductsTable, SessionPriceOptionsTable, SessionsTable } from '../schema';
import { LIVE_STATUSES } from '../../main/contract/enums';
import { isPostgres } from '../dialect';
import { preparedOnHub } from '../postgres/prepared';
import { CLAIM_ROWS, SESSION_CLAIM } from './claims';

/** What one booking item's rules read: the product, its session, price options, the session's overrides of them, extras and the seats held. */
export interface ItemRuleRows {
  /** Undefined: no bookable product of that code. */
  product: ProductsTable | undefined;
  /** The product's session starting at the instant asked for, if any. */
  session: SessionsTable | undefined;
  options: PriceOptionsTable[];
  overrides: SessionPriceOptionsTable[];
  extras: ExtrasTable[];
  /** Seats the session's live bookings hold (0 without a session). */
  held: number;
}

/**
 * The same rows the separate reads give (db/queries/bookingCatalogue.ts, sessions.ts, seats.ts), in
 * one statement: on the PostgreSQL hub each statement is a round trip, and a booking made six. Rows
 * come through row_to_json (BIGINT and DOUBLE PRECISION as JSON numbers, the ids below 2^53), in the
 * orders the separate reads ask for. The seats are summed as db/queries/seats.ts sums them there.
 * The session is claimed in the same statement (db/queries/claims.ts): a booking's create runs beside
 * other bookings on the hub, and the claim is what keeps two of one session from both counting its
 * seats from before the other (`checkSeats` in main/domain/bookings/create.ts); a quote claims nothing.
 */
const READ = preparedOnHub(`
  WITH p AS (SELECT * FROM products WHERE product_code = $1 AND deleted_at IS NULL),
       s AS (SELECT * FROM sessions WHERE product_code = $1 AND start_at = $2),
       claimed AS (${CLAIM_ROWS(`SELECT '${SESSION_CLAIM}' || id FROM s WHERE $4::boolean`)})
  SELECT (SELECT row_to_json(p) FROM p) AS product,
         (SELECT row_to_json(s) FROM s) AS session,
         (SELECT coalesce(json_agg(o ORDER BY o.position), '[]') FROM price_options o WHERE o.product_code = $1) AS options,
         (SELECT coalesce(json_agg(so), '[]') FROM session_price_options so WHERE so.session_id IN (SELECT id FROM s)) AS overrides,
         (SELECT coalesce(json_agg(e), '[]') FROM product_extras pe JOIN extras e ON e.id = pe.extra_id WHERE pe.product_code = $1) AS extras,
         (SELECT coalesce(sum(bi.seats_held), 0) FROM booking_items bi JOIN bookings b ON b.order_number = bi.order_number
           WHERE bi.session_id IN (SELECT id FROM s) AND b.status = ANY($3::text[])) AS held`);

/**
 * One item's rule rows in one statement on PostgreSQL; undefined on SQLite, whose separate reads are
 * in process and cost less than building this (its caller reads them one by one, as before).
 * `startAt` null reads no session; `claim` claims the session read.
 */
export async function readItemRules(db: Kysely<Database>, productCode: string, startAt: number | null, claim: boolean): Promise<ItemRuleRows | undefined> {
  if (!isPostgres(db)) return undefined;
  const [row] = (await db.executeQuery<Omit<ItemRuleRows, 'product' | 'session'> & { product: ProductsTable | null; session: SessionsTable | null }>(CompiledQuery.raw(READ, [productCode, startAt, [...LIVE_STATUSES], claim]))).rows;
  return { ...row, product: row.product ?? undefined, session: row.session ?? undefined, held: Number(row.held) };
}
