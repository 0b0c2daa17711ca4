import { sql, type Kysely } from 'kysely';

/**
 * Where one write's ops end (issue 16: a page could cut one write's ops in two, so a peer briefly
 * held half a booking). `sync_ops.write_continues` = 1 on every op of a write but its last (the
 * fold marks them; a relay stores the mark as the op came); NULL on a write's last op and on every op
 * stored before this (each then counts as a write of its own, as before). A page ends only where no
 * write it holds is left open, unless one write alone is over the page's cap.
 * PostgreSQL gets the column too (translated).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE sync_ops ADD COLUMN write_continues INTEGER').execute(db);
}
