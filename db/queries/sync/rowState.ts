import type BetterSqlite3 from 'better-sqlite3';
import type { SyncRowsTable } from '../../schema';
import type { SqliteSyncStore, StoredRowState } from '../../syncStore';
import { wholeHlc } from '../../syncEncoding';
import type { SqliteShapes } from './shapes';

type SqliteRowState = Pick<SqliteSyncStore, 'withRowState' | 'withRowStateAmong' | 'rowState' | 'saveInsertedRowState' | 'saveRowState'>;

/**
 * Rows' merge states on SQLite: a sync_rows entry, or for a row one remote insert made, that op
 * (row_state = 1, migration 95), which says the same as the entry saveInsertedRowState would write.
 */
export function sqliteRowState(sqlite: BetterSqlite3.Database, shapes: SqliteShapes): SqliteRowState {
  const s = {
    rowState: sqlite.prepare<[string, string], SyncRowsTable>('SELECT * FROM sync_rows WHERE entity = ? AND entity_id = ?'),
    /** The op that is a row's whole merge state, for a row sync_rows lacks (migration 95). */
    stateOp: sqlite.prepare<[string, string], { origin: string; hlc: string; change_json: string | null; null_columns: number | null; change_shape: number | null }>(
      'SELECT origin, hlc, change_json, null_columns, change_shape FROM sync_ops WHERE entity = ? AND entity_id = ? AND row_state = 1',
    ),
    withRowState: sqlite.prepare<[string, string, string, string], { entity_id: string }>(
      `SELECT entity_id FROM sync_rows WHERE entity = ? AND entity_id IN (SELECT value FROM json_each(?))
       UNION SELECT entity_id FROM sync_ops WHERE entity = ? AND entity_id IN (SELECT value FROM json_each(?)) AND row_state = 1`,
    ),
    hasRowState: sqlite
      .prepare<[string, string, string, string], number>(
        'SELECT 1 FROM sync_rows WHERE entity = ? AND entity_id = ? UNION ALL SELECT 1 FROM (SELECT 1 FROM sync_ops WHERE entity = ? AND entity_id = ? AND row_state = 1 LIMIT 1)',
      )
      .pluck(),
    saveRowState: sqlite.prepare<[string, string, number, string, string | null, string | null, string | null, string | null]>(
      `INSERT INTO sync_rows (entity, entity_id, shape, stamps, marks, born, deleted, erased) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (entity, entity_id) DO UPDATE SET shape = excluded.shape, stamps = excluded.stamps, marks = excluded.marks, born = excluded.born, deleted = excluded.deleted, erased = excluded.erased`,
    ),
  };
  const { columnsOfShape } = shapes;

  return {
    // One statement for a page's rows.
    withRowState(entity, entityIds) {
      const ids = JSON.stringify(entityIds);
      return new Set(s.withRowState.all(entity, ids, entity, ids).map((r) => r.entity_id));
    },
    withRowStateAmong(rows) {
      // A key lookup or two per row: a write has a few rows, and one statement over a JSON list of
      // them (json_each, a temporary B-tree per side) cost more than these together.
      const found = new Set<string>();
      for (const { entity, entityId } of rows) if (s.hasRowState.get(entity, entityId, entity, entityId) !== undefined) found.add(`${entity} ${entityId}`);
      return found;
    },
    rowState(entity, entityId): StoredRowState | null {
      const row = s.rowState.get(entity, entityId);
      if (row) return { clocks: shapes.decodeClocks(row.stamps === '' && row.marks === null && row.born !== null ? { ...row, stamps: row.born } : row), born: row.born, deleted: row.deleted, erased: row.erased };
      // A row one remote insert made: its state is that op (insertNewRows), the same saveInsertedRowState would have written.
      const op = s.stateOp.get(entity, entityId);
      if (!op) return null;
      const stamp = wholeHlc(op.hlc, op.origin);
      const clocks: Record<string, string> = {};
      if (op.change_json !== null) for (const column of op.change_shape === null ? Object.keys(JSON.parse(op.change_json) as Record<string, unknown>) : columnsOfShape(op.change_shape)) clocks[column] = stamp;
      if (op.null_columns !== null) for (const column of columnsOfShape(op.null_columns)) clocks[column] = stamp;
      return { clocks, born: stamp, deleted: null, erased: null };
    },
    // Every column's stamp is the insert's: said once, by `born` (stamps left empty; rowState reads it back).
    saveInsertedRowState(entity, entityId, columns, stamp) {
      s.saveRowState.run(entity, entityId, shapes.shapeOfStamped(columns), '', null, stamp, null, null);
    },
    saveRowState(entity, entityId, state) {
      const { shape, stamps, marks } = shapes.encodeClocks(state.clocks);
      // One stamp for every column, the insert's (a row unchanged since, as compaction saves most): born says it.
      const once = marks === null && stamps === state.born;
      s.saveRowState.run(entity, entityId, shape, once ? '' : stamps, marks, state.born, state.deleted, state.erased);
    },
  };
}
