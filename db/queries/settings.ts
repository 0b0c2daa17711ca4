import type BetterSqlite3 from 'better-sqlite3';

/**
 * Settings of the data folder itself (its instance number), read at start-up before the engine
 * exists, so synchronous on the raw connection.
 */
export function readSetting(sqlite: BetterSqlite3.Database, key: string): string | null {
  const row = sqlite.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(key);
  return row ? row.value : null;
}

export function insertSetting(sqlite: BetterSqlite3.Database, key: string, value: string): void {
  sqlite.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(key, value);
}
