import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, SchemaTooNewError } from '../../db/connection';
import { migrations } from '../../db/migrations';
import { createEngine } from '../../main/engine';
import { SYSTEM_ACTOR } from '../../main/domain/context';

const dirs: string[] = [];
const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-mig-'));
  dirs.push(dir);
  return join(dir, 'db.sqlite');
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('migrations', () => {
  it('migrates an empty database to the latest version, with WAL, foreign keys and STRICT tables', async () => {
    const handle = await openDatabase(tempFile(), { migrate: true });
    expect(handle.sqlite.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(handle.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(handle.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(handle.sqlite.pragma('synchronous', { simple: true })).toBe(2);
    const tables = handle.sqlite.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string; sql: string }[];
    expect(tables.length).toBeGreaterThan(20);
    for (const table of tables) expect(table.sql, table.name).toMatch(/STRICT\s*$/);
    await handle.close();
  });

  it('is idempotent: opening again applies nothing and keeps the data', async () => {
    const file = tempFile();
    const first = await openDatabase(file, { migrate: true });
    first.sqlite.prepare("INSERT INTO settings (key, value) VALUES ('marker', 'kept')").run();
    await first.close();
    const second = await openDatabase(file, { migrate: true });
    expect(second.sqlite.prepare("SELECT value FROM settings WHERE key = 'marker'").get()).toEqual({ value: 'kept' });
    expect(second.sqlite.pragma('user_version', { simple: true })).toBe(migrations.length);
    await second.close();
  });

  it('refuses to migrate a database from a newer TourDesk, and opens it read-only otherwise', async () => {
    const file = tempFile();
    await (await openDatabase(file, { migrate: true })).close();
    const raw = new BetterSqlite3(file);
    raw.pragma(`user_version = ${migrations.length + 1}`);
    raw.close();
    await expect(openDatabase(file, { migrate: true })).rejects.toBeInstanceOf(SchemaTooNewError);
    const handle = await openDatabase(file);
    expect(handle.writable).toBe(false);
    const engine = createEngine({ db: handle, config: { dataDir: null, instanceNo: 1 } });
    await expect(engine.companies.configure({ companyName: 'X', currency: 'USD', timezone: 'UTC' }, SYSTEM_ACTOR)).rejects.toMatchObject({ code: 'READ_ONLY' });
    await handle.close();
  });

  it('names every migration YYYYMMDD_NN_name, in order, without duplicates', () => {
    const names = migrations.map((m) => m.name);
    for (const name of names) expect(name).toMatch(/^\d{8}_\d{2}_[a-z0-9_]+$/);
    expect([...names].sort()).toEqual(names);
    expect(new Set(names).size).toBe(names.length);
  });
});
