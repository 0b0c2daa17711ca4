import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { preparedOnHub } from '../../db/postgres/prepared';
import { hubForFile } from '../fixtures/postgres';

/**
 * The hub's hot statements are prepared once per connection (db/postgres/prepared.ts): PostgreSQL
 * keeps their plans instead of planning each booking's rules and answer again.
 */
const hub = hubForFile('prepared');

const REGISTERED = preparedOnHub('SELECT $1::int + 1 AS n');

describe('statements prepared on the hub', () => {
  it('go by name on each connection, once, and answer as before; others stay unnamed', async () => {
    await hub.handle.db.connection().execute(async (conn) => {
      const prepared = async () => (await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(conn)).rows;
      expect(await prepared()).toEqual([]);
      for (const n of [1, 2, 3]) expect((await conn.executeQuery<{ n: number }>(CompiledQuery.raw(REGISTERED, [n]))).rows).toEqual([{ n: n + 1 }]);
      expect((await conn.executeQuery<{ n: number }>(CompiledQuery.raw('SELECT $1::int * 2 AS n', [4]))).rows).toEqual([{ n: 8 }]);
      const names = await prepared();
      expect(names).toHaveLength(1);
      expect(names[0].name).toMatch(/^tourdesk_\d+$/);
      expect(names[0].statement).toBe(REGISTERED);
    });
  });
});
