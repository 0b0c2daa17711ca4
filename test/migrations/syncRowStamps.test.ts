import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/connection';
import { migrationFixture } from '../fixtures/migrations';
import { migrations } from '../../db/migrations';
import { sqliteSyncStore } from '../../db/queries/sync';

const { databaseBefore } = migrationFixture('stamps');

const A = '001894665600000-000000-AAAA';
const B = '001894665600999-000002-BBBB';

describe('20261126_92_sync_row_stamps', () => {
  it('keeps every merge state, from both older formats, and the capture triggers still record local writes', async () => {
    const file = await databaseBefore('20261126_92_sync_row_stamps');
    const old = new BetterSqlite3(file);
    const insert = old.prepare('INSERT INTO sync_rows (entity, entity_id, clocks_json, born, deleted, erased) VALUES (?, ?, ?, ?, ?, ?)');
    insert.run('customers', '[1]', JSON.stringify({ id: A, email: B }), A, null, null); // the first format: column -> stamp
    insert.run('customers', '[2]', JSON.stringify({ _s: [A, B], _c: { id: 0, email: 1, phone: 0 } }), A, B, B); // stamps packed once
    insert.run('bookings', '["B1-1"]', JSON.stringify({ _s: [A], _c: { order_number: 0, status: 0 } }), A, null, null);
    insert.run('customers', '[3]', JSON.stringify({ 'odd,name': A }), A, null, null);
    old.close();

    const handle = await openDatabase(file, { migrate: true });
    expect(handle.sqlite.pragma('user_version', { simple: true })).toBe(migrations.length);
    const q = sqliteSyncStore(handle.sqlite);
    q.beginWork();
    expect(q.rowState('customers', '[1]')).toEqual({ clocks: { id: A, email: B }, born: A, deleted: null, erased: null });
    expect(q.rowState('customers', '[2]')).toEqual({ clocks: { id: A, email: B, phone: A }, born: A, deleted: B, erased: B });
    expect(q.rowState('bookings', '["B1-1"]')).toEqual({ clocks: { order_number: A, status: A }, born: A, deleted: null, erased: null });
    expect(q.rowState('customers', '[3]')).toEqual({ clocks: { 'odd,name': A }, born: A, deleted: null, erased: null });

    handle.sqlite.prepare("INSERT INTO customers (id, first_name, created_at, updated_at) VALUES (7001, 'Ada', 0, 0)").run();
    expect(q.captures().map((c) => [c.tbl, c.pk])).toEqual([['customers', '[7001]']]);
    await handle.close();
  });
});
