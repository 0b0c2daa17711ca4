import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import type { Pool } from 'pg';
import type { Database } from './schema';
import type { Dialect } from './dialect';
import type { ChangeArea } from './changeAreas';
import { migrations } from './migrations';
import { startCheckpointer } from './checkpointer';
import { registerStatements } from './heldConnection';

export interface DbHandle {
  /** 'sqlite' for a data folder's file (every desk); 'postgres' for an office hub on PostgreSQL (db/postgres/connection.ts). */
  dialect: Dialect;
  /** The Kysely instance every query goes through. */
  db: Kysely<Database>;
  /** The one better-sqlite3 connection under it, shared with the few raw prepared statements (SQLite only: throws on PostgreSQL). */
  sqlite: BetterSqlite3.Database;
  /** The PostgreSQL pool and URL (PostgreSQL only). */
  postgres?: {
    pool: Pool;
    url: string;
    areaToken(): (area: ChangeArea) => string;
    /** This instance's sync identity, read when the database was opened (null before sync's tables exist). */
    syncInstance: { origin: string; hubOrigin: string | null } | null;
  };
  /** False when the file carries a newer schema than this build knows: reads only. */
  writable: boolean;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Run pending migrations (only the server does). */
  migrate?: boolean;
  /** Checkpoint the WAL from a background thread, not inside a request's commit (the server does: db/checkpointer.ts). */
  checkpointInBackground?: boolean;
}

export class SchemaTooNewError extends Error {
  constructor(found: number, known: number) {
    super(`The database schema (version ${found}) is newer than this TourDesk build knows (${known}); upgrade TourDesk.`);
  }
}

/** How many prepared statements Kysely's connection keeps (distinct SQL texts; `in (?, ?, …)` lists make more). */
export const STATEMENT_CACHE_SIZE = 1000;

/**
 * The better-sqlite3 Database as Kysely's dialect sees it, with each SQL text prepared once.
 * Kysely's SqliteDriver prepares every query anew, and preparing costs more than running a small
 * indexed SELECT; a statement is reusable (better-sqlite3 resets it after all()/run()), and SQLite
 * re-prepares it by itself when the schema changes. Least recently used texts are dropped first.
 */
export function cachingStatements(sqlite: BetterSqlite3.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = cache.get(text);
      if (statement) {
        // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
        cache.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (cache.size >= size) cache.delete(cache.keys().next().value!);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

/** Opens (and creates) a SQLite file with the pragmas TourDesk relies on. */
export async function openDatabase(file: string, options: OpenOptions = {}): Promise<DbHandle> {
  // Private from the first byte: SQLite gives the WAL and shared-memory files the database file's mode.
  if (file !== ':memory:') {
    if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
    if (process.platform !== 'win32') chmodSync(file, 0o600);
  }
  const sqlite = new BetterSqlite3(file);
  // WAL lets readers run beside the writer; FULL makes an acknowledged sale survive a power cut.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // An erased customer's data must not outlive its rows in the file's free space (docs/sync.md, "Erasure").
  sqlite.pragma('secure_delete = ON');
  const statements = cachingStatements(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  registerStatements(db, statements);

  const found = sqlite.pragma('user_version', { simple: true }) as number;
  let writable = true;
  if (found > migrations.length) {
    writable = false;
    if (options.migrate) {
      await db.destroy();
      throw new SchemaTooNewError(found, migrations.length);
    }
  } else if (options.migrate) {
    await migrate(db, sqlite);
  }

  const checkpointer = options.checkpointInBackground && file !== ':memory:' && writable ? startCheckpointer(sqlite, file) : null;

  return {
    dialect: 'sqlite',
    db,
    sqlite,
    writable,
    async close() {
      await checkpointer?.stop();
      // A checkpoint folds the WAL back into the main file so a copied data folder is complete.
      try {
        sqlite.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        /* closing anyway */
      }
      await db.destroy();
    },
  };
}

/** Applies the migrations the file has not seen yet, each in its own IMMEDIATE transaction. */
export async function migrate(db: Kysely<Database>, sqlite: BetterSqlite3.Database): Promise<number> {
  let applied = 0;
  for (;;) {
    const version = sqlite.pragma('user_version', { simple: true }) as number;
    if (version >= migrations.length) return applied;
    const migration = migrations[version];
    await db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      try {
        // Another process may have migrated while we waited for the lock.
        const now = sqlite.pragma('user_version', { simple: true }) as number;
        if (now === version) {
          await migration.up(conn as unknown as Kysely<unknown>);
          await sql.raw(`pragma user_version = ${version + 1}`).execute(conn);
          applied++;
        }
        await sql`commit`.execute(conn);
      } catch (error) {
        await sql`rollback`.execute(conn);
        throw error;
      }
    });
  }
}
