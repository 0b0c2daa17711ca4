import type { SyncCaptureTable, SyncInstanceTable, SyncOpsTable } from './schema';

/**
 * The op log, vectors, row merge states and captured changes as the replica (main/sync/replica.ts)
 * uses them: one algorithm over this interface on both dialects. SQLite's store
 * (db/queries/sync/) answers at once from statements prepared on the shared connection, since a
 * catch-up runs them per op inside the caller's IMMEDIATE transaction; PostgreSQL's
 * (db/postgres/sync/) answers with promises. Table and column names in the dynamic row statements
 * come from the database's own catalogue, never from an op.
 */

/** A stored op (sync_ops), its stamp whole (see shortHlc). */
export type OpRow = Omit<SyncOpsTable, 'arrival'> & { arrival: number };

/** An op to store: its change as an object (stored without its null columns, see null_columns). */
export type NewOpRow = Omit<OpRow, 'arrival' | 'change_json' | 'null_columns' | 'row_state' | 'write_continues' | 'change_shape'> & {
  change: Record<string, unknown> | null;
  nulls?: readonly string[];
  /** 1: more ops of the same write follow (absent or null: the write's last op). */
  write_continues?: number | null;
};

/** A row change the capture triggers recorded, not yet folded into an op. */
export type CaptureRow = Required<SyncCaptureTable> & { id: number };

/**
 * A change as a value-array page (wire 3) brought it: the values in the order of `columns`, the
 * same content as the op's `change` (main/sync/exchange.ts pullOps builds that from these).
 */
export interface StoredValues {
  columns: readonly string[];
  values: readonly unknown[];
}

/** A new row made by one op: the op, and the row it writes (its change, with the op's null columns). */
export interface NewRowInsert {
  op: NewOpRow & { change: Record<string, unknown> };
  table: string;
  pk: readonly string[];
  /** The op's change as its page's value array (WireOp.stored), when it came as one: stored as it is. */
  stored?: StoredValues;
}

/** A row's merge state as stored: field stamps, latest insert, tombstone and erasure. */
export interface StoredRowState {
  clocks: Record<string, string>;
  born: string | null;
  deleted: string | null;
  erased: string | null;
}

/** An op held back (sync_held), as its JSON. */
export interface HeldOp {
  origin: string;
  seq: number;
  op_json: string;
}

/** A row of a synced table by its key: the entity's name and the row's key. */
export interface EntityRow {
  entity: string;
  entityId: string;
}

/**
 * What a call answers: T, or a promise of it where `Later` is unknown (PostgreSQL: a round trip);
 * T alone where `Later` is never (SQLite: a statement in this process). Calls marked "at once"
 * answer at once on both dialects: reading a stored op's change (its shapes are loaded with the
 * rows), the hub the instance follows (a cache on PostgreSQL), beginWork.
 */
type Answer<Later, T> = T | (Later & Promise<T>);

export interface SyncStoreOf<Later> {
  /** This instance's sync_instance row: origin, last op sequence and stamp, hub. */
  instance(): Answer<Later, SyncInstanceTable>;
  /** At once: the hub whose catalogue this instance follows, as it stands. */
  hubOriginNow(): string | null;
  /** Records the last op sequence and stamp this instance gave out. */
  saveClock(lastSeq: number, lastHlc: string | null): Answer<Later, void>;
  /** Sets (or clears) the hub this instance follows. */
  setHub(origin: string | null): Answer<Later, void>;
  /** At once: called at the start of the replica's work in each transaction (forgets uncommitted shapes). */
  beginWork(): void;
  /** The capture triggers record nothing until resumeCapture, in this transaction. */
  pauseCapture(): Answer<Later, void>;
  /** The capture triggers record again. */
  resumeCapture(): Answer<Later, void>;
  /** Captured row changes not yet folded, in capture order. */
  captures(): Answer<Later, CaptureRow[]>;
  /** The id of the last captured change (0: none). */
  lastCaptureId(): Answer<Later, number>;
  /** Drops the captured changes after `id`. */
  dropCapturesAfter(id: number): Answer<Later, void>;
  /** Drops the captured changes up to `id`. */
  dropCapturesUpTo(id: number): Answer<Later, void>;
  /**
   * A fold's start (main/sync/fold.ts), one round trip on PostgreSQL: the captured changes in capture
   * order; when there are any, also the instance row, and capture paused (what the fold writes next are
   * its ops already). With none, nothing else is read or changed.
   */
  beginFold(): Answer<Later, { captures: CaptureRow[]; instance: SyncInstanceTable | null; rowsStamp?: string | null }>;
  /**
   * A fold's end, one round trip on PostgreSQL: saves the clock, sets `origin`'s vector entry to
   * `lastSeq` when `advanced`, resumes capture and drops every captured change.
   */
  endFold(origin: string, lastSeq: number, lastHlc: string | null, advanced: boolean): Answer<Later, void>;
  /**
   * A fold's start (main/sync/fold.ts), one round trip on PostgreSQL: the captured changes in capture
   * order; when there are any, also the instance row, and capture paused (what the fold writes next are
   * its ops already). With none, nothing else is read or changed.
   */
  beginFold(): Answer<Later, { captures: CaptureRow[]; instance: SyncInstanceTable | null; rowsStamp?: string | null }>;
  /**
   * A fold's end, one round trip on PostgreSQL: saves the clock, sets `origin`'s vector entry to
   * `lastSeq` when `advanced`, resumes capture and drops every captured change.
   */
  endFold(origin: string, lastSeq: number, lastHlc: string | null, advanced: boolean): Answer<Later, void>;

  /** Stores an op; `nulls`, when given, names the columns its change sets to null and leaves out. */
  insertOp(op: NewOpRow): Answer<Later, void>;
  /**
   * Stores new rows, each made by one op with no merge state before: the ops (in this order) as
   * their rows' merge state, and the rows. No two are one row.
   */
  insertNewRows(rows: readonly NewRowInsert[]): Answer<Later, void>;
  /** Stores this instance's ops of new rows (the rows already written), each as its row's merge state. */
  insertOwnNewRows(ops: readonly NewOpRow[]): Answer<Later, void>;
  /** At once: a stored op's change as the op had it (its null columns back, after the others). */
  changeOf(row: OpRow): Record<string, unknown> | null;
  /** At once: the same as JSON text. */
  changeJsonOf(row: OpRow): string;
  /** At once: changeJsonOf(row).length, without making the text. */
  changeJsonLengthOf(row: OpRow): number;
  /** At once: the change's stored columns as object text, its null columns left out; null for a delete. */
  storedChangeJsonOf(row: OpRow): string | null;
  /** At once: the columns a stored op's change set to null (left out of its change_json). */
  nullColumnsOf(row: OpRow): readonly string[];
  /** The op `origin`:`seq`, if stored. */
  opAt(origin: string, seq: number): Answer<Later, OpRow | undefined>;
  /** Up to `limit` ops stored after `arrival`, in arrival order. */
  opsAfter(arrival: number, limit: number): Answer<Later, OpRow[]>;
  /** Where the op `origin`:`seq` stands in arrival order, or null if not stored. */
  arrivalOf(origin: string, seq: number): Answer<Later, number | null>;
  /** Every op of one row. */
  opsOfEntity(entity: string, entityId: string): Answer<Later, OpRow[]>;
  /** Replaces a stored op's change (erasure); `entity`: the op's. */
  rewriteChange(arrival: number, change: Record<string, unknown> | null, entity: string): Answer<Later, void>;

  /** The highest op sequence stored per origin. */
  vector(): Answer<Later, Record<string, number>>;
  /** Sets one origin's entry of the vector. */
  setVector(origin: string, seq: number): Answer<Later, void>;
  /** The earlier origins (incarnations) of the instance that is `origin` now. */
  predecessors(origin: string): Answer<Later, string[]>;
  /** Raises the id and order-number sequences to at least these values (never lowers them). */
  raiseSequences(globalSeq: number, orderSeq: number): Answer<Later, void>;

  /** Which of these rows of one entity have a merge state. */
  withRowState(entity: string, entityIds: readonly string[]): Answer<Later, Set<string>>;
  /** Which of these rows, of any entities, have a merge state: `entity entityId` each. */
  withRowStateAmong(rows: readonly EntityRow[]): Answer<Later, Set<string>>;
  /** A row's merge state, or null if it has none. */
  rowState(entity: string, entityId: string): Answer<Later, StoredRowState | null>;
  /** The state of a row one insert made: every column it wrote has its stamp, and it was born then. */
  saveInsertedRowState(entity: string, entityId: string, columns: string[], stamp: string): Answer<Later, void>;
  /** Writes a row's merge state. */
  saveRowState(entity: string, entityId: string, state: StoredRowState): Answer<Later, void>;

  /** Holds an op back with the reason (once per op). */
  hold(origin: string, seq: number, opJson: string, reason: string): Answer<Later, void>;
  /** How many ops are held back. */
  heldCount(): Answer<Later, number>;
  /** Held ops in arrival order (the order they would have been applied in). */
  held(): Answer<Later, HeldOp[]>;
  /** Releases a held op. */
  release(origin: string, seq: number): Answer<Later, void>;
  /** The ops held back that change one row (erasure reaches them too). */
  heldOfEntity(entity: string, entityId: string): Answer<Later, HeldOp[]>;
  /** Replaces a held op's JSON (erasure). */
  rewriteHeld(origin: string, seq: number, opJson: string): Answer<Later, void>;

  /** Blanks a customer's entries in the local journal (op_log). */
  purgeJournal(customerId: string): Answer<Later, void>;
  /** Blanks a booking's entries in the local journal (a booking's create and update hold its customer and guests). */
  purgeBookingJournal(orderNumber: string): Answer<Later, void>;
  /** The check-in events of a booking that keep an answer (a scan's, replayed for its eventId). */
  answeredEventsOfBooking(orderNumber: string): Answer<Later, string[]>;
  /** The booking's customer now and every customer its ops ever named. */
  customersOfBooking(orderNumber: string): Answer<Later, number[]>;
  /** The booking a participant belongs to, or null. */
  bookingOfParticipant(participantId: number): Answer<Later, string | null>;
  /** Bookings that hold or ever held this customer. */
  bookingsOfCustomer(customerId: number): Answer<Later, string[]>;
  /** Records that a booking held these customers (a snapshot's word for the ops it does not carry). */
  linkBookingCustomers(orderNumber: string, customerIds: readonly number[]): Answer<Later, void>;
  /** The participants of a booking. */
  participantsOfBooking(orderNumber: string): Answer<Later, number[]>;

  /** The current row of a synced table, or null. */
  readRow(table: string, pk: readonly string[], key: readonly unknown[]): Answer<Later, Record<string, unknown> | null>;
  /** Writes a whole row (insert or replace its columns); columns this schema lacks are left out. */
  upsertRow(table: string, pk: readonly string[], values: Record<string, unknown>, nulls?: readonly string[]): Answer<Later, void>;
  /** Deletes a row of a synced table. */
  deleteRow(table: string, pk: readonly string[], key: readonly unknown[]): Answer<Later, void>;
  /** A page of a table's rows in key order (a snapshot for a joining instance). */
  rowsPage(table: string, pk: readonly string[], limit: number, offset: number): Answer<Later, Record<string, unknown>[]>;
  /**
   * A page of a table's rows in key order after the row whose key is `after` (null: from the first),
   * a snapshot's page by key: a row deleted between pages cannot shift the next page past rows.
   */
  rowsAfter(table: string, pk: readonly string[], limit: number, after: readonly unknown[] | null): Answer<Later, Record<string, unknown>[]>;
  /** The snapshot join this instance has under way, as its JSON (main/sync/snapshotJoin.ts), or null. */
  joinProgress(): Answer<Later, string | null>;
  /** Records the join's progress (in the transaction of the page it follows), or clears it (null). */
  saveJoinProgress(json: string | null): Answer<Later, void>;
  /** Every row of a table in key order (canonical dumps, snapshots). */
  allRows(table: string, pk: readonly string[]): Answer<Later, Record<string, unknown>[]>;
  /** Foreign keys are checked at commit, not per statement, for the rest of this transaction. */
  deferForeignKeys(): Answer<Later, void>;
}

/** The settings key of a snapshot join under way (settings never syncs: the progress is this instance's). */
export const JOIN_PROGRESS_KEY = 'sync_snapshot_join';

/** The store as the replica uses it on either dialect. */
export type SyncStore = SyncStoreOf<unknown>;

/** SQLite's store: every call answers at once. */
export type SqliteSyncStore = SyncStoreOf<never>;

/** Where the replica finds its store: per write transaction's connection, and for reads outside one. */
export interface SyncStores {
  /** This instance's origin (fixed when its database was made). */
  origin: string;
  /** The store for a write transaction's connection (`conn` as inWriteTransaction gives it). */
  at(conn: unknown): SyncStore;
  /** The store for reads outside a write transaction (pages served, vectors, dumps). */
  outside: SyncStore;
}
