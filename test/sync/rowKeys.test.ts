import { describe, expect, it } from 'vitest';
import { sqliteSyncStore } from '../../db/queries/sync';
import { migratedDatabases } from '../fixtures/migrations';
import { keyColumnsSql } from '../../db/queries/sync/rowKeys';
import { stateOpsIn } from '../../db/queries/syncCompaction';

const { aDatabase } = migratedDatabases('row-keys');
const A = '001894665600000-000000-AAAA';
const B = '001894665600999-000002-BBBB';
const state = (born: string) => ({ clocks: { id: born }, born, deleted: null, erased: null });

describe('merge states keyed by numbers (SQLite)', () => {
  it('keeps an integer key in integer columns and the insert stamp as numbers: a state is a few dozen bytes', async () => {
    const { sqlite } = await aDatabase();
    const q = sqliteSyncStore(sqlite);
    q.beginWork();
    for (let id = 100_000; id < 101_000; id++) q.saveRowState('booking_item_quantities', JSON.stringify([id, id % 3]), state(A));
    const row = sqlite.prepare("SELECT typeof(k1) AS k1, typeof(k2) AS k2, key, typeof(born_at) AS born_at, born FROM sync_rows LIMIT 1").get();
    expect(row).toEqual({ k1: 'integer', k2: 'integer', key: '', born_at: 'integer', born: null });
    const bytes = sqlite.prepare("SELECT sum(pgsize) AS b FROM dbstat WHERE name = 'sync_rows'").pluck().get() as number;
    // Migration 92's layout held such a state in ~80 bytes (the key and the stamp as text).
    expect(bytes / 1000).toBeLessThan(40);
    expect(q.rowState('booking_item_quantities', '[100002,0]')).toEqual(state(A));
    expect(q.rowState('booking_item_quantities', '[100002,1]')).toBeNull();
  });

  it('forgets a number its rolled-back transaction gave, so the next name that takes it is read right', async () => {
    const { sqlite } = await aDatabase();
    const q = sqliteSyncStore(sqlite);
    q.beginWork();
    sqlite.exec('BEGIN');
    q.saveRowState('gizmos', '[1]', state(A)); // a new entity and a new origin, numbered in this transaction
    sqlite.exec('ROLLBACK');
    q.beginWork();
    sqlite.exec('BEGIN');
    q.saveRowState('widgets', '[1]', state(B)); // takes the number gizmos had
    sqlite.exec('COMMIT');
    q.beginWork();
    expect(q.rowState('gizmos', '[1]')).toBeNull();
    expect(q.rowState('widgets', '[1]')).toEqual(state(B));
    expect(sqlite.prepare('SELECT entity, entity_id, born FROM sync_row_names').all()).toEqual([{ entity: 'widgets', entity_id: '[1]', born: B }]);
  });

  it('keys an id the same in SQL (compaction, the migration) as in the store, odd ids too', async () => {
    const { sqlite } = await aDatabase();
    const q = sqliteSyncStore(sqlite);
    q.beginWork();
    const ids: [string, string][] = [
      ['customers', '[12]'], ['customers', '[-3]'], ['customers', '[0]'], ['customers', '[-0]'], ['customers', '[1.0]'], ['customers', '[ 5]'],
      ['customers', '[9007199254740991]'], ['customers', '[9007199254740992]'], ['customers', '["12"]'], ['customers', '[1,2]'],
      ['booking_item_quantities', '[7,0]'], ['booking_item_quantities', '[7]'], ['booking_item_quantities', '[7,1,2]'], ['bookings', '["B1-1"]'],
    ];
    for (const [entity, id] of ids) q.saveRowState(entity, id, state(A));
    const k = keyColumnsSql('i.id', 'e.key_ints');
    const bySql = sqlite.prepare(`SELECT ${k.k1} AS k1, ${k.k2} AS k2, ${k.key} AS key FROM (SELECT ? AS id, ? AS name) i JOIN sync_entities e ON e.name = i.name`);
    const rows = sqlite.prepare('SELECT r.k1, r.k2, r.key, e.name FROM sync_rows r JOIN sync_entities e ON e.no = r.entity').all() as { k1: number; k2: number; key: string; name: string }[];
    expect(rows).toHaveLength(ids.length);
    for (const [entity, id] of ids) expect(rows).toContainEqual({ ...(bySql.get(id, entity) as object), name: entity });
    expect(rows.filter((r) => r.key === '').map((r) => [r.name, r.k1, r.k2])).toEqual(
      expect.arrayContaining([['customers', 12, 0], ['customers', -3, 0], ['customers', 0, 0], ['customers', 9007199254740991, 0], ['booking_item_quantities', 7, 0]]),
    );
    expect(rows.filter((r) => r.key === '')).toHaveLength(5);
    expect((sqlite.prepare('SELECT entity, entity_id FROM sync_row_names ORDER BY entity, entity_id').all() as { entity: string; entity_id: string }[]).map((r) => [r.entity, r.entity_id]).sort()).toEqual([...ids].sort());
  });

  it('lets compaction find the rows whose state is only their insert op, whatever the form of their key', async () => {
    const { sqlite, db } = await aDatabase();
    const q = sqliteSyncStore(sqlite);
    q.beginWork();
    const op = sqlite.prepare("INSERT INTO sync_ops (origin, seq, hlc, entity, entity_id, kind, change_json, schema, row_state) VALUES ('AAAA', ?, ?, ?, ?, 'insert', '{}', 1, 1)");
    const rows: [string, string][] = [['customers', '[1]'], ['customers', '[2]'], ['booking_item_quantities', '[5,1]'], ['booking_item_quantities', '[5,2]'], ['bookings', '["B1"]'], ['bookings', '["B2"]'], ['gizmos', '[1]']];
    rows.forEach(([entity, id], i) => op.run(i + 1, A.slice(0, 22), entity, id));
    // A later change wrote these rows' states to sync_rows: compaction has nothing to save for them.
    for (const [entity, id] of [rows[1], rows[3], rows[5]]) q.saveRowState(entity, id, state(B));
    const found = await stateOpsIn(db, { origin: 'AAAA', maxSeq: 100, beforeWall: 1894665600001 });
    expect(found.map((r) => [r.entity, r.entity_id]).sort()).toEqual([rows[0], rows[2], rows[4], rows[6]].sort());
  });
});
