import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/connection';
import { fixedQuery } from '../../db/queries/compiled';

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
