import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, SchemaTooNewError } from '../../db/connection';
import { openPostgres } from '../../db/postgres/connection';
import { migrations } from '../../db/migrations';
import { translateDdl } from '../../db/postgres/ddl';
import { CHANGE_AREA_TABLES } from '../../db/changeAreas';
import { freshPostgresDatabase, type TestPostgresDatabase } from '../fixtures/postgres';

let dir: string;
const databases: TestPostgresDatabase[] = [];
const fresh = async () => {
  const database = await freshPostgresDatabase('mig');
  databases.push(database);
  return database;
};
beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), 'tourdesk-migpg-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  for (const database of databases.splice(0)) await database.drop();
});

/** Each table's columns, as the two dialects name them. */
async function sqliteColumns(): Promise<Record<string, string[]>> {
  const handle = await openDatabase(join(dir, `cols-${Date.now()}.sqlite`), { migrate: true });
  const tables = handle.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[];
  const out: Record<string, string[]> = {};
  for (const { name } of tables) out[name] = (handle.sqlite.prepare('SELECT name FROM pragma_table_info(?)').all(name) as { name: string }[]).map((c) => c.name).sort();
  await handle.close();
  return out;
}

/** A SQLite view's columns, sorted. */
async function sqliteViewColumns(view: string): Promise<string[]> {
  const handle = await openDatabase(join(dir, `view-${Date.now()}.sqlite`), { migrate: true });
  const columns = (handle.sqlite.prepare('SELECT name FROM pragma_table_info(?)').all(view) as { name: string }[]).map((c) => c.name).sort();
  await handle.close();
  return columns;
}

describe('migrations on PostgreSQL (the one ordered list, translated)', () => {
  it('migrates an empty database to the latest version with the same tables and columns as SQLite', async () => {
    const database = await fresh();
    const handle = await openPostgres(database.url, { migrate: true });
    const version = await sql<{ version: number }>`SELECT version FROM tourdesk_schema`.execute(handle.db);
    expect(version.rows[0].version).toBe(migrations.length);
    const rows = await sql<{ table_name: string; column_name: string }>`
      SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'tourdesk_schema'`.execute(handle.db);
    const pgColumns: Record<string, string[]> = {};
    for (const row of rows.rows) (pgColumns[row.table_name] ??= []).push(row.column_name);
    for (const columns of Object.values(pgColumns)) columns.sort();
    // The one layout that differs on purpose: SQLite keys merge states by numbers (migration
    // 20261205_11, with its two tables of numbers); the PostgreSQL hub keeps them by name and key text.
    // So does the op log (migration 20261206_31): SQLite's sync_op_rows by numbers, with a sync_ops view by name that has the hub's columns.
    const { sync_entities: entities, sync_origins: origins, sync_rows: keyedRows, sync_op_rows: keyedOps, ...shared } = await sqliteColumns();
    expect(keyedOps).toEqual(['arrival', 'change_json', 'change_shape', 'entity', 'hlc', 'k1', 'k2', 'key', 'kind', 'null_columns', 'origin', 'row_state', 'schema', 'seq', 'write_continues']);
    shared.sync_ops = await sqliteViewColumns('sync_ops');
    expect([entities, origins]).toEqual([['key_ints', 'name', 'no'], ['no', 'origin']]);
    expect(keyedRows).toEqual(['born', 'born_at', 'born_by', 'born_count', 'deleted', 'entity', 'erased', 'k1', 'k2', 'key', 'marks', 'shape', 'stamps']);
    // And the hub's origins, one per hub process (migration 20261206_21): a SQLite file has one writer and one origin.
    // The claims of writes that run side by side (migration 20261207_21): SQLite runs its writes one at a time.
    const { sync_rows: namedRows, hub_origins: hubOrigins, tourdesk_claims: claims, ...pgShared } = pgColumns;
    expect(hubOrigins).toEqual(['last_hlc', 'last_seq', 'origin']);
    expect(claims).toEqual(['key', 'n']);
    expect(namedRows).toEqual(['born', 'deleted', 'entity', 'entity_id', 'erased', 'marks', 'shape', 'stamps']);
    expect(pgShared).toEqual(shared);
    await handle.close();
  });

  it('keeps foreign keys (deferrable) and checks, and reads BIGINT ids as numbers up to 2^53-1', async () => {
    const database = await fresh();
    const handle = await openPostgres(database.url, { migrate: true });
    await expect(sql`INSERT INTO resellers (id, name, alias, rate_id, created_at) VALUES (1, 'R', 'r', 999, 0)`.execute(handle.db)).rejects.toMatchObject({ code: '23503' });
    await expect(sql`INSERT INTO api_keys (id, name, role, key_hash, key_prefix, created_at) VALUES (1, 'k', 'nobody', 'h', 'p', 0)`.execute(handle.db)).rejects.toMatchObject({ code: '23514' });
    const big = Number.MAX_SAFE_INTEGER;
    await sql`INSERT INTO customers (id, created_at, updated_at) VALUES (${big}, 0, 0)`.execute(handle.db);
    const row = await handle.db.selectFrom('customers').select('id').executeTakeFirstOrThrow();
    expect(row.id).toBe(big);
    const fks = await sql<{ n: number }>`SELECT count(*) AS n FROM pg_constraint WHERE contype = 'f' AND condeferrable`.execute(handle.db);
    expect(fks.rows[0].n).toBeGreaterThan(20);
    await handle.close();
  });

  it('runs each migration once when two hub processes start together, and is idempotent', async () => {
    const database = await fresh();
    const [a, b] = await Promise.all([openPostgres(database.url, { migrate: true }), openPostgres(database.url, { migrate: true })]);
    await a.db.insertInto('settings').values({ key: 'marker', value: 'kept' }).execute();
    await Promise.all([a.close(), b.close()]);
    const again = await openPostgres(database.url, { migrate: true });
    expect(await again.db.selectFrom('settings').select('value').where('key', '=', 'marker').executeTakeFirst()).toEqual({ value: 'kept' });
    await again.close();
  });

  it('notifies the hub processes on every table an engine cache is made from', async () => {
    const database = await fresh();
    const handle = await openPostgres(database.url, { migrate: true });
    const { rows } = await sql<{ table: string }>`SELECT DISTINCT event_object_table AS table FROM information_schema.triggers WHERE trigger_name LIKE '%_notify_change'`.execute(handle.db);
    const notifying = new Set(rows.map((r) => r.table));
    for (const table of new Set(Object.values(CHANGE_AREA_TABLES).flat())) expect(notifying.has(table), `${table} has no notify trigger: add one in a new migration`).toBe(true);
    await handle.close();
  });

  it('refuses to migrate a database from a newer TourDesk, and opens it read-only otherwise', async () => {
    const database = await fresh();
    const handle = await openPostgres(database.url, { migrate: true });
    await sql`UPDATE tourdesk_schema SET version = ${migrations.length + 1}`.execute(handle.db);
    await handle.close();
    await expect(openPostgres(database.url, { migrate: true })).rejects.toBeInstanceOf(SchemaTooNewError);
    const readOnly = await openPostgres(database.url);
    expect(readOnly.writable).toBe(false);
    await readOnly.close();
  });

  it('translates SQLite DDL: types, identity for INTEGER PRIMARY KEY, byte-order TEXT, foreign keys kept for later', () => {
    const out = translateDdl(`CREATE TABLE t (
      seq INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      rate_id INTEGER REFERENCES rates(id) ON DELETE SET NULL,
      lat REAL,
      CHECK (seq > 0)
    ) STRICT`);
    expect(out.sql).toContain('seq BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY');
    expect(out.sql).toContain('name TEXT COLLATE "C" NOT NULL UNIQUE');
    expect(out.sql).toContain('lat DOUBLE PRECISION');
    expect(out.sql).not.toMatch(/STRICT|REFERENCES/);
    expect(out.foreignKeys).toEqual(['ALTER TABLE t ADD FOREIGN KEY (rate_id) REFERENCES rates(id) ON DELETE SET NULL DEFERRABLE INITIALLY IMMEDIATE']);
  });
});
