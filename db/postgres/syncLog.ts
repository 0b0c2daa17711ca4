import { CompiledQuery, type Kysely } from 'kysely';
import type { DbHandle } from '../connection';
import type { SyncInstanceTable, SyncRowsTable } from '../schema';
import type { CaptureRow, NewOpRow, NewRowInsert, OpRow, StoredRowState, SyncStore, SyncStores } from '../queries/syncLog';
import { columnsOfChange, keysOfColumns, nullTextOfColumns, packStamps, storedChange, storedChangeJson, storedChangeJsonLength, storedObjectJson, unpackStamps } from '../queries/syncLog';
import { CAPTURE_PAUSED_SETTING } from '../syncCapture';

/**
 * The op log on the PostgreSQL hub: the same store the replica uses on SQLite (db/queries/syncLog.ts,
 * whose comments say what each call means), answering with promises. The replica's algorithm is the
 * same on both; what differs is said here:
 * - every statement runs on the write transaction's connection (`at(conn)`), or on the pool for
 *   reads outside one (`outside`);
 * - the capture triggers are paused by a transaction-local setting (set_config(…, true)), not a
 *   marker row, so two hub processes never touch a shared row for it; a rollback resets it;
 * - shapes (sync_shapes) are kept per process only once committed (read by a statement that did not
 *   add them); one this transaction added is known to the transaction alone, since a serialization
 *   failure rolls it back and the retry adds it again (under a new id: identities are not reused);
 * - `SET CONSTRAINTS ALL DEFERRED` instead of `defer_foreign_keys` (the foreign keys are DEFERRABLE,
 *   db/postgres/ddl.ts);
 * - JSON from text columns with `::json` operators instead of json_extract.
 * Table and column names in the dynamic row statements come from information_schema, never from an op.
 */

/** The instance row as openPostgres read it (origin and hub are needed before the first await). */
export interface PostgresSyncInstance {
  origin: string;
  hubOrigin: string | null;
}

interface Shared {
  hubOrigin: string | null;
  shapeIds: Map<string, number>;
  shapeColumns: Map<number, string[]>;
  tableColumns: Map<string, Set<string>>;
}

/** A list of stamped or null columns as sync_shapes stores it (the same text SQLite's store writes). */
function shapeText(names: readonly string[]): string {
  const joined = names.join(',');
  return names.some((c) => c.includes(',')) || joined.startsWith('[') ? JSON.stringify(names) : joined;
}

function parseShape(text: string): string[] {
  return text === '' ? [] : text.startsWith('[') ? (JSON.parse(text) as string[]) : text.split(',');
}

/**
 * Another hub process committed the same key first (the same new shape, or the same op of a page two
 * desks, or two requests of one desk, pushed at once). PostgreSQL reports it as a unique violation,
 * not a serialization failure, since this transaction never read that key; it is the same race, and
 * the retry (db/postgres/transaction.ts) sees the committed row: the shape is found, the op is a duplicate.
 */
export class ConcurrentInsertError extends Error {
  readonly retryWrite = true;
  constructor(what: string, cause: unknown) {
    super(`Another hub process inserted the same ${what} at the same time; the write is retried`, { cause });
  }
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

export function postgresSyncStores(handle: DbHandle): SyncStores {
  const instance = handle.postgres?.syncInstance;
  if (!instance) throw new Error('The PostgreSQL database has no sync_instance yet: open it with migrate first');
  const shared: Shared = { hubOrigin: instance.hubOrigin, shapeIds: new Map(), shapeColumns: new Map(), tableColumns: new Map() };
  const byConnection = new WeakMap<object, SyncStore>();
  const outside = postgresSyncStore(handle.db, shared);
  return {
    origin: instance.origin,
    at(conn) {
      // One store per transaction's connection: the fold (before commit) sees the shapes its work added.
      let store = byConnection.get(conn as object);
      if (!store) byConnection.set(conn as object, (store = postgresSyncStore(conn as Kysely<any>, shared)));
      return store;
    },
    outside,
  };
}

function postgresSyncStore(conn: Kysely<any>, shared: Shared): SyncStore {
  const run = async <R>(text: string, params: readonly unknown[] = []): Promise<R[]> => (await conn.executeQuery<R>(CompiledQuery.raw(text, params as unknown[]))).rows;
  const first = async <R>(text: string, params: readonly unknown[] = []): Promise<R | undefined> => (await run<R>(text, params))[0];
  /** Shapes this transaction added: not committed, so not shared. */
  const ownIds = new Map<string, number>();
  const ownColumns = new Map<number, string[]>();

  async function shapeOf(names: readonly string[]): Promise<number> {
    const text = shapeText(names);
    const known = ownIds.get(text) ?? shared.shapeIds.get(text);
    if (known !== undefined) return known;
    const found = await first<{ id: number }>('SELECT id FROM sync_shapes WHERE columns = $1', [text]);
    if (found) {
      shared.shapeIds.set(text, found.id);
      shared.shapeColumns.set(found.id, parseShape(text));
      return found.id;
    }
    let added: { id: number } | undefined;
    try {
      added = await first<{ id: number }>('INSERT INTO sync_shapes (columns) VALUES ($1) RETURNING id', [text]);
    } catch (error) {
      throw isUniqueViolation(error) ? new ConcurrentInsertError('sync shape', error) : error;
    }
    ownIds.set(text, added!.id);
    ownColumns.set(added!.id, parseShape(text));
    return added!.id;
  }

  const columnsOfShape = (id: number): string[] => {
    const columns = ownColumns.get(id) ?? shared.shapeColumns.get(id);
    if (columns === undefined) throw new Error(`sync shape ${id} was not loaded with its rows`);
    return columns;
  };

  /** A shape's null columns as text, and its columns as keys (for storedChangeJson and its kin). */
  const nullText = (id: number) => nullTextOfColumns(columnsOfShape(id));
  const keysOf = (id: number) => keysOfColumns(columnsOfShape(id));

  /** Loads the shapes `ids` name that neither this transaction nor the process knows yet. */
  async function loadShapes(ids: Iterable<number | null>): Promise<void> {
    const missing = [...new Set(ids)].filter((id): id is number => id !== null && !ownColumns.has(id) && !shared.shapeColumns.has(id));
    if (missing.length === 0) return;
    for (const row of await run<{ id: number; columns: string }>('SELECT id, columns FROM sync_shapes WHERE id = ANY($1::bigint[])', [missing])) {
      shared.shapeColumns.set(row.id, parseShape(row.columns));
      shared.shapeIds.set(row.columns, row.id);
    }
    for (const id of missing) if (!shared.shapeColumns.has(id)) throw new Error(`sync_rows names shape ${id}, which sync_shapes lacks`);
  }

  async function opRows(text: string, params: readonly unknown[]): Promise<OpRow[]> {
    const rows = await run<OpRow>(text, params);
    await loadShapes(rows.flatMap((r) => [r.null_columns, r.change_shape ?? null]));
    return rows;
  }

  async function splitChange(change: Record<string, unknown> | null): Promise<{ json: string | null; nulls: number | null }> {
    if (change === null) return { json: null, nulls: null };
    const nullNames = Object.keys(change).filter((c) => change[c] === null);
    if (nullNames.length === 0) return { json: JSON.stringify(change), nulls: null };
    const rest: Record<string, unknown> = {};
    for (const column in change) if (change[column] !== null) rest[column] = change[column];
    return { json: JSON.stringify(rest), nulls: await shapeOf(nullNames) };
  }

  async function encodeClocks(clocks: Record<string, string>): Promise<{ shape: number; stamps: string; marks: string | null }> {
    const names = Object.keys(clocks);
    return { shape: await shapeOf(names), ...packStamps(names, clocks) };
  }

  const decodeClocks = (row: SyncRowsTable) => unpackStamps(columnsOfShape(row.shape), row.stamps, row.marks);

  async function columnsOf(table: string): Promise<Set<string>> {
    let columns = shared.tableColumns.get(table);
    if (!columns) {
      const rows = await run<{ name: string }>('SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1', [table]);
      columns = new Set(rows.map((r) => r.name));
      shared.tableColumns.set(table, columns);
    }
    return columns;
  }
  const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const where = (pk: readonly string[], from = 1) => pk.map((c, i) => `${ident(c)} = $${i + from}`).join(' AND ');
  const orderBy = (pk: readonly string[]) => pk.map(ident).join(', ');

  async function readInstance(): Promise<SyncInstanceTable> {
    const row = (await first<SyncInstanceTable>('SELECT * FROM sync_instance WHERE id = 1'))!;
    shared.hubOrigin = row.hub_origin;
    return row;
  }

  const store: SyncStore = {
    instance: readInstance,
    // The hub as last read by any statement of this process (pairing sets it; every fold and page reads it).
    hubOriginNow: () => shared.hubOrigin,
    saveClock: async (lastSeq: number, lastHlc: string | null) => void (await run('UPDATE sync_instance SET last_seq = $1, last_hlc = $2 WHERE id = 1', [lastSeq, lastHlc])),
    setHub: async (origin: string | null) => {
      await run('UPDATE sync_instance SET hub_origin = $1 WHERE id = 1', [origin]);
      shared.hubOrigin = origin;
    },
    beginWork: () => undefined,
    pauseCapture: async () => void (await run(`SELECT set_config('${CAPTURE_PAUSED_SETTING}', 'on', true)`)),
    resumeCapture: async () => void (await run(`SELECT set_config('${CAPTURE_PAUSED_SETTING}', 'off', true)`)),
    // The triggers write the key with json_agg's spacing; the op's entity id is the compact JSON SQLite writes.
    captures: async () => (await run<CaptureRow>('SELECT * FROM sync_capture WHERE id > 0 ORDER BY id')).map((c) => ({ ...c, pk: JSON.stringify(JSON.parse(c.pk)) })),
    lastCaptureId: async () => (await first<{ id: number | null }>('SELECT max(id) AS id FROM sync_capture WHERE id > 0'))?.id ?? 0,
    dropCapturesAfter: async (id: number) => void (await run('DELETE FROM sync_capture WHERE id > $1', [id])),
    dropCapturesUpTo: async (id: number) => void (await run('DELETE FROM sync_capture WHERE id > 0 AND id <= $1', [id])),
    async insertOp(op: NewOpRow): Promise<void> {
      const { json, nulls } = op.nulls !== undefined && op.change !== null ? { json: JSON.stringify(op.change), nulls: await shapeOf(op.nulls) } : await splitChange(op.change);
      try {
        await run('INSERT INTO sync_ops (origin, seq, hlc, entity, entity_id, kind, change_json, schema, null_columns, write_continues) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)', [op.origin, op.seq, op.hlc, op.entity, op.entity_id, op.kind, json, op.schema, nulls, op.write_continues ?? null]);
      } catch (error) {
        throw isUniqueViolation(error) ? new ConcurrentInsertError(`op ${op.origin}:${op.seq}`, error) : error;
      }
    },
    /** One at a time: SQLite's store writes these in multi-row statements; the hub rarely catches up. */
    async insertNewRows(rows: readonly NewRowInsert[]): Promise<void> {
      for (const { op, table, pk } of rows) {
        await store.insertOwnNewRows([op]);
        await store.upsertRow(table, pk, op.change, op.nulls);
      }
    },
    /** The op and its row's merge state, one at a time (the hub keeps states in sync_rows only). */
    async insertOwnNewRows(ops: readonly NewOpRow[]): Promise<void> {
      for (const op of ops) {
        await store.insertOp(op);
        await store.saveInsertedRowState(op.entity, op.entity_id, columnsOfChange(op.change, op.nulls), op.hlc);
      }
    },
    async withRowStateAmong(rows: readonly { entity: string; entityId: string }[]): Promise<Set<string>> {
      const found = await run<{ entity: string; entity_id: string }>(
        'SELECT entity, entity_id FROM sync_rows WHERE (entity, entity_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))',
        [rows.map((r) => r.entity), rows.map((r) => r.entityId)],
      );
      return new Set(found.map((r) => `${r.entity} ${r.entity_id}`));
    },
    withRowState: async (entity: string, entityIds: readonly string[]) =>
      new Set((await run<{ entity_id: string }>('SELECT entity_id FROM sync_rows WHERE entity = $1 AND entity_id = ANY($2)', [entity, entityIds])).map((r) => r.entity_id)),
    changeOf: (row: OpRow) => storedChange(row, columnsOfShape),
    changeJsonOf: (row: OpRow) => storedChangeJson(row, nullText, keysOf),
    storedChangeJsonOf: (row: OpRow) => storedObjectJson(row, keysOf),
    changeJsonLengthOf: (row: OpRow) => storedChangeJsonLength(row, nullText, keysOf),
    nullColumnsOf: (row: OpRow): readonly string[] => (row.null_columns === null ? [] : columnsOfShape(row.null_columns)),
    opAt: async (origin: string, seq: number) => (await opRows('SELECT * FROM sync_ops WHERE origin = $1 AND seq = $2', [origin, seq]))[0],
    opsAfter: (arrival: number, limit: number) => opRows('SELECT * FROM sync_ops WHERE arrival > $1 ORDER BY arrival LIMIT $2', [arrival, limit]),
    arrivalOf: async (origin: string, seq: number) => (await first<{ arrival: number }>('SELECT arrival FROM sync_ops WHERE origin = $1 AND seq = $2', [origin, seq]))?.arrival ?? null,
    opsOfEntity: (entity: string, entityId: string) => opRows('SELECT * FROM sync_ops WHERE entity = $1 AND entity_id = $2', [entity, entityId]),
    /** The hub writes every change in the object form (change_shape stays NULL), whatever the entity. */
    async rewriteChange(arrival: number, change: Record<string, unknown> | null): Promise<void> {
      const { json, nulls } = await splitChange(change);
      await run('UPDATE sync_ops SET change_json = $1, null_columns = $2, change_shape = NULL WHERE arrival = $3', [json, nulls, arrival]);
    },
    vector: async () => Object.fromEntries((await run<{ origin: string; seq: number }>('SELECT origin, seq FROM sync_vector')).map((r) => [r.origin, r.seq])) as Record<string, number>,
    setVector: async (origin: string, seq: number) => void (await run('INSERT INTO sync_vector (origin, seq) VALUES ($1, $2) ON CONFLICT (origin) DO UPDATE SET seq = excluded.seq', [origin, seq])),
    async rowState(entity: string, entityId: string): Promise<StoredRowState | null> {
      const row = await first<SyncRowsTable>('SELECT * FROM sync_rows WHERE entity = $1 AND entity_id = $2', [entity, entityId]);
      if (!row) return null;
      await loadShapes([row.shape]);
      return { clocks: decodeClocks(row), born: row.born, deleted: row.deleted, erased: row.erased };
    },
    async saveInsertedRowState(entity: string, entityId: string, columns: string[], stamp: string): Promise<void> {
      await saveRowState(entity, entityId, await shapeOf(columns), columns.length === 0 ? '' : stamp, null, stamp, null, null);
    },
    async saveRowState(entity: string, entityId: string, state: StoredRowState): Promise<void> {
      const { shape, stamps, marks } = await encodeClocks(state.clocks);
      await saveRowState(entity, entityId, shape, stamps, marks, state.born, state.deleted, state.erased);
    },
    hold: async (origin: string, seq: number, opJson: string, reason: string) => void (await run('INSERT INTO sync_held (origin, seq, op_json, reason) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [origin, seq, opJson, reason])),
    heldCount: async () => Number((await first<{ n: number }>('SELECT count(*) AS n FROM sync_held'))!.n),
    held: () => run<{ origin: string; seq: number; op_json: string }>('SELECT s.origin, s.seq, h.op_json FROM sync_held h JOIN sync_ops s ON s.origin = h.origin AND s.seq = h.seq ORDER BY s.arrival'),
    release: async (origin: string, seq: number) => void (await run('DELETE FROM sync_held WHERE origin = $1 AND seq = $2', [origin, seq])),
    purgeJournal: async (customerId: string) => void (await run(`UPDATE op_log SET payload_json = '{"erased":true}' WHERE entity IN ('customer', 'customers') AND entity_id = $1`, [customerId])),
    async customersOfBooking(orderNumber: string): Promise<number[]> {
      const named = await run<{ customer_id: string }>(
        `SELECT DISTINCT change_json::json ->> 'customer_id' AS customer_id FROM sync_ops
          WHERE entity = 'bookings' AND entity_id = $1 AND change_json::json ->> 'customer_id' IS NOT NULL
         UNION SELECT customer_id::text FROM sync_booking_customers WHERE order_number = $2`,
        [JSON.stringify([orderNumber]), orderNumber],
      );
      const ids = new Set(named.map((r) => Number(r.customer_id)));
      const current = (await first<{ customer_id: number | null }>('SELECT customer_id FROM bookings WHERE order_number = $1', [orderNumber]))?.customer_id;
      if (current != null) ids.add(current);
      return [...ids];
    },
    bookingOfParticipant: async (participantId: number) =>
      (await first<{ order_number: string }>('SELECT bi.order_number FROM participants p JOIN booking_items bi ON bi.id = p.item_id WHERE p.id = $1', [participantId]))?.order_number ?? null,
    bookingsOfCustomer: async (customerId: number) =>
      (
        await run<{ order_number: string }>(
          `SELECT order_number FROM bookings WHERE customer_id = $1
           UNION SELECT entity_id::json ->> 0 FROM sync_ops WHERE entity = 'bookings' AND change_json::json ->> 'customer_id' = $2
           UNION SELECT order_number FROM sync_booking_customers WHERE customer_id = $1`,
          [customerId, String(customerId)],
        )
      ).map((r) => r.order_number),
    async linkBookingCustomers(orderNumber: string, customerIds: readonly number[]): Promise<void> {
      for (const id of customerIds) await run('INSERT INTO sync_booking_customers (order_number, customer_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [orderNumber, id]);
    },
    participantsOfBooking: async (orderNumber: string) => (await run<{ id: number }>('SELECT p.id FROM participants p JOIN booking_items bi ON bi.id = p.item_id WHERE bi.order_number = $1', [orderNumber])).map((r) => r.id),
    readRow: async (table: string, pk: readonly string[], key: readonly unknown[]) => (await first<Record<string, unknown>>(`SELECT * FROM ${ident(table)} WHERE ${where(pk)}`, key)) ?? null,
    async upsertRow(table: string, pk: readonly string[], values: Record<string, unknown>, nulls?: readonly string[]): Promise<void> {
      const known = await columnsOf(table);
      const names = columnsOfChange(values, nulls);
      const columns = [...new Set(names)].filter((c) => known.has(c)).sort();
      const updates = columns.filter((c) => !pk.includes(c));
      const args = columns.map((c) => (values[c] === undefined ? null : values[c]));
      await run(
        `INSERT INTO ${ident(table)} (${columns.map(ident).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
         ON CONFLICT (${pk.map(ident).join(', ')}) DO ${updates.length ? `UPDATE SET ${updates.map((c) => `${ident(c)} = excluded.${ident(c)}`).join(', ')}` : 'NOTHING'}`,
        args,
      );
    },
    deleteRow: async (table: string, pk: readonly string[], key: readonly unknown[]) => void (await run(`DELETE FROM ${ident(table)} WHERE ${where(pk)}`, key)),
    rowsPage: (table: string, pk: readonly string[], limit: number, offset: number) => run<Record<string, unknown>>(`SELECT * FROM ${ident(table)} ORDER BY ${orderBy(pk)} LIMIT $1 OFFSET $2`, [limit, offset]),
    allRows: (table: string, pk: readonly string[]) => run<Record<string, unknown>>(`SELECT * FROM ${ident(table)} ORDER BY ${orderBy(pk)}`),
    deferForeignKeys: async () => void (await run('SET CONSTRAINTS ALL DEFERRED')),
  };
  return store;

  async function saveRowState(entity: string, entityId: string, shape: number, stamps: string, marks: string | null, born: string | null, deleted: string | null, erased: string | null): Promise<void> {
    await run(
      `INSERT INTO sync_rows (entity, entity_id, shape, stamps, marks, born, deleted, erased) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (entity, entity_id) DO UPDATE SET shape = excluded.shape, stamps = excluded.stamps, marks = excluded.marks, born = excluded.born, deleted = excluded.deleted, erased = excluded.erased`,
      [entity, entityId, shape, stamps, marks, born, deleted, erased],
    );
  }
}
