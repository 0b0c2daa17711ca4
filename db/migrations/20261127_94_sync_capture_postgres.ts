import type { Kysely } from 'kysely';

/**
 * Sync on the PostgreSQL hub (issue 21): the op capture there (PL/pgSQL triggers, db/syncCapture.ts
 * postgresCaptureStatements, run by this migration's PostgreSQL step in db/postgres/migrations.ts),
 * with the rows already in the hub's database captured as inserts so they become its ops.
 * Nothing changes on SQLite, whose capture triggers migrations 80, 90 and 92 made; the migration is
 * in the one ordered list so both dialects keep one schema version.
 */
export async function up(_db: Kysely<unknown>): Promise<void> {}
