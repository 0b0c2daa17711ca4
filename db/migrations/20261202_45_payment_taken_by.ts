import { sql, type Kysely } from 'kysely';
import { captureStatements } from '../syncCapture';

/**
 * Issue 37 (the desk takes the balance):
 * - payments.taken_by: the name of the API key that recorded the payment, as it was then (keys do not
 *   sync and may be renamed or revoked; the receipt and the booking say who took the money);
 * - payments.taken_device: the device it was taken on, as the device names itself (NULL: not said);
 * - payments.payment_ref: the id the device gave the payment (one per "Take payment"), so a payment
 *   the desk's outbox sends again after a lost answer is recorded once. Unique where set.
 * payments is a synced table: the new columns travel with its row (SQLite's capture triggers are
 * re-made so they carry them; PostgreSQL's capture reads the whole row).
 */
const COLUMNS = ['ALTER TABLE payments ADD COLUMN taken_by TEXT', 'ALTER TABLE payments ADD COLUMN taken_device TEXT', 'ALTER TABLE payments ADD COLUMN payment_ref TEXT'];
const INDEX = 'CREATE UNIQUE INDEX payments_payment_ref ON payments (payment_ref) WHERE payment_ref IS NOT NULL';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [...COLUMNS, INDEX]) await sql.raw(statement).execute(db);
  for (const statement of await captureStatements(db, { payments: ['id'] })) await sql.raw(statement).execute(db);
}

export async function postgres(db: Kysely<unknown>): Promise<void> {
  for (const statement of [...COLUMNS, INDEX]) await sql.raw(statement).execute(db);
}
