import type { HeldOp, OpRow, SyncStore } from '../../syncStore';
import { storedChange, storedChangeJson, storedChangeJsonLength, storedObjectJson } from '../../syncEncoding';
import { ConcurrentInsertError, isUniqueViolation, type PostgresQuery } from './query';
import type { PostgresShapes } from './shapes';

type PostgresOps = Pick<
  SyncStore,
  | 'insertOp' | 'changeOf' | 'changeJsonOf' | 'changeJsonLengthOf' | 'storedChangeJsonOf' | 'nullColumnsOf'
  | 'opAt' | 'opsAfter' | 'arrivalOf' | 'opsOfEntity' | 'rewriteChange' | 'hold' | 'heldCount' | 'held' | 'release'
>;

/** The op log (sync_ops) and the ops held back (sync_held) on PostgreSQL. */
export function postgresOps({ run, first }: PostgresQuery, shapes: PostgresShapes): PostgresOps {
  const { columnsOfShape, keysOf, nullText } = shapes;
  /** Ops as stored, with the shapes they name loaded (so reading their changes answers at once). */
  async function opRows(text: string, params: readonly unknown[]): Promise<OpRow[]> {
    const rows = await run<OpRow>(text, params);
    await shapes.loadShapes(rows.flatMap((r) => [r.null_columns, r.change_shape ?? null]));
    return rows;
  }

  return {
    async insertOp(op) {
      const { json, nulls } = op.nulls !== undefined && op.change !== null ? { json: JSON.stringify(op.change), nulls: await shapes.shapeOf(op.nulls) } : await shapes.splitChange(op.change);
      try {
        await run('INSERT INTO sync_ops (origin, seq, hlc, entity, entity_id, kind, change_json, schema, null_columns, write_continues) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)', [op.origin, op.seq, op.hlc, op.entity, op.entity_id, op.kind, json, op.schema, nulls, op.write_continues ?? null]);
      } catch (error) {
        throw isUniqueViolation(error) ? new ConcurrentInsertError(`op ${op.origin}:${op.seq}`, error) : error;
      }
    },
    changeOf: (row) => storedChange(row, columnsOfShape),
    changeJsonOf: (row) => storedChangeJson(row, nullText, keysOf),
    storedChangeJsonOf: (row) => storedObjectJson(row, keysOf),
    changeJsonLengthOf: (row) => storedChangeJsonLength(row, nullText, keysOf),
    nullColumnsOf: (row) => (row.null_columns === null ? [] : columnsOfShape(row.null_columns)),
    opAt: async (origin, seq) => (await opRows('SELECT * FROM sync_ops WHERE origin = $1 AND seq = $2', [origin, seq]))[0],
    // Only up to the watermark (migration 20261205_21_arrival_floor): no op past one still being
    // committed. The page must be a later statement than the bound's, with a snapshot taken after it:
    // pulls read on the pool (main/sync/replica.ts, `outside`), each statement its own snapshot.
    async opsAfter(arrival, limit) {
      const bound = (await first<{ bound: string | number | null }>('SELECT tourdesk_arrival_bound() AS bound'))?.bound ?? null;
      if (bound === null || Number(bound) <= arrival) return [];
      return opRows('SELECT * FROM sync_ops WHERE arrival > $1 AND arrival <= $2 ORDER BY arrival LIMIT $3', [arrival, bound, limit]);
    },
    arrivalOf: async (origin, seq) => (await first<{ arrival: number }>('SELECT arrival FROM sync_ops WHERE origin = $1 AND seq = $2', [origin, seq]))?.arrival ?? null,
    opsOfEntity: (entity, entityId) => opRows('SELECT * FROM sync_ops WHERE entity = $1 AND entity_id = $2', [entity, entityId]),
    // The hub writes every change in the object form (change_shape stays NULL), whatever the entity.
    async rewriteChange(arrival, change) {
      const { json, nulls } = await shapes.splitChange(change);
      await run('UPDATE sync_ops SET change_json = $1, null_columns = $2, change_shape = NULL WHERE arrival = $3', [json, nulls, arrival]);
    },
    hold: async (origin, seq, opJson, reason) => void (await run('INSERT INTO sync_held (origin, seq, op_json, reason) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [origin, seq, opJson, reason])),
    heldCount: async () => Number((await first<{ n: number }>('SELECT count(*) AS n FROM sync_held'))!.n),
    held: () => run<HeldOp>('SELECT s.origin, s.seq, h.op_json FROM sync_held h JOIN sync_ops s ON s.origin = h.origin AND s.seq = h.seq ORDER BY s.arrival'),
    release: async (origin, seq) => void (await run('DELETE FROM sync_held WHERE origin = $1 AND seq = $2', [origin, seq])),
  };
}
