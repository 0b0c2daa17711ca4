import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Database } from '../schema';
import type { DbHandle, OpenOptions } from '../connection';
import { SchemaTooNewError } from '../connection';
import { migrations } from '../migrations';
import { migratePostgres, schemaVersion } from './migrate';
import { PostgresSpellings } from './spellings';
import { postgresChangeToken, touchedTables } from './changes';
import { setPostgresAfterCommit } from './transaction';
import { nameRegisteredStatements } from './prepared';

/** pg's type ids: int8 (count(*), BIGINT columns) and numeric (sum of BIGINT). */
const INT8 = 20;
const NUMERIC = 1700;

/**
 * BIGINT and NUMERIC arrive from pg as strings (they may exceed 2^53). Every integer TourDesk stores
 * is at most 2^53-1 (ids, minor units, epoch ms), so they are read as numbers, exactly as SQLite
 * returns them; one that is not safe is an error, never a silently rounded number.
 */
function toSafeNumber(text: string): number {
  const value = Number(text);
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) throw new Error(`A database integer (${text}) is beyond 2^53-1`);
  return value;
}
const types = {
  getTypeParser(id: number, format?: 'text' | 'binary') {
    if (id === INT8 || id === NUMERIC) return toSafeNumber;
    return pg.types.getTypeParser(id, format);
  },
} as pg.CustomTypesConfig;

export interface PostgresOpenOptions extends OpenOptions {
  /** Connections this process keeps (each write transaction holds one while it runs). */
  poolSize?: number;
}

/**
 * The hub's engine on PostgreSQL (`tourdesk serve --database postgres://…`): the same Kysely
 * queries through PostgresDialect over a pg Pool. Several hub processes may share the database;
 * each write is one REPEATABLE READ transaction, in turn or (a create) side by side, retried on a serialization failure (db/postgres/transaction.ts).
 */
export async function openPostgres(url: string, options: PostgresOpenOptions = {}): Promise<DbHandle> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types, application_name: 'tourdesk' });
  // An idle client losing its server (a restart) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  pool.on('connect', nameRegisteredStatements);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new PostgresSpellings()] });
  try {
    const found = await schemaVersion(db);
    let writable = true;
    if (found > migrations.length) {
      writable = false;
      if (options.migrate) throw new SchemaTooNewError(found, migrations.length);
    } else if (options.migrate) {
      await migratePostgres(db, migrations);
    }
    // The replica needs its origin (and the hub it follows) before its first await (main/sync/replica.ts).
    const hasSync = (await sql<{ t: string | null }>`SELECT to_regclass('sync_instance')::text AS t`.execute(db)).rows[0].t !== null;
    const syncRow = hasSync ? (await sql<{ origin: string; hub_origin: string | null }>`SELECT origin, hub_origin FROM sync_instance WHERE id = 1`.execute(db)).rows[0] : undefined;
    const syncInstance = syncRow ? { origin: syncRow.origin, hubOrigin: syncRow.hub_origin } : null;
    let changes: ReturnType<typeof postgresChangeToken> | null = null;
    setPostgresAfterCommit(db, (conn) => changes?.wrote(touchedTables(conn)));
    return {
      dialect: 'postgres',
      db,
      get sqlite(): never {
        throw new Error('A SQLite-only path was reached on the PostgreSQL hub (handle.sqlite)');
      },
      postgres: {
        pool,
        url,
        // One LISTEN connection per process, made when a cache first asks.
        areaToken: () => (changes ??= postgresChangeToken(url)).token,
        syncInstance,
      },
      writable,
      async close() {
        await changes?.close();
        await db.destroy();
      },
    };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
