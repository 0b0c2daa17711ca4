import type BetterSqlite3 from 'better-sqlite3';
import type { DbHandle } from '../connection';

/**
 * A token that changes whenever the database may have changed: SQLite's `data_version` moves when
 * another connection (another process: a CLI command while `serve` runs) commits, `total_changes()`
 * when this connection writes. A cache kept beside a token it read before loading is fresh while the
 * token is the same. One prepared statement, no lock (a read of two counters), so it is cheap enough
 * to ask before every use of a cache.
 */
export function changeToken(sqlite: BetterSqlite3.Database): () => string {
  const statement = sqlite.prepare('SELECT data_version AS version, total_changes() AS changes FROM pragma_data_version');
  return () => {
    const row = statement.get() as { version: number; changes: number };
    return `${row.version}:${row.changes}`;
  };
}

/** The change token of either dialect: on the PostgreSQL hub, notifications from every hub process (db/postgres/changes.ts). */
export function changeTokenOf(handle: DbHandle): () => string {
  return handle.dialect === 'postgres' ? handle.postgres!.changeToken() : changeToken(handle.sqlite);
}
