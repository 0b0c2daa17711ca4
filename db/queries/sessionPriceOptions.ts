import type { Kysely } from 'kysely';
import type { Database, PriceOptionsTable, SessionPriceOptionsTable } from '../schema';

/** A session's override of one of its product's price options (null columns keep the product's value). */
export type SessionPriceOptionRow = Omit<SessionPriceOptionsTable, 'session_id'>;

const CHUNK = 500;

/** The price options of several products, by position (each product's own order once filtered by product). */
export async function findPriceOptionsByPosition(db: Kysely<Database>, productCodes: string[]): Promise<PriceOptionsTable[]> {
  return db.selectFrom('price_options').selectAll().where('product_code', 'in', productCodes).orderBy('position').execute();
}

/** The sessions' overrides: session id → price option id → override. */
export async function findOverridesOfSessions(db: Kysely<Database>, sessionIds: number[]): Promise<Map<number, Map<number, SessionPriceOptionRow>>> {
  const overrides = new Map<number, Map<number, SessionPriceOptionRow>>();
  // Chunked to stay under SQLite's bound-parameter limit on large pages.
  for (let i = 0; i < sessionIds.length; i += CHUNK) {
    const found = await db.selectFrom('session_price_options').selectAll().where('session_id', 'in', sessionIds.slice(i, i + CHUNK)).execute();
    for (const { session_id, ...override } of found) {
      if (!overrides.has(session_id)) overrides.set(session_id, new Map());
      overrides.get(session_id)!.set(override.price_option_id, override);
    }
  }
  return overrides;
}

/** Replaces a session's overrides with the given set (an empty set restores the product's prices). */
export async function replaceSessionOverrides(db: Kysely<Database>, sessionId: number, overrides: SessionPriceOptionRow[]): Promise<void> {
  await db.deleteFrom('session_price_options').where('session_id', '=', sessionId).execute();
  if (overrides.length) await db.insertInto('session_price_options').values(overrides.map((o) => ({ session_id: sessionId, ...o }))).execute();
}
