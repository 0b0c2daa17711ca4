import type { Op } from './op';
import { CUSTOMER_PERSONAL_FIELDS, statusRank, type MergeRule } from './entities';

/**
 * The merged state of one row, from every op applied to it in any order:
 * - values: each column's value, clocks: the stamp that wrote it (last-writer-wins registers);
 * - born / deleted: the latest insert and the latest tombstone (max registers);
 * - erased: a customer's erasure (sticky: once set, personal columns stay empty).
 * Merging is a join of registers, so applying a set of ops gives one state whatever their
 * order, however often each is applied.
 */
export interface RowState {
  values: Record<string, unknown>;
  clocks: Record<string, string>;
  born: string | null;
  deleted: string | null;
  erased: string | null;
}

export const EMPTY_ROW: RowState = Object.freeze({ values: {}, clocks: {}, born: null, deleted: null, erased: null }) as RowState;

const PERSONAL = new Set<string>(CUSTOMER_PERSONAL_FIELDS);

function later(a: string | null, b: string): string {
  return a === null || b > a ? b : a;
}

function earlier(a: string | null, b: string): string {
  return a === null || b < a ? b : a;
}

/** Applies one op to a row's state under its entity's rule. Pure: returns a new state. */
export function mergeOp(state: RowState, op: Pick<Op, 'hlc' | 'kind' | 'change'>, rule: MergeRule): RowState {
  // Plain loops, no entries arrays: the apply path runs this once per op (100,000 catching up).
  const values: Record<string, unknown> = {};
  const clocks: Record<string, string> = {};
  for (const column in state.values) values[column] = state.values[column];
  for (const column in state.clocks) clocks[column] = state.clocks[column];
  const next: RowState = { values, clocks, born: state.born, deleted: state.deleted, erased: state.erased };
  if (op.kind === 'delete') {
    // Bookings are never lost and events only grow: their tombstones change nothing.
    if (rule === 'booking' || rule === 'event') return next;
    next.deleted = later(next.deleted, op.hlc);
    // A deleted customer is an erased one: nothing personal comes back through an older op.
    if (rule === 'customer') next.erased = earlier(next.erased, op.hlc);
  } else {
    if (op.kind === 'insert') next.born = later(next.born, op.hlc);
    const change = op.change ?? {};
    for (const column in change) {
      const value = change[column];
      if (rule === 'booking' && column === 'status') {
        const current = values.status;
        const rank = statusRank(value);
        const currentRank = current === undefined ? -2 : statusRank(current);
        if (rank > currentRank || (rank === currentRank && op.hlc > clocks.status!)) {
          values.status = value;
          clocks.status = op.hlc;
        }
        continue;
      }
      const clock = clocks[column];
      if (clock === undefined || op.hlc > clock) {
        values[column] = value;
        clocks[column] = op.hlc;
      }
    }
    if (rule === 'customer' && change.anonymised_at != null) next.erased = earlier(next.erased, op.hlc);
  }
  return next;
}

/** Whether the row exists: inserted, and not deleted after its latest insert. */
export function isVisible(state: RowState, rule: MergeRule): boolean {
  if (state.born === null) return false;
  if (rule === 'booking' || rule === 'event') return true;
  if (rule === 'customer' && state.deleted !== null) return false;
  return state.deleted === null || state.born > state.deleted;
}

/**
 * The row to store for a state: an erased customer has no personal column, and the time of its
 * earliest erasure (the one every instance agrees on) as anonymised_at.
 */
export function materialize(state: RowState, rule: MergeRule): Record<string, unknown> {
  if (rule !== 'customer' || state.erased === null) return state.values;
  const values: Record<string, unknown> = { ...state.values };
  for (const column of PERSONAL) values[column] = null;
  values.anonymised_at = Number(state.erased.slice(0, 15));
  return values;
}

/**
 * Joins two states of one row (a snapshot's and ours): each column from the side whose stamp is
 * later (a booking's status by precedence), the later insert and tombstone, the earlier erasure.
 * The same join mergeOp makes op by op, so a snapshot taken over local writes loses neither side.
 */
export function joinStates(ours: RowState, theirs: RowState, rule: MergeRule): RowState {
  const next: RowState = { values: { ...ours.values }, clocks: { ...ours.clocks }, born: ours.born, deleted: ours.deleted, erased: ours.erased };
  for (const [column, stamp] of Object.entries(theirs.clocks)) {
    const mine = next.clocks[column];
    const take =
      rule === 'booking' && column === 'status'
        ? statusRank(theirs.values.status) > statusRank(next.values.status) || (statusRank(theirs.values.status) === statusRank(next.values.status) && (mine === undefined || stamp > mine))
        : mine === undefined || stamp > mine;
    if (take) {
      next.values[column] = theirs.values[column];
      next.clocks[column] = stamp;
    }
  }
  if (theirs.born !== null) next.born = later(next.born, theirs.born);
  if (theirs.deleted !== null) next.deleted = later(next.deleted, theirs.deleted);
  if (theirs.erased !== null) next.erased = earlier(next.erased, theirs.erased);
  return next;
}

/** Applies ops in the given order (tests use it to show the order does not matter). */
export function mergeAll(ops: readonly Pick<Op, 'hlc' | 'kind' | 'change'>[], rule: MergeRule, from: RowState = EMPTY_ROW): RowState {
  return ops.reduce((state, op) => mergeOp(state, op, rule), from);
}

/** What an op may still say once its customer is erased: no personal column. */
export function purgePersonal(change: Record<string, unknown> | null): Record<string, unknown> | null {
  if (change === null) return null;
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(change)) out[column] = PERSONAL.has(column) ? null : value;
  return out;
}
