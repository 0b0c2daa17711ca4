import { sql, type Kysely } from 'kysely';

/**
 * A row made by one remote insert keeps its merge state in that op (issue 16, the catch-up bench).
 * Such a row's state is fully said by the op: every column it wrote stamped with its clock, born
 * then. Writing it to sync_rows as well was a third row write per op of a catch-up (about a fifth of
 * the bytes the desk wrote per op). `sync_ops.row_state` = 1 marks the op that is its row's whole
 * state; a row with no sync_rows entry takes its state from its marked op (db/queries/syncLog.ts);
 * the first later change writes sync_rows, which then wins. NULL on every other op (held ops,
 * catalogue ops of a non-owner, local ops: those leave no state, or one in sync_rows).
 * PostgreSQL gets the column too (translated), so both schemas stay one; its store always writes
 * sync_rows and never sets it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE sync_ops ADD COLUMN row_state INTEGER').execute(db);
}
