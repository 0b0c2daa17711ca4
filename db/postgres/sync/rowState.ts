import type { SyncRowsTable } from '../../schema';
import type { SyncStore } from '../../syncStore';
import type { PostgresQuery } from './query';
import type { PostgresShapes } from './shapes';

type PostgresRowState = Pick<SyncStore, 'withRowState' | 'withRowStateAmong' | 'rowState' | 'saveInsertedRowState' | 'saveRowState'>;

/**
 * Whether the rows a fold began with had a merge state, as its first statement read them (fold.ts),
 * so the fold's question about its new rows costs no round trip. Forgotten at any merge-state write.
 */
export interface FoldRowStates {
  known: Map<string, boolean> | null;
  /** Between a fold's first and last statement: its new rows' ops are held back for the last one (newRows.ts). */
  folding: boolean;
}

/** Rows' merge states on PostgreSQL: the hub keeps them in sync_rows only (no state ops). */
export function postgresRowState({ run, first }: PostgresQuery, shapes: PostgresShapes, states: FoldRowStates): PostgresRowState {
  async function saveRowState(entity: string, entityId: string, shape: number, stamps: string, marks: string | null, born: string | null, deleted: string | null, erased: string | null): Promise<void> {
    await run(
      `INSERT INTO sync_rows (entity, entity_id, shape, stamps, marks, born, deleted, erased) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (entity, entity_id) DO UPDATE SET shape = excluded.shape, stamps = excluded.stamps, marks = excluded.marks, born = excluded.born, deleted = excluded.deleted, erased = excluded.erased`,
      [entity, entityId, shape, stamps, marks, born, deleted, erased],
    );
    states.known = null;
  }

  return {
    async withRowStateAmong(rows) {
      const known = states.known;
      if (known && rows.every((r) => known.has(`${r.entity} ${r.entityId}`))) return new Set(rows.filter((r) => known.get(`${r.entity} ${r.entityId}`)).map((r) => `${r.entity} ${r.entityId}`));
      const found = await run<{ entity: string; entity_id: string }>(
        'SELECT entity, entity_id FROM sync_rows WHERE (entity, entity_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))',
        [rows.map((r) => r.entity), rows.map((r) => r.entityId)],
      );
      return new Set(found.map((r) => `${r.entity} ${r.entity_id}`));
    },
    withRowState: async (entity, entityIds) =>
      new Set((await run<{ entity_id: string }>('SELECT entity_id FROM sync_rows WHERE entity = $1 AND entity_id = ANY($2)', [entity, entityIds])).map((r) => r.entity_id)),
    async rowState(entity, entityId) {
      const row = await first<SyncRowsTable>('SELECT * FROM sync_rows WHERE entity = $1 AND entity_id = $2', [entity, entityId]);
      if (!row) return null;
      await shapes.loadShapes([row.shape]);
      return { clocks: shapes.decodeClocks(row), born: row.born, deleted: row.deleted, erased: row.erased };
    },
    async saveInsertedRowState(entity, entityId, columns, stamp) {
      await saveRowState(entity, entityId, await shapes.shapeOf(columns), columns.length === 0 ? '' : stamp, null, stamp, null, null);
    },
    async saveRowState(entity, entityId, state) {
      const { shape, stamps, marks } = await shapes.encodeClocks(state.clocks);
      await saveRowState(entity, entityId, shape, stamps, marks, state.born, state.deleted, state.erased);
    },
  };
}
