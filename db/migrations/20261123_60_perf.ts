import { sql, type Kysely } from 'kysely';

/**
 * Every voucher read sums its live redemptions (status and remaining value are derived). With
 * amount and reversal in the index, that sum reads the index alone, never the table rows; it
 * starts with voucher_code, so it also replaces the plain voucher_code index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('CREATE INDEX voucher_redemptions_live ON voucher_redemptions(voucher_code, reversed_at, amount_minor)').execute(db);
  await sql.raw('DROP INDEX voucher_redemptions_code').execute(db);
}
