import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../schema';
import { isPostgres } from '../dialect';

/**
 * The rows a side-by-side write depends on (db/postgres/transaction.ts), claimed on the PostgreSQL
 * hub: each claim updates its row of tourdesk_claims (migration 20261207_21), and under REPEATABLE
 * READ two open transactions that update one row cannot both commit (the second waits for the first,
 * then is aborted and retried on a snapshot that holds what the first wrote). So two bookings of one
 * session never both count its seats from before the other's booking, nor two redemptions of one
 * voucher its balance. One statement claims its keys in key order; a create claims over several
 * (each item's session with its rules, then its vouchers), so two creates of the same sessions in
 * other orders may deadlock: PostgreSQL aborts one (40P01) and it is retried like any other loser.
 * SQLite runs every write alone: nothing to claim there.
 */
export const SESSION_CLAIM = 'session:';
export const sessionClaim = (sessionId: number) => `${SESSION_CLAIM}${sessionId}`;
export const voucherClaim = (code: string) => `voucher:${code}`;

/** The statement's text, for a statement that claims beside its reads (db/queries/bookingRules.ts). */
export const CLAIM_ROWS = (keys: string) =>
  `INSERT INTO tourdesk_claims (key) SELECT k FROM (${keys}) AS c(k) ORDER BY k ON CONFLICT (key) DO UPDATE SET n = tourdesk_claims.n + 1`;

const CLAIM = CLAIM_ROWS('SELECT DISTINCT unnest($1::text[])');

export async function claimRows(db: Kysely<Database>, keys: readonly string[]): Promise<void> {
  if (keys.length === 0 || !isPostgres(db)) return;
  await db.executeQuery(CompiledQuery.raw(CLAIM, [[...keys]]));
}
