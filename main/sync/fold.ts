import type { CaptureRow, NewOpRow, SyncStore } from '../../db/syncStore';
import { encodeHlc, maxStamp } from './hlc';
import { opRowOf, type Op } from './op';
import { SYNCED_ENTITIES } from './entities';
import { applyOp, sameValue } from './applyOp';
import { keepErased, NO_LINKS, type WrittenLinks } from './erasure';
import { catalogueOwnedByHub } from './errors';
import { SCHEMA_VERSION, type ReplicaCore } from './core';

/** One row's change in a transaction: as it was before it, and as it is now. */
interface NetChange {
  table: string;
  pk: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/**
 * The write half of sync: turns the rows this transaction changed (captured by triggers) into ops
 * of this origin (next seq, a clock stamp) and runs each through applyOp, before the transaction
 * commits. Answers how many ops it made.
 */
export async function fold(core: ReplicaCore, q: SyncStore): Promise<number> {
  q.beginWork();
  // Reads the captures and (when there are any) the instance, and pauses capture: corrections written
  // below are part of these ops already, not captured again.
  const { captures, instance, rowsStamp } = await q.beginFold();
  if (captures.length === 0 || instance === null) return 0;
  const changes = netChanges(captures);
  const owner = instance.hub_origin;
  if (owner !== null && owner !== core.origin) {
    const catalogue = changes.find((c) => SYNCED_ENTITIES[c.table]?.rule === 'catalogue');
    if (catalogue) throw catalogueOwnedByHub(`catalogue (${catalogue.table.replace(/_/g, ' ')})`);
  }
  // Later than every stamp in the merge states of the rows it changes (PostgreSQL's beginFold reads
  // them): another hub process, under another origin, may have written one last with a later stamp
  // than this clock's, and last-writer-wins on the desks must keep this write, as the hub's rows do.
  const clock = core.clockFrom({ ...instance, last_hlc: maxStamp(instance.last_hlc, rowsStamp ?? null) });
  let seq = instance.last_seq;
  const ops: { op: Op; change: NetChange; fresh: boolean }[] = [];
  for (const change of changes) {
    const op = opFromChange(change, ++seq, encodeHlc(clock.tick()));
    if (!op) {
      seq--;
      continue;
    }
    ops.push({ op, change, fresh: isOwnNewRow(op, change) });
  }
  // One write's ops: every one but the last says more follow, so no page ends inside the write.
  for (let i = 0; i < ops.length - 1; i++) ops[i].op.continues = true;
  const written = await storeOps(q, ops);
  await keepErased(q, changes.map((c) => ({ entity: c.table, entityId: c.pk })), linksOfNewRows(written));
  // The clock, this origin's vector entry, capture resumed and every capture dropped, together.
  await q.endFold(instance.origin, seq, encodeHlc(clock.last()), seq > instance.last_seq);
  return seq - instance.last_seq;
}

/**
 * Stores a write's ops and merges those that need it. A row this write inserted that has no merge
 * state (most of a new booking's rows) takes its state from its op, as a caught-up remote insert
 * does (insertNewRows): merging an insert into an empty state stamps every column with the op's
 * stamp, and the row holds the op's change already, so applyOp would only write that state. The
 * write's new rows are asked about together; their ops are stored in order, a run at a time,
 * before any op taking the full path. Answers the changes that took the short path.
 */
async function storeOps(q: SyncStore, ops: readonly { op: Op; change: NetChange; fresh: boolean }[]): Promise<NetChange[]> {
  const fresh = ops.filter((o) => o.fresh).map(({ op }) => op);
  const hadState = fresh.length === 0 ? new Set<string>() : await q.withRowStateAmong(fresh);
  const run: NewOpRow[] = [];
  const written: NetChange[] = [];
  for (const { op, change, fresh: isNew } of ops) {
    if (isNew && !hadState.has(`${op.entity} ${op.entityId}`)) {
      run.push(opRowOf(op));
      written.push(change);
      continue;
    }
    if (run.length > 0) await q.insertOwnNewRows(run.splice(0));
    await q.insertOp(opRowOf(op));
    await applyOp(q, op, change.before, change.after, true);
  }
  if (run.length > 0) await q.insertOwnNewRows(run);
  return written;
}

/** A transaction's captures, one net change per row, in the order each row was first touched. */
function netChanges(captures: readonly CaptureRow[]): NetChange[] {
  const byRow = new Map<string, NetChange>();
  for (const c of captures) {
    const id = `${c.tbl} ${c.pk}`;
    const after = c.new_json === null ? null : (JSON.parse(c.new_json) as Record<string, unknown>);
    const existing = byRow.get(id);
    if (existing) existing.after = after;
    else byRow.set(id, { table: c.tbl, pk: c.pk, before: c.old_json === null ? null : JSON.parse(c.old_json), after });
  }
  return [...byRow.values()];
}

function opFromChange(change: NetChange, seq: number, hlc: string): Op | null {
  const base = { origin: hlc.slice(23), seq, hlc, entity: change.table, entityId: change.pk, schema: SCHEMA_VERSION };
  if (change.after === null) return change.before === null ? null : { ...base, kind: 'delete', change: null };
  if (change.before === null) return { ...base, kind: 'insert', change: change.after };
  const diff: Record<string, unknown> = {};
  for (const column in change.after) if (!sameValue(change.after[column], change.before[column])) diff[column] = change.after[column];
  return Object.keys(diff).length === 0 ? null : { ...base, kind: 'update', change: diff };
}

/**
 * An insert this instance's write made of a row that was not there before it (a new booking's rows):
 * the fold's short path when the row has no merge state either. Not an erased customer's insert (its
 * erasure is applied on the full path).
 */
function isOwnNewRow(op: Op, change: NetChange): boolean {
  const entity = SYNCED_ENTITIES[op.entity];
  return op.kind === 'insert' && change.before === null && entity !== undefined && !(entity.rule === 'customer' && op.change?.anonymised_at != null);
}

/** What the short path's rows tell keepErased without asking the store (erasure.ts, WrittenLinks). */
function linksOfNewRows(rows: readonly NetChange[]): WrittenLinks {
  if (rows.length === 0) return NO_LINKS;
  const orderOfItem = new Map<number, string>();
  const customersOfBooking = new Map<string, number[]>();
  const newCustomers = new Set<number>();
  const answeredOrderOfEvent = new Map<string, string | null>();
  for (const { table, pk, after } of rows) {
    if (after === null) continue;
    if (table === 'checkin_events') answeredOrderOfEvent.set(pk, typeof after.answer_json === 'string' && typeof after.order_number === 'string' ? after.order_number : null);
    if (table === 'booking_items') orderOfItem.set(Number(after.id), String(after.order_number));
    else if (table === 'bookings') customersOfBooking.set(String(after.order_number), after.customer_id == null ? [] : [Number(after.customer_id)]);
    else if (table === 'customers') newCustomers.add(Number(after.id));
  }
  const orderOfParticipant = new Map<number, string>();
  for (const { table, after } of rows) {
    const order = table === 'participants' && after !== null ? orderOfItem.get(Number(after.item_id)) : undefined;
    if (order !== undefined) orderOfParticipant.set(Number(after!.id), order);
  }
  return { orderOfParticipant, customersOfBooking, newCustomers, answeredOrderOfEvent };
}
