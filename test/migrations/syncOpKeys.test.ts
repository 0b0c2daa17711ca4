import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/connection';
import { migrationFixture } from '../fixtures/migrations';
import { migrations } from '../../db/migrations';
import { sqliteSyncStore } from '../../db/queries/sync';

const { databaseBefore } = migrationFixture('opkeys');

const OWN = '001894665600000-000000'; // a stamp of the op's own origin, stored short (migration 99)
const RELAYED = '001894665600999-000002-CCCC'; // stamped by another origin: stored whole

/** Ops in sync_ops' text layout, one per key, origin and stamp form the conversion must tell apart. */
const OLD_OPS: [string, number, string, string, string, string, string | null, number | null][] = [
  ['a1b2c3d4e5f60718', 1, OWN, 'customers', '[1]', 'insert', '[1,"Ada"]', 1], // one integer, the row's state
  ['a1b2c3d4e5f60718', 2, OWN, 'customers', '[1]', 'update', '{"first_name":"Bea"}', null],
  ['a1b2c3d4e5f60718', 3, OWN, 'booking_item_quantities', '[107001,0]', 'insert', '{}', 1], // two integers
  ['BBBB', 1, RELAYED, 'bookings', '["B1-1"]', 'insert', '{"customer_id":1}', 1], // a text key; an origin the merge states named already
  ['BBBB', 2, OWN, 'category_products', '[3,"P1"]', 'delete', null, null], // mixed: text form
  ['BBBB', 3, OWN, 'customers', '[ 5]', 'insert', '{}', 1], // not JSON.stringify's text: text form
  ['BBBB', 4, OWN, 'customers', '[9007199254740993]', 'insert', '{}', 1], // beyond JavaScript's integers
  ['BBBB', 5, OWN, 'customers', '[-0]', 'insert', '{}', 1],
  ['BBBB', 6, OWN, 'customers', '[-7]', 'insert', '{}', 1], // a negative integer: numbers
  ['DDDD', 9, OWN, 'gizmos', '[1]', 'insert', '{}', null], // an entity migration 80 never listed (held), an origin new to the file
];
const COLUMNS = 'arrival, origin, seq, hlc, entity, entity_id, kind, change_json, schema, row_state, write_continues, null_columns, change_shape';

describe('20261206_31_sync_op_keys', () => {
  it('converts every op in place, keyed by numbers, and reads each back as it was, by name and through the store', async () => {
    const file = await databaseBefore('20261206_31_sync_op_keys');
    const old = new BetterSqlite3(file);
    old.prepare("INSERT INTO sync_origins (origin) VALUES ('BBBB')").run();
    const insert = old.prepare('INSERT INTO sync_ops (arrival, origin, seq, hlc, entity, entity_id, kind, change_json, schema, row_state, write_continues, null_columns, change_shape) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)');
    // Arrivals with a gap (compaction removed some): each op keeps its own.
    OLD_OPS.forEach((op, i) => insert.run(i < 5 ? i + 1 : i + 20, ...op, i % 2 === 0 ? 1 : null, i === 0 ? 4 : null, i === 0 ? 2 : null));
    const before = old.prepare(`SELECT ${COLUMNS} FROM sync_ops ORDER BY arrival`).all();
    old.close();

    const handle = await openDatabase(file, { migrate: true });
    const { sqlite } = handle;
    expect(sqlite.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(sqlite.prepare(`SELECT ${COLUMNS} FROM sync_ops ORDER BY arrival`).all()).toEqual(before);
    // Keyed by numbers where the key is exactly integers, by text otherwise; origins numbered once each.
    const keyed = sqlite.prepare('SELECT e.name, k1, k2, key FROM sync_op_rows r JOIN sync_entities e ON e.no = r.entity ORDER BY arrival').raw(true).all();
    expect(keyed).toEqual([
      ['customers', 1, 0, ''], ['customers', 1, 0, ''], ['booking_item_quantities', 107001, 0, ''], ['bookings', 0, 0, '["B1-1"]'], ['category_products', 0, 0, '[3,"P1"]'],
      ['customers', 0, 0, '[ 5]'], ['customers', 0, 0, '[9007199254740993]'], ['customers', 0, 0, '[-0]'], ['customers', -7, 0, ''], ['gizmos', 0, 0, '[1]'],
    ]);
    expect(sqlite.prepare('SELECT origin FROM sync_origins ORDER BY no').pluck().all()).toEqual(['BBBB', 'DDDD', 'a1b2c3d4e5f60718']);
    expect(sqlite.prepare("SELECT type FROM sqlite_master WHERE name = 'sync_ops'").pluck().get()).toBe('view');

    // The store reads each op as it was stored, finds a row's ops and its state op by any key form.
    const q = sqliteSyncStore(sqlite);
    q.beginWork();
    const byName = (before as { arrival: number; hlc: string; origin: string }[]).map((op) => ({ ...op, hlc: op.hlc.length === 22 ? `${op.hlc}-${op.origin}` : op.hlc }));
    expect(q.opsAfter(0, 100)).toEqual(byName);
    expect(q.opAt('BBBB', 1)).toEqual(byName[3]);
    expect(q.opAt('ZZZZ', 1)).toBeUndefined();
    expect(q.arrivalOf('BBBB', 3)).toBe(25);
    expect(q.opsOfEntity('customers', '[1]').map((op) => op.seq)).toEqual([1, 2]);
    expect(q.opsOfEntity('customers', '[-0]').map((op) => op.seq)).toEqual([5]);
    expect(q.opsOfEntity('category_products', '[3,"P1"]').map((op) => op.kind)).toEqual(['delete']);
    expect([...q.withRowState('customers', ['[1]', '[ 5]', '[-7]', '[2]', '[-0]'])].sort()).toEqual(['[ 5]', '[-0]', '[-7]', '[1]']);
    expect(q.rowState('booking_item_quantities', '[107001,0]')?.born).toBe(`${OWN}-a1b2c3d4e5f60718`);
    expect(q.rowState('bookings', '["B1-1"]')?.born).toBe(RELAYED);

    // A new op lands after the last arrival; an (origin, seq) already held is refused, as before.
    q.insertOp({ origin: 'EEEE', seq: 1, hlc: `${OWN}-EEEE`, entity: 'customers', entity_id: '[8]', kind: 'insert', change: { id: 8 }, schema: 1 });
    expect(q.opsAfter(29, 10).map((op) => [op.arrival, op.origin, op.entity_id])).toEqual([[30, 'EEEE', '[8]']]);
    expect(() => q.insertOp({ origin: 'BBBB', seq: 1, hlc: `${OWN}-BBBB`, entity: 'customers', entity_id: '[9]', kind: 'insert', change: { id: 9 }, schema: 1 })).toThrow(/UNIQUE/);
    // Writes through the view reach the table.
    sqlite.prepare("INSERT INTO sync_ops (origin, seq, hlc, entity, entity_id, kind, change_json, schema) VALUES ('FFFF', 1, ?, 'bookings', '[\"B2\"]', 'insert', '{}', 1)").run(OWN);
    sqlite.prepare("UPDATE sync_ops SET change_json = '[]' WHERE origin = 'FFFF'").run();
    expect(q.opAt('FFFF', 1)).toMatchObject({ entity: 'bookings', entity_id: '["B2"]', change_json: '[]' });
    sqlite.prepare("DELETE FROM sync_ops WHERE origin = 'FFFF'").run();
    expect(q.opAt('FFFF', 1)).toBeUndefined();
    await handle.close();
  });
});
