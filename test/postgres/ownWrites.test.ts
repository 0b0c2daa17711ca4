import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../db/connection';
import { openPostgres } from '../../db/postgres/connection';
import { inWriteTransaction } from '../../db/transaction';
import { freshPostgresDatabase, type TestPostgresDatabase } from '../fixtures/postgres';

/**
 * A hub process's caches see its own commits at once: they must not wait for the commit's NOTIFY
 * to come back round (a GET right after a PUT answered the old product on PostgreSQL in CI).
 */
let database: TestPostgresDatabase;
let handle: DbHandle;
beforeAll(async () => {
  database = await freshPostgresDatabase('own');
  handle = await openPostgres(database.url, { migrate: true });
});
afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

describe('change tokens on the PostgreSQL hub', () => {
  it('move the moment this process commits a write, before any notification could arrive', async () => {
    const token = handle.postgres!.areaToken();
    for (let i = 0; i < 200 && token('products').startsWith('down:'); i++) await new Promise((r) => setTimeout(r, 25));
    expect(token('products')).not.toMatch(/^down:/);
    const before = token('products');
    expect(token('products')).toBe(before); // steady while nothing is written
    // A committed write that touches no table sends no NOTIFY at all: only the process's own bookkeeping can move the token.
    await inWriteTransaction(handle.db, async (conn) => void (await sql`SELECT 1`.execute(conn)));
    expect(token('products')).not.toBe(before);
    // A rolled-back one (a quote) changes nothing and moves nothing.
    const after = token('products');
    await inWriteTransaction(handle.db, async (conn) => void (await sql`SELECT 1`.execute(conn)), { dryRun: true });
    expect(token('products')).toBe(after);
  });
});
