import type BetterSqlite3 from 'better-sqlite3';
import type { DbHandle } from '../connection';
import { CHANGE_AREAS, type ChangeArea } from '../changeAreas';

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

/**
 * What other processes had committed when a caller started looking (SQLite's `data_version`, read
 * once). A request takes one at its key check and hands it to each cache it asks (key, product,
 * voucher page): one read of the PRAGMA (a shared-memory lock, ~6 µs and more under load) per
 * request instead of one per cache. Its answers then hold as of that instant, which lies inside the
 * request. This connection's own writes are still counted live, and a check inside a transaction
 * always reads afresh (the transaction's snapshot may be newer than the observation).
 */
export interface ChangeObservation {
  readonly dataVersion: number;
}

/** An area's token; `seen`, when given, stands for a fresh read of what other processes committed. */
export type AreaToken = (area: ChangeArea, seen?: ChangeObservation) => string;

const areaTokens = new WeakMap<BetterSqlite3.Database, AreaToken>();
const dataVersions = new WeakMap<BetterSqlite3.Database, () => number>();

/**
 * A change token per area, for caches of what rarely changes (keys, the company, products) that
 * must stay valid while bookings and scans write all the time (the whole-database `changeToken`
 * moves on every write). This connection's writes to an area's tables are counted by TEMP
 * triggers (they live in this connection only, are no part of the file's schema and fire for
 * every statement on it, whichever code path wrote: a service, a sync apply, a migration-free
 * import); another process's commits move `data_version`. A rolled-back write still counts: a
 * cache reloads once for nothing, never serves a stale row. Read the token before loading what
 * it guards. SQLite only; a PostgreSQL hub needs its own (e.g. LISTEN/NOTIFY or a counter row).
 */
export function areaChangeToken(sqlite: BetterSqlite3.Database): AreaToken {
  const existing = areaTokens.get(sqlite);
  if (existing) return existing;
  const counters: Record<string, number> = Object.fromEntries(Object.keys(CHANGE_AREAS).map((a) => [a, 0]));
  sqlite.function('tourdesk_area_changed', { varargs: true, deterministic: false }, (...areas: unknown[]) => {
    for (const area of areas) counters[area as string]++;
    return null;
  });
  const tables = new Map<string, { areas: string[]; columns: string[] | null }>();
  for (const [area, of] of Object.entries(CHANGE_AREAS) as [string, Record<string, readonly string[] | null>][]) {
    for (const [table, columns] of Object.entries(of)) {
      const entry = tables.get(table) ?? { areas: [], columns: [] };
      entry.areas.push(area);
      // A table watched whole by one area is watched whole.
      entry.columns = columns === null || entry.columns === null ? null : [...entry.columns, ...columns];
      tables.set(table, entry);
    }
  }
  const exists = sqlite.prepare<[string], number>("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck();
  for (const [table, { areas, columns }] of tables) {
    if (!exists.get(table)) continue; // an old file opened without migrating: this build writes no such table
    const call = `SELECT tourdesk_area_changed(${areas.map((a) => `'${a}'`).join(', ')});`;
    const update = columns === null ? 'UPDATE' : `UPDATE OF ${columns.map((c) => `"${c}"`).join(', ')}`;
    for (const [event, when] of [['insert', 'INSERT'], ['update', update], ['delete', 'DELETE']]) {
      sqlite.exec(`CREATE TEMP TRIGGER IF NOT EXISTS tourdesk_cache_${table}_${event} AFTER ${when} ON main.${table} BEGIN ${call} END`);
    }
  }
  // The PRAGMA itself: half the cost of the pragma_data_version table function (~6 µs a call here).
  const version = sqlite.prepare('PRAGMA data_version').pluck();
  const dataVersion = () => version.get() as number;
  const token: AreaToken = (area, seen) => `${seen !== undefined && !sqlite.inTransaction ? seen.dataVersion : dataVersion()}:${counters[area]}`;
  areaTokens.set(sqlite, token);
  dataVersions.set(sqlite, dataVersion);
  return token;
}

/** A fresh observation of other processes' commits (see ChangeObservation); none on PostgreSQL, whose tokens need none. */
export function observeChanges(handle: DbHandle): ChangeObservation | undefined {
  if (handle.dialect === 'postgres') return undefined;
  areaChangeToken(handle.sqlite);
  return { dataVersion: dataVersions.get(handle.sqlite)!() };
}

/**
 * The change tokens of either dialect. On the PostgreSQL hub an area's token moves with the
 * notifications every hub process's commits send (db/postgres/changes.ts); the whole-database
 * token is new on every call there (nothing is cached on it: PostgreSQL has no cheap counter of
 * every commit).
 */
export function areaChangeTokenOf(handle: DbHandle): AreaToken {
  return handle.dialect === 'postgres' ? handle.postgres!.areaToken() : areaChangeToken(handle.sqlite);
}

export function changeTokenOf(handle: DbHandle): () => string {
  if (handle.dialect !== 'postgres') return changeToken(handle.sqlite);
  let unique = 0;
  return () => `uncached:${unique++}`;
}

/** Whether `db` is a transaction's connection rather than the handle's own (caches keep only reads made outside one). */
export function readsInTransaction(handle: DbHandle, db: unknown): boolean {
  return handle.dialect === 'postgres' ? db !== handle.db : handle.sqlite.inTransaction;
}
