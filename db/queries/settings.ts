import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../schema';

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

/** The same setting through Kysely (the hub on PostgreSQL, where there is no synchronous connection). */
export async function findSetting(db: Kysely<Database>, key: string): Promise<string | null> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row ? row.value : null;
}

/** Sets it unless set: two hub processes starting together agree on the first one's value. */
export async function insertSettingIfAbsent(db: Kysely<Database>, key: string, value: string): Promise<string> {
  await db.insertInto('settings').values({ key, value }).onConflict((oc) => oc.column('key').doNothing()).execute();
  return (await findSetting(db, key))!;
}
