import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/connection';
import { pageReader } from '../../db/queries/pages';

let dir: string;
let handle: DbHandle;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tourdesk-pages-'));
  handle = await openDatabase(join(dir, 'db.sqlite'), { migrate: true });
  const insert = handle.sqlite.prepare("INSERT INTO vouchers (code, value_type, value_minor, value_percent, currency, issue_at, internal_notes, created_at, updated_at) VALUES (?, ?, ?, ?, 'AUD', ?, ?, 0, 0)");
  insert.run('AAA111', 'VALUE', 5000, null, 10, 'first');
  insert.run('BBB222', 'PERCENT', null, 12.5, 20, null);
  insert.run('CCC333', 'VALUE', 100, null, 20, 'ünïcode ✓');
});
afterAll(async () => {
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

const page = (limit: number) => handle.db.selectFrom('vouchers').select(['code', 'value_type', 'value_minor', 'value_percent', 'internal_notes', 'issue_at']).orderBy('issue_at', 'desc').orderBy('code').limit(limit);

describe('pageReader (a page read as arrays, cells named in JS)', () => {
  it("answers exactly the rows Kysely's execute answers, in order, with nulls, reals and text intact", async () => {
    const readPage = pageReader(handle);
    const expected = await page(10).execute();
    expect(expected).toHaveLength(3);
    expect(await readPage(page(10))).toEqual(expected);
    expect(await readPage(page(2))).toEqual(expected.slice(0, 2));
    expect(await readPage(handle.db.selectFrom('vouchers').selectAll().where('code', '=', 'nothing'))).toEqual([]);
  });

  it('waits for a transaction holding the connection instead of reading its uncommitted rows', async () => {
    const readPage = pageReader(handle);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const didInsert = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = handle.db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      await conn.insertInto('vouchers').values({ code: 'ZZZ999', value_type: 'VALUE', value_minor: 1, value_percent: null, currency: 'AUD', product_code: null, category_id: null, issue_at: 99, expiry_at: null, source_order: null, internal_notes: null, internal_reference: null, created_at: 0, updated_at: 0 }).execute();
      inserted();
      await held;
      await sql`rollback`.execute(conn);
    });
    await didInsert;
    const reading = readPage(page(10));
    release();
    await transaction;
    expect((await reading).map((r) => r.code)).toEqual(['BBB222', 'CCC333', 'AAA111']);
  });
});
