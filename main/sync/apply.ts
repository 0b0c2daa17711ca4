import type { NewRowInsert, StoredRowState, SyncStore } from '../../db/syncStore';
import { decodeHlc, encodeHlc } from './hlc';
import { completeOp, opFingerprint, opRowOf, type Op, type WireOp } from './op';
import { SYNCED_ENTITIES, type SyncedEntity } from './entities';
import { purgePersonal } from './merge';
import { advanceVector, type Vector } from './vector';
import { applyInsertOfNewRow, applyOp } from './applyOp';
import { keepErased } from './erasure';
import { cloneError } from './errors';
import { fold } from './fold';
import { catalogueOwners, raiseAboveEarlierSelf } from './incarnationApply';
import { opOfRow } from './paging';
import { SCHEMA_VERSION, type ReplicaCore } from './core';

export interface ApplyResult {
  applied: number;
  duplicates: number;
  held: number;
  vector: Vector;
}

/**
 * Applies a page of remote ops in the caller's transaction: insert-if-new, apply, advance; the
 * vector is advanced last, in the page's transaction, so it never claims ops the page did not
 * apply. `hubAheadMs`: how far the hub's clock runs ahead of ours (replica.ts, apply).
 */
export async function applyPage(core: ReplicaCore, q: SyncStore, ops: readonly WireOp[], hubAheadMs = 0): Promise<ApplyResult> {
  await fold(core, q); // pending local captures are ours, not the page's
  await q.deferForeignKeys();
  await q.pauseCapture(); // the rows this page writes are its ops, not ours
  const instance = await q.instance();
  const clock = core.clockFrom(instance, hubAheadMs);
  const before = await q.vector();
  const vector = advanceVector(before, ops); // throws on a gap: the page is refused whole
  const owners = await catalogueOwners(q, instance.hub_origin ?? core.origin);
  const counts = { applied: 0, duplicates: 0, held: 0 };
  const seen: Vector = { ...before };
  // New rows made by one op each (a catch-up is mostly these) are written together, a run at a
  // time (store.insertNewRows); anything else first writes the run so far, so every statement
  // sees the ops before it, and the op log keeps the page's order.
  const run: NewRowInsert[] = [];
  const flush = async () => {
    if (run.length === 0) return;
    await q.insertNewRows(run);
    run.length = 0;
  };
  // Which of the page's rows had a merge state before it (one question per entity); a row the
  // page has touched since is asked again.
  const hadState = await rowsWithState(q, ops);
  const touched = new Set<string>();
  for (const op of ops) {
    if (op.seq <= (seen[op.origin] ?? 0)) {
      await flush();
      await checkDuplicate(q, op);
      counts.duplicates++;
      continue;
    }
    if (op.origin === core.origin || op.origin === instance.origin) throw cloneError(op.origin, op.seq);
    seen[op.origin] = op.seq;
    clock.receive(decodeHlc(op.hlc)); // refuses ops stamped far in the future
    const entity = SYNCED_ENTITIES[op.entity];
    const rowKey = `${op.entity} ${op.entityId}`;
    let stored: StoredRowState | null = null;
    if (entity && (touched.has(rowKey) || hadState.get(op.entity)?.has(op.entityId))) {
      await flush();
      // The store's answers are awaited only when they are promises (PostgreSQL): on SQLite this loop
      // runs per op of a catch-up, and an await per call was a measurable part of it.
      const state = q.rowState(op.entity, op.entityId);
      stored = state instanceof Promise ? await state : state;
    }
    touched.add(rowKey);
    if (stored === null && op.kind === 'insert' && op.change !== null && entity && op.schema <= SCHEMA_VERSION && !(entity.rule === 'catalogue' && !owners.has(op.origin)) && !(entity.rule === 'customer' && op.change?.anonymised_at != null)) {
      run.push({ op: opRowOf(op) as NewRowInsert['op'], table: op.entity, pk: entity.pk, stored: op.stored }); // its change is not null (above)
      counts.applied++;
      continue;
    }
    await flush();
    const outcome = await applyWholeOp(q, op, entity, stored, owners);
    if (outcome !== 'kept') counts[outcome]++;
  }
  await flush();
  const fresh = ops.filter((op) => op.seq > (before[op.origin] ?? 0));
  await keepErased(q, fresh);
  await raiseAboveEarlierSelf(q, core.origin, fresh);
  await q.resumeCapture();
  await q.dropCapturesUpTo(await q.lastCaptureId());
  for (const [o, s] of Object.entries(vector)) if (s !== (before[o] ?? 0)) await q.setVector(o, s);
  await q.saveClock((await q.instance()).last_seq, encodeHlc(clock.last()));
  return { ...counts, vector };
}

/**
 * An op that is not a new row's plain insert: stored, then held (a newer schema, an unknown table),
 * merged into its row, or kept without applying (a catalogue op from anyone but the hub, relayed).
 * Answers which of these it was.
 */
async function applyWholeOp(q: SyncStore, wire: WireOp, entity: SyncedEntity | undefined, stored: StoredRowState | null, owners: ReadonlySet<string>): Promise<'applied' | 'held' | 'kept'> {
  let op = wire;
  // Only a new row's insert is applied with its null columns as a list; anything else whole.
  if (op.nulls !== undefined && !(stored === null && op.kind === 'insert' && entity && op.schema <= SCHEMA_VERSION)) op = completeOp(op);
  // An erased customer's op is kept without their data: in the op log and, when held, in sync_held.
  if (op.entity === 'customers' && stored?.erased) {
    const { stored: _unerased, ...rest } = op;
    op = { ...rest, change: purgePersonal(op.change) };
  }
  const inserted = q.insertOp(opRowOf(op));
  if (inserted) await inserted;
  if (op.schema > SCHEMA_VERSION || !entity) {
    await q.hold(op.origin, op.seq, JSON.stringify(op), op.schema > SCHEMA_VERSION ? `schema ${op.schema} is newer than ${SCHEMA_VERSION}` : `unknown entity ${op.entity}`);
    return 'held';
  }
  // Catalogue ops count only from the hub: kept and relayed, never applied from anyone else.
  if (entity.rule === 'catalogue' && !owners.has(op.origin)) return 'kept';
  if (stored === null && op.kind === 'insert') {
    const done = applyInsertOfNewRow(q, op, entity);
    if (done) await done;
  } else {
    const row = await q.readRow(op.entity, entity.pk, JSON.parse(op.entityId) as unknown[]);
    await applyOp(q, op, row, row, false, stored);
  }
  return 'applied';
}

/** An op we hold already: the same content is a duplicate to skip; different content, a clone. */
async function checkDuplicate(q: SyncStore, op: WireOp): Promise<void> {
  const stored = await q.opAt(op.origin, op.seq);
  if (stored && differs(opOfRow(stored, q), completeOp(op))) throw cloneError(op.origin, op.seq);
}

/** Ops that erasure may have purged are compared by stamp and row only: their content may differ rightly. */
const PURGEABLE = new Set(['customers', 'bookings', 'participants']);
function differs(stored: Op, arrived: Op): boolean {
  if (PURGEABLE.has(arrived.entity)) return stored.hlc !== arrived.hlc || stored.entity !== arrived.entity || stored.entityId !== arrived.entityId || stored.kind !== arrived.kind;
  return opFingerprint(stored) !== opFingerprint(arrived);
}

/** Per entity, which of the rows these ops name have a merge state now. */
async function rowsWithState(q: SyncStore, ops: readonly WireOp[]): Promise<Map<string, Set<string>>> {
  const idsByEntity = new Map<string, string[]>();
  for (const op of ops) {
    if (!SYNCED_ENTITIES[op.entity]) continue;
    const ids = idsByEntity.get(op.entity) ?? idsByEntity.set(op.entity, []).get(op.entity)!;
    ids.push(op.entityId);
  }
  const found = new Map<string, Set<string>>();
  for (const [entity, ids] of idsByEntity) found.set(entity, await q.withRowState(entity, ids));
  return found;
}

/**
 * Applies the held ops this build now understands (after an upgrade), in arrival order, in the
 * caller's transaction; `schema` is this build's version (a test passes a newer one to act as the upgrade).
 */
export async function releaseHeld(core: ReplicaCore, q: SyncStore, schema = SCHEMA_VERSION): Promise<number> {
  const owners = await catalogueOwners(q, (await q.instance()).hub_origin ?? core.origin);
  const released: Op[] = [];
  q.beginWork();
  await q.deferForeignKeys();
  await q.pauseCapture(); // the rows written are these ops, not new ones of ours
  for (const held of await q.held()) {
    const op = JSON.parse(held.op_json) as Op;
    const entity = SYNCED_ENTITIES[op.entity];
    if (op.schema > schema || !entity) continue;
    if (entity.rule !== 'catalogue' || owners.has(op.origin)) {
      const row = await q.readRow(op.entity, entity.pk, JSON.parse(op.entityId) as unknown[]);
      await applyOp(q, op, row, row, false);
    }
    await q.release(held.origin, held.seq);
    released.push(op);
  }
  await keepErased(q, released);
  await q.resumeCapture();
  await q.dropCapturesUpTo(await q.lastCaptureId());
  return released.length;
}
