import { sql, type Kysely } from 'kysely';

/**
 * `sync_instances.forgotten_at`: when an operator told this instance to forget another (`tourdesk
 * peer forget`, a desk that will not come back), in ms. A forgotten instance no longer shows among
 * those that sync here; its row stays, so its number stays taken (the ids it issued are here) and a
 * new desk cannot take it. Its next exchange clears the mark.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE sync_instances ADD COLUMN forgotten_at INTEGER').execute(db);
}
