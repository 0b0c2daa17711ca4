import { sql, type Kysely } from 'kysely';
import { captureStatements } from '../syncCapture';

/**
 * Issue 19 (roles):
 * - payments.recorded_by_reseller_id: the reseller whose agent key recorded the payment (NULL: the
 *   supplier's desk). An agent's payment is money the agent says it took; the booking answer and the
 *   check-in payment gate say so.
 * - payments is a synced table: its capture triggers are re-made so they carry the new column.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE payments ADD COLUMN recorded_by_reseller_id INTEGER REFERENCES resellers(id)').execute(db);
  for (const statement of await captureStatements(db, { payments: ['id'] })) await sql.raw(statement).execute(db);
}
