import { columnsOfChange } from '../../db/syncEncoding';
import type { StoredRowState, SyncStore } from '../../db/syncStore';
import { canonicalJson, completeOp, type Op, type WireOp } from './op';
import { SYNCED_ENTITIES, type SyncedEntity } from './entities';
import { isVisible, materialize, mergeOp, type RowState } from './merge';
import { erase } from './erasure';

/**
 * One apply path for every change, local or remote: an op is merged into its row's register state
 * and the row is written as the rule wants it (a local write that lowers a booking's status or
 * brings back an erased customer's data is corrected in the same transaction, exactly as a peer
 * would see it). `before` is the row as it was before the op, `after` as it is now, `known` the
 * row's merge state (read here unless the caller has it already).
 */
export async function applyOp(q: SyncStore, op: Op, before: Record<string, unknown> | null, after: Record<string, unknown> | null, local: boolean, known?: StoredRowState | null): Promise<void> {
  const stored = known === undefined ? await q.rowState(op.entity, op.entityId) : known;
  const entity = SYNCED_ENTITIES[op.entity];
  // A row not inserted here yet whose state already holds clocks: ops from another origin (an
  // edit, an erasure) overtook its insert. The state keeps clocks, not values, and there is no row
  // to hold them, so the values those clocks stand for are read back from their ops; without them
  // an older insert arriving now would leave those columns empty (seed 332651687).
  const values = before ?? (stored && Object.keys(stored.clocks).length > 0 ? await valuesOfClocks(q, op.entity, op.entityId, stored.clocks) : {});
  const state: RowState = {
    values,
    clocks: stored?.clocks ?? {},
    born: stored?.born ?? null,
    deleted: stored?.deleted ?? null,
    erased: stored?.erased ?? null,
  };
  // A row that existed before sync knew it (never captured) counts as inserted now.
  if (local && before !== null && state.born === null) state.born = op.hlc;
  const next = mergeOp(state, op, entity.rule);
  await q.saveRowState(op.entity, op.entityId, next);
  const desired = isVisible(next, entity.rule) ? materialize(next, entity.rule) : null;
  if (desired === null) {
    if (after !== null) await q.deleteRow(op.entity, entity.pk, JSON.parse(op.entityId) as unknown[]);
  } else if (after === null || !sameRow(desired, after)) {
    await q.upsertRow(op.entity, entity.pk, desired);
  }
  if (entity.rule === 'customer' && next.erased !== null && state.erased === null) await erase(q, op.entityId);
}

/** Per column, the value the op stamped with that column's clock set (from the op log). */
async function valuesOfClocks(q: SyncStore, entity: string, entityId: string, clocks: Record<string, string>): Promise<Record<string, unknown>> {
  const changeAt = new Map<string, Record<string, unknown>>();
  for (const row of await q.opsOfEntity(entity, entityId)) {
    const change = q.changeOf(row);
    if (change) changeAt.set(row.hlc, change);
  }
  const values: Record<string, unknown> = {};
  for (const [column, clock] of Object.entries(clocks)) {
    const change = changeAt.get(clock);
    if (change && column in change) values[column] = change[column];
  }
  return values;
}

/**
 * A remote insert of a row with no merge state here (a catch-up is mostly these): what applyOp
 * would do, without its work. Merging into an empty state takes every column with the op's
 * stamp, so the row is the op's change and the state one stamp; a row already in the table
 * without a state (made before sync knew it) gets the change's columns, as applyOp's upsert would.
 * An erased customer's insert takes the full path (its personal columns are blanked there).
 */
export function applyInsertOfNewRow(q: SyncStore, op: WireOp, entity: SyncedEntity): void | Promise<void> {
  const change = op.change ?? {};
  if (entity.rule === 'customer' && change.anonymised_at != null) return applyOp(q, completeOp(op), null, null, false, null);
  // Not an async function: on SQLite both writes answer at once, and a catch-up does this per op.
  const saved = q.saveInsertedRowState(op.entity, op.entityId, columnsOfChange(change, op.nulls), op.hlc);
  if (saved) return saved.then(() => q.upsertRow(op.entity, entity.pk, change, op.nulls));
  return q.upsertRow(op.entity, entity.pk, change, op.nulls);
}

/** A column's value equal in both (SQLite gives primitives; canonical JSON only for anything else). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b || ((a ?? null) === null && (b ?? null) === null)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return canonicalJson(a) === canonicalJson(b);
}

/** Whether the stored row already holds what the merge wants in every column it has. */
function sameRow(desired: Record<string, unknown>, stored: Record<string, unknown>): boolean {
  for (const column in stored) if (column in desired && !sameValue(desired[column], stored[column])) return false;
  return true;
}
