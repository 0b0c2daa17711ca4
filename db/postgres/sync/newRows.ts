import type { NewOpRow, SyncStore } from '../../syncStore';
import { columnsOfChange } from '../../syncEncoding';
import { ConcurrentInsertError, isUniqueViolation, type PostgresQuery } from './query';
import type { PostgresShapes } from './shapes';
import type { FoldRowStates } from './rowState';

type PostgresNewRows = Pick<SyncStore, 'insertOwnNewRows'>;

/**
 * Ops of new rows and their rows' merge states, all of them in one statement: every statement on the
 * hub is a round trip, and a new booking's fold stores eight such ops. The ops are numbered in the
 * order given (the arrival identity follows `ORDER BY n`, so a pull sees them in their write's order);
 * each state is what saveInsertedRowState writes: every column the insert wrote stamped with its op.
 */
const OPS_AND_STATES = `ops AS (
    INSERT INTO sync_ops (origin, seq, hlc, entity, entity_id, kind, change_json, schema, null_columns, write_continues)
    SELECT origin, seq, hlc, entity, entity_id, kind, change_json, schema, null_columns, write_continues
      FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::bigint[], $10::bigint[])
           WITH ORDINALITY AS o (origin, seq, hlc, entity, entity_id, kind, change_json, schema, null_columns, write_continues, n)
     ORDER BY n
  ), states AS (
  INSERT INTO sync_rows (entity, entity_id, shape, stamps, marks, born, deleted, erased)
  SELECT entity, entity_id, shape, stamps, NULL, born, NULL, NULL
    FROM unnest($4::text[], $5::text[], $11::bigint[], $12::text[], $3::text[]) AS r (entity, entity_id, shape, stamps, born)
  ON CONFLICT (entity, entity_id) DO UPDATE SET shape = excluded.shape, stamps = excluded.stamps, marks = excluded.marks, born = excluded.born, deleted = excluded.deleted, erased = excluded.erased)`;

/** How many parameters OPS_AND_STATES takes ($1 to $12): a statement it leads numbers its own after them. */
export const OPS_AND_STATES_PARAMS = 12;

/** The ops and states as common table expressions, for the fold's last statement to lead with (fold.ts). */
export const WITH_OPS_AND_STATES = `WITH ${OPS_AND_STATES},`;

/** The ops and states alone: how a held-back insert runs when another statement comes first. */
export const INSERT_OPS_AND_STATES = `WITH ${OPS_AND_STATES} SELECT 1`;

export function postgresNewRows(query: PostgresQuery, shapes: PostgresShapes, states: FoldRowStates): PostgresNewRows {
  return {
    async insertOwnNewRows(ops: readonly NewOpRow[]) {
      if (ops.length === 0) return;
      const columns: unknown[][] = Array.from({ length: 12 }, () => []);
      for (const op of ops) {
        // As insertOp stores it: a change given with its null columns named keeps them as a shape.
        const { json, nulls } = op.nulls !== undefined && op.change !== null ? { json: JSON.stringify(op.change), nulls: await shapes.shapeOf(op.nulls) } : await shapes.splitChange(op.change);
        const stamped = columnsOfChange(op.change, op.nulls);
        const values = [op.origin, op.seq, op.hlc, op.entity, op.entity_id, op.kind, json, op.schema, nulls, op.write_continues ?? null, await shapes.shapeOf(stamped), stamped.length === 0 ? '' : op.hlc];
        values.forEach((value, i) => columns[i].push(value));
      }
      states.known = null;
      const mapError = (error: unknown) => (isUniqueViolation(error) ? new ConcurrentInsertError(`op ${ops[0].origin}:${ops[0].seq} or one after it`, error) : error);
      // Inside a fold the statement travels with the fold's last one (or alone before any other).
      if (states.folding) return query.defer({ text: INSERT_OPS_AND_STATES, params: columns, mapError });
      await query.run(INSERT_OPS_AND_STATES, columns).catch((error: unknown) => Promise.reject(mapError(error)));
    },
  };
}
