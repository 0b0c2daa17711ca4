import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/connection';
import { fixedInsert, fixedListQuery, fixedQuery, LIST_SHAPES_KEPT } from '../../db/queries/compiled';

let dir: string;
let handle: DbHandle;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tourdesk-fixed-'));
  handle = await openDatabase(join(dir, 'db.sqlite'), { migrate: true });
  const insert = handle.sqlite.prepare("INSERT INTO resellers (id, name, alias, rate_id, created_at) VALUES (?, ?, ?, NULL, ?)");
  insert.run(1001, 'Alpha', 'alpha', 10);
  insert.run(2001, 'Beta', 'beta', 20);
  insert.run(3001, 'Gamma', 'gamma', 30);
});
afterAll(async () => {
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

const between = fixedQuery((db, from: number, to: number) =>
  db.selectFrom('resellers').select(['id', 'name']).where('created_at', '>=', from).where('created_at', '<=', to).orderBy('created_at').limit(2),
);
const named = fixedQuery((db, name: string) => db.selectFrom('resellers').select('id').where('name', '=', name));

describe('fixedQuery (a query compiled once, run with new arguments)', () => {
  it('puts each argument in its place and keeps the constants compiled in (the limit)', async () => {
    expect(await between(handle.db, 10, 30)).toEqual([
      { id: 1001, name: 'Alpha' },
      { id: 2001, name: 'Beta' },
    ]);
    expect(await between(handle.db, 20, 30)).toEqual([
      { id: 2001, name: 'Beta' },
      { id: 3001, name: 'Gamma' },
    ]);
    expect(await named(handle.db, 'Gamma')).toEqual([{ id: 3001 }]);
    expect(await named(handle.db, 'Nobody')).toEqual([]);
  });

  it("runs inside the caller's transaction when given its connection", async () => {
    await handle.db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      await conn.insertInto('resellers').values({ id: 4001, name: 'Delta', alias: 'delta', rate_id: null, created_at: 40 }).execute();
      expect(await named(conn, 'Delta')).toEqual([{ id: 4001 }]);
      await sql`rollback`.execute(conn);
    });
    expect(await named(handle.db, 'Delta')).toEqual([]);
  });

  it('refuses, when defined, an argument the query never uses', () => {
    expect(() => fixedQuery((db, _unused: string) => db.selectFrom('resellers').select('id'))).toThrow(/argument 0/);
  });
});

const namedAmong = fixedListQuery((db, names: readonly string[]) => db.selectFrom('resellers').select(['id', 'name']).where('name', 'in', names).orderBy('id'));

describe('fixedListQuery (an `in` list query compiled once per list length)', () => {
  it('binds each value of each list, whatever lists of the same length came before', async () => {
    expect(await namedAmong(handle.db, ['Alpha'])).toEqual([{ id: 1001, name: 'Alpha' }]);
    expect(await namedAmong(handle.db, ['Beta'])).toEqual([{ id: 2001, name: 'Beta' }]);
    expect(await namedAmong(handle.db, ['Gamma', 'Alpha'])).toEqual([
      { id: 1001, name: 'Alpha' },
      { id: 3001, name: 'Gamma' },
    ]);
    expect(await namedAmong(handle.db, ['Beta', 'Nobody'])).toEqual([{ id: 2001, name: 'Beta' }]);
  });

  it('answers an empty list and a list longer than the shapes it keeps as the query builder does', async () => {
    expect(await namedAmong(handle.db, [])).toEqual([]);
    const long = [...Array.from({ length: LIST_SHAPES_KEPT }, (_, i) => `Nobody ${i}`), 'Gamma', 'Beta'];
    expect(await namedAmong(handle.db, long)).toEqual([
      { id: 2001, name: 'Beta' },
      { id: 3001, name: 'Gamma' },
    ]);
  });

  it("runs inside the caller's transaction when given its connection", async () => {
    await handle.db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      await conn.insertInto('resellers').values({ id: 4101, name: 'Omicron', alias: 'omicron', rate_id: null, created_at: 41 }).execute();
      expect(await namedAmong(conn, ['Omicron', 'Alpha'])).toEqual([
        { id: 1001, name: 'Alpha' },
        { id: 4101, name: 'Omicron' },
      ]);
      await sql`rollback`.execute(conn);
    });
    expect(await namedAmong(handle.db, ['Omicron'])).toEqual([]);
  });

  it('refuses a query that leaves a value of the list out', async () => {
    const firstOnly = fixedListQuery((db, names: readonly string[]) => db.selectFrom('resellers').select('id').where('name', '=', names[0]));
    await expect(firstOnly(handle.db, ['Alpha', 'Beta'])).rejects.toThrow(/value 1 of the list/);
  });
});

const insertResellers = fixedInsert('resellers');
const resellersFrom = (id: number) => handle.sqlite.prepare('SELECT id, name, alias, rate_id, created_at FROM resellers WHERE id >= ? ORDER BY id').all(id);

describe('fixedInsert (an insert compiled once per shape)', () => {
  it('writes one row or several, each value in its column, whatever order the keys come in', async () => {
    await insertResellers(handle.db, [{ id: 5001, name: 'Epsilon', alias: 'epsilon', rate_id: null, created_at: 50 }]);
    await insertResellers(handle.db, [
      { id: 6001, name: 'Zeta', alias: 'zeta', rate_id: null, created_at: 60 },
      { created_at: 70, alias: 'eta', name: 'Eta', rate_id: null, id: 7001 },
    ]);
    await insertResellers(handle.db, [{ id: 8001, name: 'Theta', alias: 'theta', rate_id: null, created_at: 80 }]);
    expect(resellersFrom(5001)).toEqual([
      { id: 5001, name: 'Epsilon', alias: 'epsilon', rate_id: null, created_at: 50 },
      { id: 6001, name: 'Zeta', alias: 'zeta', rate_id: null, created_at: 60 },
      { id: 7001, name: 'Eta', alias: 'eta', rate_id: null, created_at: 70 },
      { id: 8001, name: 'Theta', alias: 'theta', rate_id: null, created_at: 80 },
    ]);
  });

  it('means what the query builder means: an undefined column is left out, rows with different columns still go in, nothing for no rows', async () => {
    await insertResellers(handle.db, []);
    await insertResellers(handle.db, [{ id: 9001, name: 'Iota', alias: 'iota', rate_id: undefined, created_at: 90 }]);
    await insertResellers(handle.db, [
      { id: 9101, name: 'Kappa', alias: 'kappa', created_at: 91 },
      { id: 9201, name: 'Lambda', alias: 'lambda', rate_id: null, created_at: 92 },
    ]);
    expect(resellersFrom(9001)).toEqual([
      { id: 9001, name: 'Iota', alias: 'iota', rate_id: null, created_at: 90 },
      { id: 9101, name: 'Kappa', alias: 'kappa', rate_id: null, created_at: 91 },
      { id: 9201, name: 'Lambda', alias: 'lambda', rate_id: null, created_at: 92 },
    ]);
  });

  it("runs inside the caller's transaction and fails as the statement does", async () => {
    await handle.db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      await insertResellers(conn, [{ id: 9301, name: 'Mu', alias: 'mu', rate_id: null, created_at: 93 }]);
      await expect(insertResellers(conn, [{ id: 9401, name: 'Mu again', alias: 'mu', rate_id: null, created_at: 94 }])).rejects.toThrow(/UNIQUE/);
      await sql`rollback`.execute(conn);
    });
    expect(resellersFrom(9301)).toEqual([]);
  });
});
