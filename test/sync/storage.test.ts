import { describe, expect, it } from 'vitest';
import { sqliteSyncStore } from '../../db/queries/sync';
import { migratedDatabases } from '../fixtures/migrations';
import { inWriteTransaction } from '../../db/transaction';

const { aDatabase } = migratedDatabases('sync-storage');
const A = '001894665600000-000000-AAAA';
const B = '001894665600999-000002-BBBB';

describe('stored merge states', () => {
  it('read back exactly as saved: one stamp, several, none, and column names that do not split on commas', async () => {
    const { sqlite } = await aDatabase();
    const q = sqliteSyncStore(sqlite);
    const states = {
      '[1]': { clocks: { id: A, first_name: A, email: A }, born: A, deleted: null, erased: null },
      '[2]': { clocks: { id: A, first_name: B, email: A, phone: B }, born: A, deleted: B, erased: B },
      '[3]': { clocks: {}, born: null, deleted: A, erased: null },
      '[4]': { clocks: { 'a,b': A, c: B }, born: A, deleted: null, erased: null },
      '[5]': { clocks: { '[x': A }, born: A, deleted: null, erased: null },
      '[6]': { clocks: { id: B, first_name: B }, born: A, deleted: null, erased: null },
      '[7]': { clocks: {}, born: A, deleted: null, erased: null },
      '[8]': { clocks: { id: A }, born: null, deleted: null, erased: null },
    };
    q.beginWork();
    for (const [id, state] of Object.entries(states)) q.saveRowState('customers', id, state);
    q.beginWork(); // a new transaction: shapes are read again from the table
    for (const [id, state] of Object.entries(states)) expect(q.rowState('customers', id)).toEqual(state);
    expect(q.rowState('customers', '[9]')).toBeNull();
    // A row no one changed since its insert is its shape and its insert's stamp, once (born); one
    // stamp that is not the insert's is kept in stamps.
    expect(sqlite.prepare("SELECT stamps, marks, born FROM sync_row_names WHERE entity_id = '[1]'").get()).toEqual({ stamps: '', marks: null, born: A });
    expect(sqlite.prepare("SELECT stamps, marks, born FROM sync_row_names WHERE entity_id = '[6]'").get()).toEqual({ stamps: B, marks: null, born: A });
  });

  it('keep the state of a row one remote insert made in that op, and in sync_rows from its first later change', async () => {
    const { sqlite } = await aDatabase();
    const q = sqliteSyncStore(sqlite);
    q.beginWork();
    const op = { origin: 'AAAA', seq: 1, hlc: A, entity: 'customers', entity_id: '[7]', kind: 'insert' as const, change: { id: 7, first_name: 'Ann', created_at: 1, updated_at: 1 }, schema: 1, nulls: ['email'] };
    q.insertNewRows([{ op, table: 'customers', pk: ['id'] }]);
    expect(sqlite.prepare("SELECT count(*) AS n FROM sync_row_names WHERE entity_id = '[7]'").get()).toEqual({ n: 0 });
    expect(sqlite.prepare("SELECT first_name, email FROM customers WHERE id = 7").get()).toEqual({ first_name: 'Ann', email: null });
    const fromOp = { clocks: { id: A, first_name: A, created_at: A, updated_at: A, email: A }, born: A, deleted: null, erased: null };
    expect(q.rowState('customers', '[7]')).toEqual(fromOp);
    expect(q.withRowState('customers', ['[7]', '[8]'])).toEqual(new Set(['[7]']));
    // An op of the row that is not its state (a held one, say) does not count as one.
    q.insertOp({ ...op, entity_id: '[8]', seq: 2 });
    expect(q.rowState('customers', '[8]')).toBeNull();
    expect(q.withRowState('customers', ['[8]'])).toEqual(new Set());
    const changed = { ...fromOp, clocks: { ...fromOp.clocks, email: B } };
    q.saveRowState('customers', '[7]', changed);
    expect(q.rowState('customers', '[7]')).toEqual(changed);
  });

  it('keep a local insert\'s state in its op, and tell which rows of several entities have a state in one question', async () => {
    const { sqlite } = await aDatabase();
    const q = sqliteSyncStore(sqlite);
    q.beginWork();
    const own = { origin: 'AAAA', seq: 1, hlc: A, entity: 'customers', entity_id: '[7]', kind: 'insert' as const, change: { id: 7, first_name: 'Ann', email: null, created_at: 1, updated_at: 1 }, schema: 1 };
    q.insertOwnNewRows([own, { ...own, seq: 2, entity: 'participants', entity_id: '[7]', change: { id: 7, item_id: 1, position: 0 } }]);
    expect(sqlite.prepare('SELECT count(*) AS n FROM sync_rows').get()).toEqual({ n: 0 });
    expect(sqlite.prepare('SELECT seq, row_state FROM sync_ops ORDER BY arrival').all()).toEqual([{ seq: 1, row_state: 1 }, { seq: 2, row_state: 1 }]);
    // Its null columns are stamped too: the state is every column the insert wrote.
    expect(q.rowState('customers', '[7]')).toEqual({ clocks: { id: A, first_name: A, email: A, created_at: A, updated_at: A }, born: A, deleted: null, erased: null });
    q.saveRowState('bookings', '["B1"]', { clocks: { status: B }, born: B, deleted: null, erased: null });
    q.insertOp({ ...own, seq: 3, entity_id: '[8]' }); // an op that is not its row's state
    const asked = [
      { entity: 'customers', entityId: '[7]' },
      { entity: 'customers', entityId: '[8]' },
      { entity: 'participants', entityId: '[7]' },
      { entity: 'bookings', entityId: '["B1"]' },
      { entity: 'bookings', entityId: '["B2"]' },
      { entity: 'participants', entityId: '[9]' },
    ];
    expect(q.withRowStateAmong(asked)).toEqual(new Set(['customers [7]', 'participants [7]', 'bookings ["B1"]']));
    expect(q.withRowStateAmong([])).toEqual(new Set());
  });

  it('does not remember a shape whose transaction rolled back', async () => {
    const handle = await aDatabase();
    const q = sqliteSyncStore(handle.sqlite);
    await expect(
      inWriteTransaction(handle.db, async () => {
        q.beginWork();
        q.saveRowState('customers', '[1]', { clocks: { only_here: A }, born: A, deleted: null, erased: null });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await inWriteTransaction(handle.db, async () => {
      q.beginWork();
      // Another writer takes the id the rolled-back shape had, for other columns.
      handle.sqlite.prepare("INSERT INTO sync_shapes (columns) VALUES ('elsewhere')").run();
      q.saveRowState('customers', '[2]', { clocks: { only_here: B }, born: B, deleted: null, erased: null });
    });
    q.beginWork();
    expect(q.rowState('customers', '[2]')?.clocks).toEqual({ only_here: B });
  });

  it('pauses the capture triggers only inside the transaction that paused them', async () => {
    const handle = await aDatabase();
    const q = sqliteSyncStore(handle.sqlite);
    const insert = handle.sqlite.prepare("INSERT INTO customers (id, first_name, created_at, updated_at) VALUES (?, 'Ada', 0, 0)");
    await expect(
      inWriteTransaction(handle.db, async () => {
        q.pauseCapture();
        insert.run(1001);
        expect(q.captures()).toEqual([]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    insert.run(2001);
    expect(q.captures().map((c) => c.pk)).toEqual(['[2001]']);
  });

  it('store an op without its null columns and give it back whole, as an object and as JSON text', async () => {
    const { sqlite } = await aDatabase();
    const q = sqliteSyncStore(sqlite);
    const op = { origin: 'AAAA', seq: 1, hlc: A, entity: 'customers', entity_id: '[1]', kind: 'insert' as const, schema: 1 };
    const change = { id: 1, first_name: 'Ada', middle_name: null, email: null, marketing: 0 };
    q.beginWork();
    q.insertOp({ ...op, change });
    q.insertOp({ ...op, seq: 2, change: { email: null } });
    q.insertOp({ ...op, seq: 3, kind: 'delete', change: null });
    q.insertOp({ ...op, seq: 4, change: {} });
    q.beginWork();
    const rows = q.opsAfter(0, 10);
    // The values alone, in the order of a shape of their columns (migration 99), not an object naming each column.
    expect(rows[0].change_json).toBe('[1,"Ada",0]');
    expect(rows.map((r) => q.changeOf(r))).toEqual([change, { email: null }, null, {}]);
    expect(rows.map((r) => JSON.parse(q.changeJsonOf(r)))).toEqual([change, { email: null }, null, {}]);
    expect(JSON.parse(q.storedChangeJsonOf(rows[0])!)).toEqual({ id: 1, first_name: 'Ada', marketing: 0 });
    // A page counts its bytes without making each op's text.
    expect(rows.map((r) => q.changeJsonLengthOf(r))).toEqual(rows.map((r) => q.changeJsonOf(r).length));
    q.rewriteChange(rows[0].arrival, { ...change, first_name: null }, 'customers');
    expect(q.changeOf(q.opsAfter(0, 1)[0])).toEqual({ ...change, first_name: null });
  });

  it('write a row with its null columns left out of the values, set to NULL on a row already there', async () => {
    const { sqlite } = await aDatabase();
    const q = sqliteSyncStore(sqlite);
    const read = () => sqlite.prepare('SELECT first_name, email, phone FROM customers WHERE id = 1').get();
    sqlite.prepare("INSERT INTO customers (id, first_name, email, phone, created_at, updated_at) VALUES (1, 'Ada', 'ada@example.com', '+61', 0, 0)").run();
    q.upsertRow('customers', ['id'], { id: 1, first_name: 'Augusta', created_at: 0, updated_at: 0 }, ['email']);
    expect(read()).toEqual({ first_name: 'Augusta', email: null, phone: '+61' });
    // The same columns, email now a value: not the plan above, where email was a null column.
    q.upsertRow('customers', ['id'], { id: 1, first_name: 'Augusta', created_at: 0, updated_at: 0, email: 'a@example.com' });
    expect(read()).toEqual({ first_name: 'Augusta', email: 'a@example.com', phone: '+61' });
    // A NOT NULL column named as null fails as it did, instead of taking a default.
    expect(() => q.upsertRow('customers', ['id'], { id: 2, first_name: 'Bo', created_at: 0 }, ['updated_at'])).toThrow(/NOT NULL/);
  });

  it('store a stamp without the origin the op names already, and give it back whole', async () => {
    const { sqlite } = await aDatabase();
    const q = sqliteSyncStore(sqlite);
    q.beginWork();
    const ownStamp = '001894665600000-000000-AAAA';
    const otherStamp = '001894665600000-000001-BBBB'; // never made by a real op; stored as it came
    q.insertOp({ origin: 'AAAA', seq: 1, hlc: ownStamp, entity: 'customers', entity_id: '[1]', kind: 'insert', schema: 1, change: { id: 1 } });
    q.insertOp({ origin: 'AAAA', seq: 2, hlc: otherStamp, entity: 'customers', entity_id: '[1]', kind: 'update', schema: 1, change: { id: 1 } });
    expect(sqlite.prepare('SELECT hlc FROM sync_ops ORDER BY seq').all()).toEqual([{ hlc: '001894665600000-000000' }, { hlc: otherStamp }]);
    expect(q.opsAfter(0, 10).map((r) => r.hlc)).toEqual([ownStamp, otherStamp]);
    expect(q.opAt('AAAA', 1)?.hlc).toBe(ownStamp);
    expect(q.opsOfEntity('customers', '[1]').map((r) => r.hlc)).toEqual([ownStamp, otherStamp]);
  });

  it('store a new row\'s op from its page\'s value array as from its change', async () => {
    const { sqlite } = await aDatabase();
    const q = sqliteSyncStore(sqlite);
    q.beginWork();
    const columns = ['id', 'first_name', 'created_at', 'updated_at'];
    const values = [7, 'Ann', 1, 1];
    const op = { origin: 'AAAA', hlc: A, entity: 'customers', kind: 'insert' as const, change: { id: 7, first_name: 'Ann', created_at: 1, updated_at: 1 }, schema: 1, nulls: ['email', 'phone'] };
    q.insertNewRows([
      { op: { ...op, seq: 1, entity_id: '[7]' }, table: 'customers', pk: ['id'] },
      { op: { ...op, seq: 2, entity_id: '[8]', change: { ...op.change, id: 8 } }, table: 'customers', pk: ['id'], stored: { columns, values: [8, 'Ann', 1, 1] } },
    ]);
    const stored = sqlite.prepare('SELECT change_json, change_shape, null_columns FROM sync_ops ORDER BY seq').all() as { change_json: string; change_shape: number; null_columns: number }[];
    expect(stored[0]).toEqual({ ...stored[0], change_json: JSON.stringify(values) });
    expect(stored[1]).toEqual({ ...stored[0], change_json: '[8,"Ann",1,1]' });
    q.beginWork();
    expect(q.opsAfter(0, 10).map((r) => q.changeOf(r))).toEqual([
      { ...op.change, email: null, phone: null },
      { ...op.change, id: 8, email: null, phone: null },
    ]);
    // The rows, written from the arrays: ops sharing a page's lists share a statement; another list, another one.
    const nulls = ['email'];
    const other = ['updated_at', 'id', 'created_at', 'phone'];
    q.insertNewRows([
      { op: { ...op, seq: 3, entity_id: '[9]', change: { id: 9, first_name: 'Bo', created_at: 2, updated_at: 2 }, nulls }, table: 'customers', pk: ['id'], stored: { columns, values: [9, 'Bo', 2, 2] } },
      { op: { ...op, seq: 4, entity_id: '[10]', change: { id: 10, first_name: 'Cy', created_at: 3, updated_at: 3 }, nulls }, table: 'customers', pk: ['id'], stored: { columns, values: [10, 'Cy', 3, 3] } },
      { op: { ...op, seq: 5, entity_id: '[11]', change: { updated_at: 4, id: 11, created_at: 4, phone: '+61' }, nulls }, table: 'customers', pk: ['id'], stored: { columns: other, values: [4, 11, 4, '+61'] } },
    ]);
    expect(sqlite.prepare('SELECT id, first_name, email, phone, created_at, updated_at FROM customers WHERE id >= 7 ORDER BY id').all()).toEqual([
      { id: 7, first_name: 'Ann', email: null, phone: null, created_at: 1, updated_at: 1 },
      { id: 8, first_name: 'Ann', email: null, phone: null, created_at: 1, updated_at: 1 },
      { id: 9, first_name: 'Bo', email: null, phone: null, created_at: 2, updated_at: 2 },
      { id: 10, first_name: 'Cy', email: null, phone: null, created_at: 3, updated_at: 3 },
      { id: 11, first_name: null, email: null, phone: '+61', created_at: 4, updated_at: 4 },
    ]);
  });

  it('keep a booking op its change as an object, which erasure reads in SQL, and find its customer through it', async () => {
    const { sqlite } = await aDatabase();
    const q = sqliteSyncStore(sqlite);
    q.beginWork();
    q.insertOp({ origin: 'AAAA', seq: 1, hlc: A, entity: 'bookings', entity_id: '["B1-1"]', kind: 'insert', schema: 1, change: { order_number: 'B1-1', customer_id: 7001, comments: null } });
    expect((sqlite.prepare('SELECT change_json, change_shape FROM sync_ops').get() as { change_json: string; change_shape: number | null })).toEqual({ change_json: '{"order_number":"B1-1","customer_id":7001}', change_shape: null });
    expect(q.bookingsOfCustomer(7001)).toEqual(['B1-1']);
    expect(q.customersOfBooking('B1-1')).toEqual([7001]);
  });
});
