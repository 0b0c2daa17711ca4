import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/connection';
import { migrationFixture } from '../fixtures/migrations';
import { migrations } from '../../db/migrations';
import { sqliteSyncStore } from '../../db/queries/sync';

const { databaseBefore } = migrationFixture('rowkeys');

const A = '001894665600000-000000-a1b2c3d4e5f60718';
const B = '001894665600999-000002-BBBB';

/** States in migration 92's layout, one per key form the conversion must tell apart. */
const OLD_STATES: [string, string, number, string, string | null, string | null, string | null, string | null][] = [
  ['customers', '[1]', 1, '', null, A, null, null], // one integer, unchanged since its insert
  ['customers', '[2]', 1, `${A} ${B}`, '0101', A, B, B], // several stamps, deleted and erased
  ['booking_item_quantities', '[107001,0]', 2, '', null, B, null, null], // two integers
  ['bookings', '["B1-1"]', 2, A, null, null, null, null], // a text key, no insert stamp
  ['category_products', '[3,"P1"]', 2, '', null, A, null, null], // mixed: text form
  ['customers', '[ 5]', 1, '', null, A, null, null], // not JSON.stringify's text: text form
  ['customers', '[9007199254740993]', 1, '', null, A, null, null], // beyond JavaScript's integers
  ['customers', '[-0]', 1, '', null, A, null, null], // not JSON.stringify's either
  ['customers', '[1.0]', 1, '', null, A, null, null],
  ['customers', '[-7]', 1, B, null, 'not-a-stamp', null, null], // a born not in hlc.ts's form: kept as text
  ['gizmos', '[1]', 1, '', null, A, null, null], // an entity migration 80 never listed
];
const NAMES = 'SELECT entity, entity_id, shape, stamps, marks, born, deleted, erased FROM sync_row_names ORDER BY entity, entity_id';

describe('20261205_11_sync_row_keys', () => {
  it('converts every merge state in place, keyed by numbers, and reads each back as it was', async () => {
    const file = await databaseBefore('20261205_11_sync_row_keys');
    const old = new BetterSqlite3(file);
    old.prepare("INSERT INTO sync_shapes (id, columns) VALUES (1, 'id,first_name,email,phone'), (2, 'order_number,status')").run();
    const insert = old.prepare('INSERT INTO sync_rows (entity, entity_id, shape, stamps, marks, born, deleted, erased) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    for (const row of OLD_STATES) insert.run(...row);
    const before = old.prepare('SELECT entity, entity_id, shape, stamps, marks, born, deleted, erased FROM sync_rows ORDER BY entity, entity_id').all();
    old.close();

    const handle = await openDatabase(file, { migrate: true });
    const { sqlite } = handle;
    expect(sqlite.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(sqlite.prepare(NAMES).all()).toEqual(before);
    const keyOf = sqlite.prepare("SELECT k1, k2, key, born_at, born_count, born, (SELECT origin FROM sync_origins WHERE no = born_by) AS origin FROM sync_rows JOIN sync_entities e ON e.no = entity WHERE e.name = ? ORDER BY k1, key");
    expect(keyOf.all('booking_item_quantities')).toEqual([{ k1: 107001, k2: 0, key: '', born_at: 1894665600999, born_count: 2, born: null, origin: 'BBBB' }]);
    expect(keyOf.all('customers').map((r: any) => [r.k1, r.key])).toEqual([[-7, ''], [0, '[ 5]'], [0, '[-0]'], [0, '[1.0]'], [0, '[9007199254740993]'], [1, ''], [2, '']]);
    expect(keyOf.all('customers')[0]).toMatchObject({ born_at: null, born: 'not-a-stamp' });
    expect(keyOf.all('category_products').map((r: any) => r.key)).toEqual(['[3,"P1"]']);

    // The store reads each state as migration 92 meant it, and saving it again lands on the same key.
    const q = sqliteSyncStore(sqlite);
    q.beginWork();
    expect(q.rowState('customers', '[1]')).toEqual({ clocks: { id: A, first_name: A, email: A, phone: A }, born: A, deleted: null, erased: null });
    expect(q.rowState('customers', '[2]')).toEqual({ clocks: { id: A, first_name: B, email: A, phone: B }, born: A, deleted: B, erased: B });
    expect(q.rowState('bookings', '["B1-1"]')).toEqual({ clocks: { order_number: A, status: A }, born: null, deleted: null, erased: null });
    for (const [entity, id] of OLD_STATES) q.saveRowState(entity, id, q.rowState(entity, id)!);
    expect(sqlite.prepare(NAMES).all()).toEqual(before);
    await handle.close();
  });
});
