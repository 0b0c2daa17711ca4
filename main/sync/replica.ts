import type { DbHandle } from '../../db/connection';
import { inWriteTransaction, setBeforeCommit } from '../../db/transaction';
import { migrations } from '../../db/migrations';
import { sqliteSyncStores } from '../../db/queries/sync';
import { postgresSyncStores } from '../../db/postgres/sync';
import { columnsOfChange, shortHlc } from '../../db/syncEncoding';
import type { CaptureRow, NewOpRow, NewRowInsert, OpRow, StoredRowState, SyncStore, SyncStores } from '../../db/syncStore';
import { DomainError } from '../domain/errors';
import { createHlcClock, decodeHlc, DEFAULT_MAX_FUTURE_MS, encodeHlc } from './hlc';
import { canonicalJson, completeOp, keyOf, opFingerprint, type Op, type WireOp } from './op';
import { ERASED_BOOKING_VALUES, ERASED_PARTICIPANT_VALUES, SYNCED_ENTITIES, SYNCED_TABLES, type SyncedEntity } from './entities';
import { isVisible, joinStates, materialize, mergeOp, purgePersonal, type RowState } from './merge';
import { advanceVector, type Vector } from './vector';

/** The schema version this build writes and understands (the number of migrations). */
export const SCHEMA_VERSION = migrations.length;

export class CloneError extends Error {
  constructor(origin: string, seq: number) {
    super(`Op ${origin}:${seq} arrived with content different from the one stored here: two data folders share one origin (a copied or restored folder?). Sync stops; give one of them a fresh data folder.`);
  }
}

export interface ApplyResult {
  applied: number;
  duplicates: number;
  held: number;
  vector: Vector;
}

/**
 * The replica: this data folder's side of sync. One apply path for every change:
 * - a local write's rows are captured by triggers; before its transaction commits, `fold` turns
 *   them into ops of this origin (next seq, a clock stamp) and runs them through `applyOp`;
 * - a remote page goes through `applyOp` op by op in one transaction, with the vector advanced
 *   in that same transaction.
 * applyOp merges the op into the row's register state and writes the row the rule wants (a
 * local write that lowers a booking's status or brings back an erased customer's data is
 * corrected in the same transaction, exactly as a peer would see it).
 *
 * The same code runs on both dialects: it reads and writes through a SyncStore, SQLite's
 * (prepared statements, answering at once) or the PostgreSQL hub's (answering with promises), and
 * awaits each answer. Every function below that writes takes the store of its transaction.
 */
export function createReplica(handle: DbHandle, now: () => number, options: { maxFutureMs?: number } = {}) {
  const stores: SyncStores = handle.dialect === 'postgres' ? postgresSyncStores(handle) : sqliteSyncStores(handle.sqlite);
  const origin = stores.origin;
  const outside = stores.outside;
  /** Runs `work` in one write transaction with the store of its connection. */
  const inWrite = <T>(work: (q: SyncStore) => Promise<T>) => inWriteTransaction(handle.db, (conn) => work(stores.at(conn)));

  function clockFrom(instance: { last_hlc: string | null }, hubAheadMs = 0) {
    const maxFutureMs = (options.maxFutureMs ?? DEFAULT_MAX_FUTURE_MS) + Math.max(0, hubAheadMs);
    return createHlcClock({ origin, now, last: instance.last_hlc ? decodeHlc(instance.last_hlc) : null, maxFutureMs });
  }

  function catalogueOwner(): string {
    return outside.hubOriginNow() ?? origin;
  }

  async function erase(q: SyncStore, entityId: string): Promise<void> {
    for (const row of await q.opsOfEntity('customers', entityId)) {
      if (row.change_json !== null) await q.rewriteChange(row.arrival, purgePersonal(q.changeOf(row)), row.entity);
    }
    const customerId = (JSON.parse(entityId) as number[])[0];
    await q.purgeJournal(String(customerId));
    for (const orderNumber of await q.bookingsOfCustomer(customerId)) {
      await blank(q, 'bookings', keyOf([orderNumber]));
      for (const participantId of await q.participantsOfBooking(orderNumber)) await blank(q, 'participants', keyOf([participantId]));
    }
  }

  /** Blanks the personal columns of an erased customer's booking or participant: the row and every op of it. */
  async function blank(q: SyncStore, table: 'bookings' | 'participants', entityId: string): Promise<void> {
    const values = table === 'bookings' ? ERASED_BOOKING_VALUES : ERASED_PARTICIPANT_VALUES;
    const overwrite = (change: Record<string, unknown>) => {
      const out = { ...change };
      for (const [column, value] of Object.entries(values)) if (column in out) out[column] = value;
      return out;
    };
    for (const row of await q.opsOfEntity(table, entityId)) if (row.change_json !== null) await q.rewriteChange(row.arrival, overwrite(q.changeOf(row)!), row.entity);
    const key = JSON.parse(entityId) as unknown[];
    const current = await q.readRow(table, SYNCED_ENTITIES[table].pk, key);
    if (current && canonicalJson(overwrite(current)) !== canonicalJson(current)) await q.upsertRow(table, SYNCED_ENTITIES[table].pk, overwrite(current));
  }

  /**
   * Erasure is final for bookings and participants too: a row of an erased customer touched by
   * this transaction (an op that arrived after the erasure, or an edit made before a desk heard
   * of it) is blanked again. Run after a page or a fold, when every row it needs is in place.
   */
  async function keepErased(q: SyncStore, touched: readonly { entity: string; entityId: string }[], known: WrittenLinks = NO_LINKS): Promise<void> {
    // A booking and its participants ask the same question: answered once per booking.
    const erasedBooking = new Map<string, boolean>();
    for (const { entity, entityId } of touched) {
      if (entity !== 'bookings' && entity !== 'participants') continue;
      const id = (JSON.parse(entityId) as unknown[])[0];
      const orderNumber = entity === 'bookings' ? String(id) : (known.orderOfParticipant.get(Number(id)) ?? (await q.bookingOfParticipant(Number(id))));
      if (orderNumber === null) continue;
      let erased = erasedBooking.get(orderNumber);
      if (erased === undefined) {
        erased = false;
        for (const customerId of known.customersOfBooking.get(orderNumber) ?? (await q.customersOfBooking(orderNumber))) {
          if (!known.newCustomers.has(customerId) && (await q.rowState('customers', keyOf([customerId])))?.erased) erased = true;
        }
        erasedBooking.set(orderNumber, erased);
      }
      if (erased) await blank(q, entity, entityId);
    }
  }

  /**
   * Merges one op into its row; `before` is the row as it was before the op, `after` as it is now,
   * `stored` the row's merge state (read here unless the caller has it already).
   */
  async function applyOp(q: SyncStore, op: Op, before: Record<string, unknown> | null, after: Record<string, unknown> | null, local: boolean, known?: StoredRowState | null): Promise<void> {
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
  function applyInsertOfNewRow(q: SyncStore, op: WireOp, entity: SyncedEntity): void | Promise<void> {
    const change = op.change ?? {};
    if (entity.rule === 'customer' && change.anonymised_at != null) return applyOp(q, completeOp(op), null, null, false, null);
    // Not an async function: on SQLite both writes answer at once, and a catch-up does this per op.
    const saved = q.saveInsertedRowState(op.entity, op.entityId, columnsOfChange(change, op.nulls), op.hlc);
    if (saved) return saved.then(() => q.upsertRow(op.entity, entity.pk, change, op.nulls));
    return q.upsertRow(op.entity, entity.pk, change, op.nulls);
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

  /** Turns the rows this transaction changed into ops of this origin. Runs before commit. */
  async function fold(q: SyncStore): Promise<number> {
    q.beginWork();
    const captures = await q.captures();
    if (captures.length === 0) return 0;
    const lastCapture = captures[captures.length - 1].id;
    const changes = netChanges(captures);
    const instance = await q.instance();
    const owner = instance.hub_origin;
    if (owner !== null && owner !== origin) {
      const catalogue = changes.find((c) => SYNCED_ENTITIES[c.table]?.rule === 'catalogue');
      if (catalogue) throw catalogueOwnedByHub(`catalogue (${catalogue.table.replace(/_/g, ' ')})`);
    }
    const clock = clockFrom(instance);
    let seq = instance.last_seq;
    // Corrections written below are part of these ops already: not captured again.
    await q.pauseCapture();
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
    // A row this write inserted that has no merge state (most of a new booking's rows) takes its
    // state from its op, as a caught-up remote insert does (insertNewRows): merging an insert into
    // an empty state stamps every column with the op's stamp, and the row holds the op's change
    // already, so applyOp would only write that state. The write's new rows are asked about
    // together; their ops are stored in order, a run at a time, before any op taking the full path.
    const fresh = ops.filter((o) => o.fresh).map(({ op }) => op);
    const hadState = fresh.length === 0 ? new Set<string>() : await q.withRowStateAmong(fresh);
    const run: NewOpRow[] = [];
    const written: NetChange[] = [];
    for (const { op, change, fresh: isNew } of ops) {
      if (isNew && !hadState.has(`${op.entity} ${op.entityId}`)) {
        run.push(toRow(op));
        written.push(change);
        continue;
      }
      if (run.length > 0) await q.insertOwnNewRows(run.splice(0));
      await q.insertOp(toRow(op));
      await applyOp(q, op, change.before, change.after, true);
    }
    if (run.length > 0) await q.insertOwnNewRows(run);
    await keepErased(q, changes.map((c) => ({ entity: c.table, entityId: c.pk })), linksOfNewRows(written));
    await q.saveClock(seq, encodeHlc(clock.last()));
    if (seq > instance.last_seq) await q.setVector(origin, seq);
    await q.resumeCapture();
    await q.dropCapturesUpTo(Math.max(lastCapture, await q.lastCaptureId()));
    return seq - instance.last_seq;
  }

  /** Applies a page of remote ops in the caller's transaction: insert-if-new, apply, advance. */
  async function applyPage(q: SyncStore, ops: readonly WireOp[], hubAheadMs = 0): Promise<ApplyResult> {
    await fold(q); // pending local captures are ours, not the page's
    await q.deferForeignKeys();
    await q.pauseCapture(); // the rows this page writes are its ops, not ours
    const instance = await q.instance();
    const clock = clockFrom(instance, hubAheadMs);
    const before = await q.vector();
    const vector = advanceVector(before, ops); // throws on a gap: the page is refused whole
    const owner = instance.hub_origin ?? origin;
    let applied = 0;
    let duplicates = 0;
    let held = 0;
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
    for (let op of ops) {
      if (op.seq <= (seen[op.origin] ?? 0)) {
        await flush();
        const stored = await q.opAt(op.origin, op.seq);
        if (stored && differs(opOfRow(stored, q), completeOp(op))) throw new CloneError(op.origin, op.seq);
        duplicates++;
        continue;
      }
      if (op.origin === origin) throw new CloneError(op.origin, op.seq);
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
      if (
        stored === null &&
        op.kind === 'insert' &&
        op.change !== null &&
        entity &&
        op.schema <= SCHEMA_VERSION &&
        !(entity.rule === 'catalogue' && op.origin !== owner) &&
        !(entity.rule === 'customer' && op.change?.anonymised_at != null)
      ) {
        run.push({ op: { ...toRow(op), change: op.change }, table: op.entity, pk: entity.pk, stored: op.stored });
        applied++;
        continue;
      }
      await flush();
      // Only a new row's insert is applied with its null columns as a list; anything else whole.
      if (op.nulls !== undefined && !(stored === null && op.kind === 'insert' && entity && op.schema <= SCHEMA_VERSION)) op = completeOp(op);
      const inserted = q.insertOp(toRow(op.entity === 'customers' && stored?.erased ? { ...op, change: purgePersonal(op.change) } : op));
      if (inserted) await inserted;
      if (op.schema > SCHEMA_VERSION || !entity) {
        await q.hold(op.origin, op.seq, JSON.stringify(op), op.schema > SCHEMA_VERSION ? `schema ${op.schema} is newer than ${SCHEMA_VERSION}` : `unknown entity ${op.entity}`);
        held++;
        continue;
      }
      // Catalogue ops count only from the hub: kept and relayed, never applied from anyone else.
      if (entity.rule === 'catalogue' && op.origin !== owner) continue;
      if (stored === null && op.kind === 'insert') {
        const done = applyInsertOfNewRow(q, op, entity);
        if (done) await done;
      } else {
        const row = await q.readRow(op.entity, entity.pk, JSON.parse(op.entityId) as unknown[]);
        await applyOp(q, op, row, row, false, stored);
      }
      applied++;
    }
    await flush();
    await keepErased(q, ops.filter((op) => op.seq > (before[op.origin] ?? 0)));
    await q.resumeCapture();
    await q.dropCapturesUpTo(await q.lastCaptureId());
    // The vector last, in the page's transaction: it never claims ops this page did not apply.
    for (const [o, s] of Object.entries(vector)) if (s !== (before[o] ?? 0)) await q.setVector(o, s);
    await q.saveClock((await q.instance()).last_seq, encodeHlc(clock.last()));
    return { applied, duplicates, held, vector };
  }

  /** One page of a snapshot: rows of the synced tables in parent-before-child order, each with its merge state. */
  async function snapshotPage(tableIndex: number, offset: number, limit: number): Promise<{ rows: SnapshotRow[]; next: { table: number; offset: number } | null }> {
    const q = outside;
    q.beginWork();
    const rows: SnapshotRow[] = [];
    let table = tableIndex;
    let at = offset;
    while (table < SYNCED_TABLES.length && rows.length < limit) {
      const name = SYNCED_TABLES[table];
      const pk = SYNCED_ENTITIES[name].pk;
      const page = await q.rowsPage(name, pk, limit - rows.length, at);
      for (const row of page) {
        const entry: SnapshotRow = { table: name, row, state: await q.rowState(name, keyOf(pk.map((c) => row[c]))) };
        // The customers a booking ever held, which its ops (not sent) would tell: erasure needs them.
        if (name === 'bookings') {
          const customers = (await q.customersOfBooking(String(row.order_number))).filter((id) => id !== row.customer_id);
          if (customers.length > 0) entry.customers = customers;
        }
        rows.push(entry);
      }
      at += page.length;
      if (rows.length < limit) {
        table++;
        at = 0;
      }
    }
    return { rows, next: table < SYNCED_TABLES.length ? { table, offset: at } : null };
  }

  /**
   * Applies one snapshot page in the caller's transaction: rows and merge states as the peer has
   * them. With `vector` (the last page), the vector the snapshot was taken at is adopted, so the
   * exchange that follows sends only what changed since; ops changed meanwhile merge as joins.
   */
  async function applySnapshotPage(q: SyncStore, rows: readonly SnapshotRow[], vector: Vector | null): Promise<void> {
    await fold(q);
    await q.deferForeignKeys();
    await q.pauseCapture(); // the snapshot's rows are the peer's ops, not ours
    let latest: string | null = null;
    for (const { table, row, state, customers } of rows) {
      const entity = SYNCED_ENTITIES[table];
      if (!entity) continue;
      const key = keyOf(entity.pk.map((c) => row[c]));
      // The customers the snapshot's booking held (its current one included): they stand for the
      // booking's ops before the snapshot, which an erasure arriving later looks through.
      if (table === 'bookings') {
        const held = [...(customers ?? []), ...(typeof row.customer_id === 'number' ? [row.customer_id] : [])];
        if (held.length > 0) await q.linkBookingCustomers(String(row.order_number), held);
      }
      const stored = await q.rowState(table, key);
      if (!state) {
        if (!stored) await q.upsertRow(table, entity.pk, row);
        continue;
      }
      for (const stamp of [state.born, state.deleted, ...Object.values(state.clocks)]) if (stamp && (latest === null || stamp > latest)) latest = stamp;
      const theirs: RowState = { values: row, ...state };
      const current = await q.readRow(table, entity.pk, entity.pk.map((c) => row[c]));
      // Our own writes to the row (if any) join with the snapshot's, as their ops would have.
      const next = stored ? joinStates({ values: current ?? {}, ...stored }, theirs, entity.rule) : theirs;
      await q.saveRowState(table, key, next);
      const desired = isVisible(next, entity.rule) ? materialize(next, entity.rule) : null;
      if (desired === null) {
        if (current) await q.deleteRow(table, entity.pk, entity.pk.map((c) => row[c]));
      } else await q.upsertRow(table, entity.pk, desired);
    }
    if (latest) {
      // The peer's stamps are history here: our clock moves past them (never refused: we asked for them).
      const instance = await q.instance();
      const clock = createHlcClock({ origin, now, last: instance.last_hlc ? decodeHlc(instance.last_hlc) : null, maxFutureMs: Number.MAX_SAFE_INTEGER });
      clock.receive(decodeHlc(latest));
      await q.saveClock(instance.last_seq, encodeHlc(clock.last()));
    }
    await q.resumeCapture();
    await q.dropCapturesUpTo(await q.lastCaptureId());
    if (vector) {
      const ours = await q.vector();
      for (const [o, s] of Object.entries(vector)) if (o !== origin && s > (ours[o] ?? 0)) await q.setVector(o, s);
    }
  }

  /**
   * Applies the held ops this build now understands (after an upgrade), in arrival order, in one
   * transaction; `schema` is this build's version (a test passes a newer one to act as the upgrade).
   */
  async function releaseHeld(q: SyncStore, schema = SCHEMA_VERSION): Promise<number> {
    const owner = (await q.instance()).hub_origin ?? origin;
    const released: Op[] = [];
    q.beginWork();
    await q.deferForeignKeys();
    await q.pauseCapture(); // the rows written are these ops, not new ones of ours
    for (const held of await q.held()) {
      const op = JSON.parse(held.op_json) as Op;
      const entity = SYNCED_ENTITIES[op.entity];
      if (op.schema > schema || !entity) continue;
      if (entity.rule !== 'catalogue' || op.origin === owner) {
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

  /**
   * The ops `theirs` lacks, in our arrival order, at most `limit` of them and about `maxBytes`;
   * `after` continues from a previous page's cursor. As stored rows (the HTTP answer splices
   * their change text as it is, instead of parsing and writing it again).
   */
  async function pageRowsFor(theirs: Vector, limit: number, maxBytes: number, after?: number): Promise<{ rows: OpRow[]; cursor: number; hasMore: boolean }> {
    const q = outside;
    const ours = await q.vector();
    let cursor = after ?? Number.MAX_SAFE_INTEGER;
    if (after === undefined) {
      for (const [o, seq] of Object.entries(ours)) {
        if (seq <= (theirs[o] ?? 0)) continue;
        const arrival = await q.arrivalOf(o, (theirs[o] ?? 0) + 1);
        if (arrival !== null) cursor = Math.min(cursor, arrival - 1);
      }
      if (cursor === Number.MAX_SAFE_INTEGER) return { rows: [], cursor: 0, hasMore: false };
    }
    const page: OpRow[] = [];
    let bytes = 0;
    const sent: Vector = { ...theirs };
    // Origins whose write the page holds only part of so far, and the page as it last held none.
    const open = new Set<string>();
    let whole = { length: 0, cursor };
    for (;;) {
      // One row past the limit tells whether there is more, without reading a second batch.
      const rows = await q.opsAfter(cursor, Math.max(limit + 1, 200));
      if (rows.length === 0) return { rows: page, cursor, hasMore: false };
      for (const row of rows) {
        if (row.seq > (sent[row.origin] ?? 0)) {
          const size = q.changeJsonLengthOf(row) + 200; // as it goes out as a plain op, null columns included
          if (page.length >= limit || (page.length > 0 && bytes + size > maxBytes)) {
            // Full: end after the last whole write, unless one write alone fills the page.
            if (open.size > 0 && whole.length > 0) return { rows: page.slice(0, whole.length), cursor: whole.cursor, hasMore: true };
            return { rows: page, cursor, hasMore: true };
          }
          page.push(row);
          bytes += size;
          sent[row.origin] = row.seq;
          if (row.write_continues === 1) open.add(row.origin);
          else open.delete(row.origin);
          if (open.size === 0) whole = { length: page.length, cursor: row.arrival };
        }
        cursor = row.arrival;
      }
    }
  }

  async function pageFor(theirs: Vector, limit: number, maxBytes: number, after?: number): Promise<{ ops: Op[]; cursor: number; hasMore: boolean }> {
    const page = await pageRowsFor(theirs, limit, maxBytes, after);
    return { ops: page.rows.map((row) => opOfRow(row)), cursor: page.cursor, hasMore: page.hasMore };
  }

  function opOfRow(row: OpRow, q: SyncStore = outside): Op {
    const op: Op = { origin: row.origin, seq: row.seq, hlc: row.hlc, entity: row.entity, entityId: row.entity_id, kind: row.kind, change: q.changeOf(row), schema: row.schema };
    if (row.write_continues === 1) op.continues = true;
    return op;
  }

  /** An op row as the op's JSON text, its change spliced in as stored (no parse, no serialize). */
  function opJsonOfRow(row: OpRow): string {
    const text = JSON.stringify;
    return `{"origin":${text(row.origin)},"seq":${row.seq},"hlc":${text(row.hlc)},"entity":${text(row.entity)},"entityId":${text(row.entity_id)},"kind":${text(row.kind)},"change":${outside.changeJsonOf(row)},"schema":${row.schema}${row.write_continues === 1 ? ',"continues":true' : ''}}`;
  }

  /**
   * An op row in the compact pull encoding (exchange.ts, WIRE_COMPACT): an array of origin index,
   * seq, clock stamp (its origin left off when it is the op's), entity, entity id, kind, the change
   * as stored (without its null columns, spliced as text), the index of its null columns' list
   * (-1: none), schema, and 1 when more ops of its write follow (left off otherwise). `origins` and
   * `shapes` collect the page's lists as rows are written. With `values` (WIRE_VALUES), a change
   * stored as a value array goes out as it is, followed by the continues flag (0 or 1) and the index
   * of its columns' list in `shapes`.
   */
  function opWireOfRow(row: OpRow, origins: Map<string, number>, shapes: Map<number, number>, values = false): string {
    let o = origins.get(row.origin);
    if (o === undefined) origins.set(row.origin, (o = origins.size));
    let shape = -1;
    if (row.null_columns !== null && outside.nullColumnsOf(row).length > 0) {
      shape = shapes.get(row.null_columns) ?? -1;
      if (shape === -1) shapes.set(row.null_columns, (shape = shapes.size));
    }
    const text = JSON.stringify;
    const hlc = shortHlc(row.hlc, row.origin);
    if (values && row.change_shape != null && row.change_json !== null) {
      let columns = shapes.get(row.change_shape);
      if (columns === undefined) shapes.set(row.change_shape, (columns = shapes.size));
      return `[${o},${row.seq},${text(hlc)},${text(row.entity)},${text(row.entity_id)},${text(row.kind)},${row.change_json},${shape},${row.schema},${row.write_continues === 1 ? 1 : 0},${columns}]`;
    }
    return `[${o},${row.seq},${text(hlc)},${text(row.entity)},${text(row.entity_id)},${text(row.kind)},${outside.storedChangeJsonOf(row) ?? 'null'},${shape},${row.schema}${row.write_continues === 1 ? ',1' : ''}]`;
  }

  return {
    origin,
    catalogueOwner,
    /** True on a desk that follows a hub's catalogue (and so must not author one). */
    followsHub: () => catalogueOwner() !== origin,
    /** Folds what the current write transaction captured (the before-commit hook does this for every write). */
    fold: (conn: unknown) => fold(stores.at(conn)),
    vector: async () => outside.vector(),
    heldCount: async () => outside.heldCount(),
    /** Held ops this build can now apply are applied (one transaction); answers how many. */
    releaseHeld: async (schema?: number) => ((await outside.heldCount()) === 0 ? 0 : inWrite((q) => releaseHeld(q, schema))),
    setHub: async (hub: string | null) => outside.setHub(hub),
    /**
     * Applies a page in one IMMEDIATE transaction (nothing awaited inside but the page itself).
     * `hubAheadMs`: how far the hub's clock, measured in this exchange, runs ahead of ours. The
     * hub's clock is the reference: a desk whose clock is slow still takes what the hub has
     * accepted, instead of refusing it as "from the future" and never syncing again.
     */
    apply: (ops: readonly WireOp[], hubAheadMs = 0) => inWrite((q) => applyPage(q, ops, hubAheadMs)),
    pageFor,
    pageRowsFor,
    opJsonOfRow,
    opWireOfRow,
    /** The column list of a stored shape (a compact page names each op's null columns, and its value array's columns, by one). */
    nullColumnsOfShape: (shape: number) => outside.nullColumnsOf({ null_columns: shape } as OpRow),
    snapshotPage,
    applySnapshot: (rows: readonly SnapshotRow[], vector: Vector | null) => inWrite((q) => applySnapshotPage(q, rows, vector)),
    /** A fresh or wiped instance: nothing from any other origin yet (it joins from a snapshot). */
    isFresh: async () => Object.keys(await outside.vector()).every((o) => o === origin),
    /** Every synced row, in key order, as one text: equal on every instance after a full exchange. */
    async canonicalDump(): Promise<string> {
      const tables: Record<string, unknown> = {};
      for (const table of SYNCED_TABLES) tables[table] = await outside.allRows(table, SYNCED_ENTITIES[table].pk);
      return canonicalJson(tables);
    },
    /** Folds changes after every committing transaction on this database, inside it. */
    install: () => setBeforeCommit(handle.db, async (conn) => void (await fold(stores.at(conn)))),
  };
}

export type Replica = ReturnType<typeof createReplica>;

/** The refusal a desk gives when asked to author catalogue data its hub owns. */
export function catalogueOwnedByHub(what = 'catalogue'): DomainError {
  return new DomainError('CATALOGUE_OWNED_BY_HUB', `The ${what} is managed on the hub this desk syncs with; change it on the hub, and it arrives here with the next sync`);
}

/** A row as a snapshot carries it, with its merge state. */
export interface SnapshotRow {
  table: string;
  row: Record<string, unknown>;
  state: { clocks: Record<string, string>; born: string | null; deleted: string | null; erased: string | null } | null;
  /** A booking's: the customers it held before the snapshot besides its current one (erasure reaches them). */
  customers?: number[];
}

interface NetChange {
  table: string;
  pk: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** A transaction's captures, one net change per row, in the order each row was first touched. */
export function netChanges(captures: readonly CaptureRow[]): NetChange[] {
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

/** Ops that erasure may have purged are compared by stamp and row only: their content may differ rightly. */
const PURGEABLE = new Set(['customers', 'bookings', 'participants']);
function differs(stored: Op, arrived: Op): boolean {
  if (PURGEABLE.has(arrived.entity)) return stored.hlc !== arrived.hlc || stored.entity !== arrived.entity || stored.entityId !== arrived.entityId || stored.kind !== arrived.kind;
  return opFingerprint(stored) !== opFingerprint(arrived);
}

/** A column's value equal in both (SQLite gives primitives; canonical JSON only for anything else). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b || ((a ?? null) === null && (b ?? null) === null)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return canonicalJson(a) === canonicalJson(b);
}

/** Whether the stored row already holds what the merge wants in every column it has. */
function sameRow(desired: Record<string, unknown>, stored: Record<string, unknown>): boolean {
  for (const column in stored) if (column in desired && !sameValue(desired[column], stored[column])) return false;
  return true;
}

/**
 * What keepErased would otherwise ask the store, known from the rows a write inserted that took the
 * fold's short path: such a row is in its table exactly as its change has it (nothing merged it), a
 * new booking has had no customer but the one it names (its only op is this insert, and no snapshot
 * linked an order number that had no row here), and a new customer is not erased (an erased one's
 * insert takes the whole path).
 */
interface WrittenLinks {
  orderOfParticipant: ReadonlyMap<number, string>;
  customersOfBooking: ReadonlyMap<string, readonly number[]>;
  newCustomers: ReadonlySet<number>;
}
const NO_LINKS: WrittenLinks = { orderOfParticipant: new Map(), customersOfBooking: new Map(), newCustomers: new Set() };

function linksOfNewRows(rows: readonly NetChange[]): WrittenLinks {
  if (rows.length === 0) return NO_LINKS;
  const orderOfItem = new Map<number, string>();
  const customersOfBooking = new Map<string, number[]>();
  const newCustomers = new Set<number>();
  for (const { table, after } of rows) {
    if (after === null) continue;
    if (table === 'booking_items') orderOfItem.set(Number(after.id), String(after.order_number));
    else if (table === 'bookings') customersOfBooking.set(String(after.order_number), after.customer_id == null ? [] : [Number(after.customer_id)]);
    else if (table === 'customers') newCustomers.add(Number(after.id));
  }
  const orderOfParticipant = new Map<number, string>();
  for (const { table, after } of rows) {
    const order = table === 'participants' && after !== null ? orderOfItem.get(Number(after.item_id)) : undefined;
    if (order !== undefined) orderOfParticipant.set(Number(after!.id), order);
  }
  return { orderOfParticipant, customersOfBooking, newCustomers };
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

function toRow(op: WireOp): NewOpRow {
  return { origin: op.origin, seq: op.seq, hlc: op.hlc, entity: op.entity, entity_id: op.entityId, kind: op.kind, change: op.change, schema: op.schema, nulls: op.nulls, write_continues: op.continues ? 1 : null };
}

export { keyOf };
