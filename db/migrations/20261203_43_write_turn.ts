import { sql, type Kysely } from 'kysely';

/**
 * Issue 39 (fewer round trips per booking on the PostgreSQL hub): the table hub writes lock to take
 * their turn (db/postgres/transaction.ts). A table lock, unlike the session advisory lock it replaces,
 * can be taken in the same round trip as BEGIN without fixing the transaction's snapshot before the
 * wait (LOCK TABLE takes no snapshot), and it ends with the transaction, so COMMIT or ROLLBACK lets the
 * turn go without an unlock of its own. It holds no rows and no columns: only its lock is used, so
 * nothing ever writes it and autovacuum never takes it.
 *
 * SQLite runs its writes one at a time already: nothing to do there.
 */
export const WRITE_TURN_TABLE = 'tourdesk_write_turn';

export async function up(): Promise<void> {}

export async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`CREATE TABLE ${WRITE_TURN_TABLE} ()`).execute(db);
}
