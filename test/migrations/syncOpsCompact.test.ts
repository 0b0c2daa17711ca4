import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/connection';
import { migrationFixture } from '../fixtures/migrations';
import { migrations } from '../../db/migrations';
import { sqliteSyncStore } from '../../db/queries/sync';

const { databaseBefore } = migrationFixture('compact');

const OWN = '001894665600000-000000-AAAA';
const RELAYED = '001894665600500-000001-BBBB';

describe('20261129_99_sync_ops_compact', () => {
  it('keeps every stored op readable as it was, stores stamps without their own origin, and writes new changes as value arrays', async () => {
    const file = await databaseBefore('20261129_99_sync_ops_compact');
    const old = new BetterSqlite3(file);
    const insert = old.prepare('INSERT INTO sync_ops (origin, seq, hlc, entity, entity_id, kind, change_json, schema, row_state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    insert.run('AAAA', 1, OWN, 'customers', '[1001]', 'insert', '{"id":1001,"first_name":"Ada","created_at":5}', 14, 1);
    insert.run('AAAA', 2, RELAYED, 'customers', '[1001]', 'update', '{"first_name":"Augusta"}', 14, null); // a stamp naming another origin stays whole
    insert.run('AAAA', 3, '001894665600001-000000-AAAA', 'bookings', '["B1-1"]', 'insert', '{"order_number":"B1-1","customer_id":1001}', 14, null);
    old.close();

    const handle = await openDatabase(file, { migrate: true });
    expect(handle.sqlite.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(handle.sqlite.prepare('SELECT hlc FROM sync_ops ORDER BY seq').all()).toEqual([{ hlc: '001894665600000-000000' }, { hlc: RELAYED }, { hlc: '001894665600001-000000' }]);
    const q = sqliteSyncStore(handle.sqlite);
    q.beginWork();
    const rows = q.opsAfter(0, 10);
    expect(rows.map((r) => r.hlc)).toEqual([OWN, RELAYED, '001894665600001-000000-AAAA']);
    expect(rows.map((r) => q.changeOf(r))).toEqual([{ id: 1001, first_name: 'Ada', created_at: 5 }, { first_name: 'Augusta' }, { order_number: 'B1-1', customer_id: 1001 }]);
    expect(q.rowState('customers', '[1001]')).toEqual({ clocks: { id: OWN, first_name: OWN, created_at: OWN }, born: OWN, deleted: null, erased: null });
    expect(q.bookingsOfCustomer(1001)).toEqual(['B1-1']);

    // Erasure rewrites an old op in the new form; it reads back the same.
    q.rewriteChange(rows[0].arrival, { id: 1001, first_name: null, created_at: 5 }, 'customers');
    expect(handle.sqlite.prepare('SELECT change_json FROM sync_ops WHERE seq = 1').get()).toEqual({ change_json: '[1001,5]' });
    expect(q.changeOf(q.opsAfter(0, 1)[0])).toEqual({ id: 1001, created_at: 5, first_name: null });
    await handle.close();
  });
});
