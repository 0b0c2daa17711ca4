import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sqliteSyncStore } from '../../db/queries/sync';
import type { NewOpRow } from '../../db/syncStore';
import { migratedDatabases } from '../fixtures/migrations';

const { aDatabase } = migratedDatabases('row-state-lookup');
const stamp = (n: number) => `${String(1_894_665_600_000 + n).padStart(15, '0')}-${String(n % 1_000_000).padStart(6, '0')}-BBBB`;

/** What a row of the property holds: a sync_rows entry, a state op (a new row's insert), only ops that are no state, or nothing. */
type Held = 'state' | 'stateOp' | 'plainOp' | 'none';
const HELD: Held[] = ['state', 'stateOp', 'plainOp', 'none'];

/** An entity id of one of three key forms: one integer (customers), two (booking_item_quantities), text. */
const idOf = (form: number, n: number): [string, string] =>
  form === 0 ? ['customers', `[${n}]`] : form === 1 ? ['booking_item_quantities', `[${Math.floor(n / 4)},${n % 4}]`] : ['customers', JSON.stringify([`c${n}`])];

describe('which rows of a page have a merge state (SQLite withRowState)', () => {
  it('answers as asking row by row does, whatever the keys, their ranges and what lies between them', async () => {
    const { sqlite } = await aDatabase();
    const q = sqliteSyncStore(sqlite);
    let seq = 0;
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        // Rows held (a key form, a number: dense ranges and sparse ones, what the row has), then the keys asked.
        fc.array(fc.tuple(fc.nat(2), fc.oneof(fc.nat(60), fc.nat(1_000_000)), fc.constantFrom(...HELD)), { maxLength: 400, size: 'large' }),
        fc.array(fc.tuple(fc.nat(2), fc.oneof(fc.nat(60), fc.nat(1_000_000))), { minLength: 1, maxLength: 60, size: 'large' }),
        async (held, asked) => {
          // A fresh entity range per run: the numbers of earlier runs move past this one's.
          const base = ++round * 10_000_000;
          sqlite.exec('BEGIN');
          try {
            q.beginWork();
            for (const [form, n, what] of held) {
              const [entity, entityId] = idOf(form, base + n);
              const op = (kind: NewOpRow['kind']): NewOpRow => ({ origin: 'BBBB', seq: ++seq, hlc: stamp(seq), entity, entity_id: entityId, kind, change: { note: 'x' }, schema: 1 });
              if (what === 'state') q.saveRowState(entity, entityId, { clocks: { note: stamp(seq) }, born: stamp(seq), deleted: null, erased: null });
              else if (what === 'stateOp') q.insertOwnNewRows([op('insert')]);
              else if (what === 'plainOp') q.insertOp(op('update'));
            }
            for (const entity of ['customers', 'booking_item_quantities']) {
              const ids = asked.map(([form, n]) => idOf(form, base + n)).filter(([e]) => e === entity).map(([, id]) => id);
              if (ids.length === 0) continue;
              const oneByOne = q.withRowStateAmong(ids.map((entityId) => ({ entity, entityId })));
              expect(q.withRowState(entity, ids)).toEqual(new Set(ids.filter((id) => oneByOne.has(`${entity} ${id}`))));
            }
          } finally {
            sqlite.exec('ROLLBACK');
          }
        },
      ),
      { numRuns: 150, seed: 3801 },
    );
  });

  it('finds a state among many rows between the page’s keys, and none where the range holds only other rows', async () => {
    const { sqlite } = await aDatabase();
    const q = sqliteSyncStore(sqlite);
    q.beginWork();
    sqlite.exec('BEGIN');
    // 1,000 rows with ops between the keys asked: more than the range look-up reads, so each key is asked.
    for (let id = 1; id <= 1000; id++) q.insertOp({ origin: 'BBBB', seq: id, hlc: stamp(id), entity: 'customers', entity_id: `[${id}]`, kind: 'update', change: { note: 'x' }, schema: 1 });
    q.insertOwnNewRows([{ origin: 'BBBB', seq: 1001, hlc: stamp(1001), entity: 'customers', entity_id: '[500]', kind: 'insert', change: { note: 'x' }, schema: 1 }]);
    expect(q.withRowState('customers', ['[1]', '[500]', '[1000]'])).toEqual(new Set(['[500]']));
    expect(q.withRowState('customers', ['[1]', '[499]', '[1000]'])).toEqual(new Set());
    sqlite.exec('ROLLBACK');
  });
});
