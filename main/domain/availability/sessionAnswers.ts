import type { Kysely } from 'kysely';
import type { Database, PriceOptionsTable, SessionsTable } from '../../../db/schema';
import type { SessionAnswer } from '../../contract/availability';
import { seatsHeldBySession } from '../../../db/queries/seats';
import { findSessionProducts } from '../../../db/queries/sessions';
import { findOverridesOfSessions } from '../../../db/queries/sessionPriceOptions';
import { findPriceOptionsOfProducts } from '../../../db/queries/products';
import { toIso, toLocal } from '../time';
import { effectiveOption } from './priceOptions';

/** A session as the API shows it. */
export type Session = SessionAnswer;

/**
 * What a caller has read already (a search has): the sessions' products, their price options, and
 * rows that carry `seats_held` (the seats their live bookings hold) from the query that found them.
 */
export interface KnownForSessions {
  products?: readonly { product_code: string; currency: string; timezone: string | null }[];
  options?: readonly PriceOptionsTable[];
}

/**
 * Session rows → API sessions: times in the product's timezone, seatsAvailable derived from the
 * seats live bookings hold, price options = the product's options with the session's overrides.
 * Bookings and manifests show sessions through this too.
 */
export async function sessionsToApi(db: Kysely<Database>, rows: (SessionsTable & { seats_held?: number })[], defaultTimezone: string, known: KnownForSessions = {}): Promise<Session[]> {
  if (rows.length === 0) return [];
  const codes = [...new Set(rows.map((r) => r.product_code))];
  const ids = rows.map((r) => r.id);
  const heldKnown = rows.every((r) => r.seats_held !== undefined);
  const [products, options, held, overrides] = await Promise.all([
    known.products ?? findSessionProducts(db, codes),
    known.options ?? findPriceOptionsOfProducts(db, codes),
    heldKnown ? undefined : seatsHeldBySession(db, ids),
    findOverridesOfSessions(db, ids),
  ]);
  const productOf = new Map(products.map((p) => [p.product_code, p]));
  const optionsOf = new Map<string, PriceOptionsTable[]>();
  for (const option of options) {
    const list = optionsOf.get(option.product_code);
    if (list) list.push(option);
    else optionsOf.set(option.product_code, [option]);
  }
  return rows.map((row) => {
    const product = productOf.get(row.product_code);
    const zone = product?.timezone ?? defaultTimezone;
    const currency = product?.currency ?? 'AUD';
    const sessionOverrides = overrides.get(row.id);
    return {
      id: row.id,
      productCode: row.product_code,
      startTime: toIso(row.start_at),
      startTimeLocal: toLocal(row.start_at, zone),
      endTime: toIso(row.end_at),
      endTimeLocal: toLocal(row.end_at, zone),
      allDay: row.all_day === 1,
      seats: row.seats,
      seatsAvailable: row.seats - (held ? (held.get(row.id) ?? 0) : row.seats_held!),
      priceOptions: (optionsOf.get(row.product_code) ?? []).map((o) => effectiveOption(o, sessionOverrides?.get(o.id), currency)),
    };
  });
}
