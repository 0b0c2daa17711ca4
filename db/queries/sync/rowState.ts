import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteSyncStore, StoredRowState } from '../../syncStore';
import { wholeHlc } from '../../syncEncoding';
import type { SqliteRowKeys, StateKey } from './rowKeys';
import type { SqliteShapes } from './shapes';

type SqliteRowState = Pick<SqliteSyncStore, 'withRowState' | 'withRowStateAmong' | 'rowState' | 'saveInsertedRowState' | 'saveRowState'>;

/** A sync_rows entry on SQLite (migration 20261205_11): keyed by numbers, its insert stamp in parts (rowKeys.ts). */
interface KeyedStateRow {
  shape: number;
  stamps: string;
  marks: string | null;
  born_at: number | null;
  born_count: number | null;
  born_by: number | null;
  born: string | null;
  deleted: string | null;
  erased: string | null;
}

type KeyArgs = [number, number, number, string];
/** A page's rows with a state (or state op) among given keys: integer keys asked by k1, other keys by their text. */
type IntKeyRows = BetterSqlite3.Statement<[number, string], { k1: number; k2: number }>;
type TextKeyRows = BetterSqlite3.Statement<[number, string], { key: string }>;
type RangeKeyRows = BetterSqlite3.Statement<[number, number, number, number], { k1: number; k2: number }>;
const args = (k: StateKey): KeyArgs => [k.entity, k.k1, k.k2, k.key];
const KEY = 'entity = ? AND k1 = ? AND k2 = ? AND key = ?';

/**
 * Rows' merge states on SQLite: a sync_rows entry, or for a row one remote insert made, that op
 * (row_state = 1, migration 95), which says the same as the entry saveInsertedRowState would write.
 */
export function sqliteRowState(sqlite: BetterSqlite3.Database, shapes: SqliteShapes, keys: SqliteRowKeys): SqliteRowState {
  const s = {
    rowState: sqlite.prepare<KeyArgs, KeyedStateRow>(`SELECT shape, stamps, marks, born_at, born_count, born_by, born, deleted, erased FROM sync_rows WHERE ${KEY}`),
    hasState: sqlite.prepare<KeyArgs, number>(`SELECT 1 FROM sync_rows WHERE ${KEY}`).pluck(),
    // A page's keys in one statement each form: integer keys by k1 (k2 matched after), text keys by key.
    intStates: sqlite.prepare<[number, string], { k1: number; k2: number }>("SELECT k1, k2 FROM sync_rows WHERE entity = ? AND k1 IN (SELECT value FROM json_each(?)) AND key = ''"),
    textStates: sqlite.prepare<[number, string], { key: string }>('SELECT key FROM sync_rows WHERE entity = ? AND k1 = 0 AND k2 = 0 AND key IN (SELECT value FROM json_each(?))'),
    /** The op that is a row's whole merge state, for a row sync_rows lacks (migration 95); ops keyed as states are (migration 20261206_31). */
    stateOp: sqlite.prepare<KeyArgs, { origin: number; hlc: string; change_json: string | null; null_columns: number | null; change_shape: number | null }>(
      `SELECT origin, hlc, change_json, null_columns, change_shape FROM sync_op_rows WHERE ${KEY} AND row_state = 1`,
    ),
    intStateOps: sqlite.prepare<[number, string], { k1: number; k2: number }>("SELECT k1, k2 FROM sync_op_rows WHERE entity = ? AND k1 IN (SELECT value FROM json_each(?)) AND key = '' AND row_state = 1"),
    // The integer keys in a range, from the index alone (no table row read), at most `limit` of them: see `among` below.
    intStatesIn: sqlite.prepare<[number, number, number, number], { k1: number; k2: number }>("SELECT k1, k2 FROM sync_rows WHERE entity = ? AND k1 BETWEEN ? AND ? AND key = '' LIMIT ?"),
    intOpsIn: sqlite.prepare<[number, number, number, number], { k1: number; k2: number }>("SELECT k1, k2 FROM sync_op_rows WHERE entity = ? AND k1 BETWEEN ? AND ? AND key = '' LIMIT ?"),
    textStateOps: sqlite.prepare<[number, string], { key: string }>('SELECT key FROM sync_op_rows WHERE entity = ? AND k1 = 0 AND k2 = 0 AND key IN (SELECT value FROM json_each(?)) AND row_state = 1'),
    hasStateOp: sqlite.prepare<KeyArgs, number>(`SELECT 1 FROM sync_op_rows WHERE ${KEY} AND row_state = 1 LIMIT 1`).pluck(),
    saveRowState: sqlite.prepare<[...KeyArgs, number, string, string | null, number | null, number | null, number | null, string | null, string | null, string | null]>(
      `INSERT INTO sync_rows (entity, k1, k2, key, shape, stamps, marks, born_at, born_count, born_by, born, deleted, erased) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (entity, k1, k2, key) DO UPDATE SET shape = excluded.shape, stamps = excluded.stamps, marks = excluded.marks, born_at = excluded.born_at,
         born_count = excluded.born_count, born_by = excluded.born_by, born = excluded.born, deleted = excluded.deleted, erased = excluded.erased`,
    ),
  };
  const { columnsOfShape } = shapes;
  const save = (entity: string, entityId: string, shape: number, stamps: string, marks: string | null, born: string | null, deleted: string | null, erased: string | null) => {
    const b = keys.packBorn(born);
    s.saveRowState.run(...args(keys.keyOf(entity, entityId, true)!), shape, stamps, marks, b.at, b.count, b.by, b.text, deleted, erased);
  };

  return {
    // One statement for a page's integer keys and one for its other keys, in sync_rows, then the same in its state ops.
    withRowState(entity, entityIds) {
      const found = new Set<string>();
      // Integer keys twice: by "k1,k2" to match the rows a statement returns, and as (k1, id) to ask by k1.
      const ints = new Map<string, string>();
      const intKeys: { k1: number; id: string }[] = [];
      const texts: string[] = [];
      let no = 0;
      for (const id of entityIds) {
        const key = keys.keyOf(entity, id, false);
        if (key === null) return found; // an entity this file has no number for has no states (nor ops) here
        no = key.entity;
        if (key.key === '') {
          ints.set(`${key.k1},${key.k2}`, id);
          intKeys.push({ k1: key.k1, id });
        } else texts.push(key.key);
      }
      const add = (r: { k1: number; k2: number }) => {
        const id = ints.get(`${r.k1},${r.k2}`);
        if (id !== undefined) found.add(id);
      };
      /**
       * Integer keys are first looked for by their range, in the index alone: a catch-up's page of
       * new rows finds nothing there in one seek, where asking key by key cost a seek per key. Only
       * when the range holds more entries than a few per key (rows between them, or many ops each)
       * is each key asked for; `exact` is the question by key, `inRange` the index's keys in range,
       * which is the answer itself for sync_rows and, for the op log, the keys that may have a state
       * op (those alone are then asked by `exact`).
       */
      const amongInts = (exact: IntKeyRows, inRange: RangeKeyRows, rangeIsAnswer: boolean) => {
        let min = Infinity;
        let max = -Infinity;
        const k1s = new Set<number>();
        for (const { k1, id } of intKeys) {
          if (found.has(id)) continue;
          k1s.add(k1);
          if (k1 < min) min = k1;
          if (k1 > max) max = k1;
        }
        if (k1s.size === 0) return;
        const limit = 2 * intKeys.length + 64;
        const inIndex = inRange.all(no, min, max, limit);
        if (inIndex.length < limit) {
          if (rangeIsAnswer) return inIndex.forEach(add);
          const maybe = new Set<number>();
          for (const r of inIndex) if (ints.has(`${r.k1},${r.k2}`)) maybe.add(r.k1);
          if (maybe.size === 0) return;
          k1s.clear();
          for (const k1 of maybe) k1s.add(k1);
        }
        exact.all(no, JSON.stringify([...k1s])).forEach(add);
      };
      const amongTexts = (textRows: TextKeyRows) => {
        const textsLeft = texts.filter((t) => !found.has(t));
        if (textsLeft.length > 0) for (const r of textRows.all(no, JSON.stringify(textsLeft))) found.add(r.key);
      };
      amongInts(s.intStates, s.intStatesIn, true);
      amongTexts(s.textStates);
      if (found.size < entityIds.length) {
        amongInts(s.intStateOps, s.intOpsIn, false);
        amongTexts(s.textStateOps);
      }
      return found;
    },
    withRowStateAmong(rows) {
      // A key lookup or two per row: a write has a few rows.
      const found = new Set<string>();
      for (const { entity, entityId } of rows) {
        const key = keys.keyOf(entity, entityId, false);
        if (key !== null && (s.hasState.get(...args(key)) !== undefined || s.hasStateOp.get(...args(key)) !== undefined)) found.add(`${entity} ${entityId}`);
      }
      return found;
    },
    rowState(entity, entityId): StoredRowState | null {
      const key = keys.keyOf(entity, entityId, false);
      const row = key === null ? undefined : s.rowState.get(...args(key));
      if (row) {
        const born = keys.unpackBorn(row);
        return { clocks: shapes.decodeClocks(row.stamps === '' && row.marks === null && born !== null ? { ...row, stamps: born } : row), born, deleted: row.deleted, erased: row.erased };
      }
      // A row one remote insert made: its state is that op (insertNewRows), the same saveInsertedRowState would have written.
      const op = key === null ? undefined : s.stateOp.get(...args(key));
      if (!op) return null;
      const stamp = wholeHlc(op.hlc, keys.originName(op.origin));
      const clocks: Record<string, string> = {};
      if (op.change_json !== null) for (const column of op.change_shape === null ? Object.keys(JSON.parse(op.change_json) as Record<string, unknown>) : columnsOfShape(op.change_shape)) clocks[column] = stamp;
      if (op.null_columns !== null) for (const column of columnsOfShape(op.null_columns)) clocks[column] = stamp;
      return { clocks, born: stamp, deleted: null, erased: null };
    },
    // Every column's stamp is the insert's: said once, by `born` (stamps left empty; rowState reads it back).
    saveInsertedRowState(entity, entityId, columns, stamp) {
      save(entity, entityId, shapes.shapeOfStamped(columns), '', null, stamp, null, null);
    },
    saveRowState(entity, entityId, state) {
      const { shape, stamps, marks } = shapes.encodeClocks(state.clocks);
      // One stamp for every column, the insert's (a row unchanged since, as compaction saves most): born says it.
      const once = marks === null && stamps === state.born;
      save(entity, entityId, shape, once ? '' : stamps, marks, state.born, state.deleted, state.erased);
    },
  };
}
