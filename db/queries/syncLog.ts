import type BetterSqlite3 from 'better-sqlite3';
import type { SyncCaptureTable, SyncInstanceTable, SyncOpsTable, SyncRowsTable } from '../schema';
import { CAPTURE_PAUSED_ID } from '../syncCapture';

/**
 * The op log, vectors, row merge states and captured changes: prepared once on the shared
 * connection, because sync runs them per op (100,000 ops catching up) inside the caller's
 * IMMEDIATE transaction. Table and column names in the dynamic row statements come only from
 * SQLite's own table_info, never from an op.
 */
export type OpRow = Omit<SyncOpsTable, 'arrival'> & { arrival: number };
/** An op to store: its change as an object (stored without its null columns, see null_columns). */
export type NewOpRow = Omit<OpRow, 'arrival' | 'change_json' | 'null_columns' | 'row_state' | 'write_continues' | 'change_shape'> & {
  change: Record<string, unknown> | null;
  nulls?: readonly string[];
  /** 1: more ops of the same write follow (absent or null: the write's last op). */
  write_continues?: number | null;
};
export type CaptureRow = Required<SyncCaptureTable> & { id: number };
/** sync_ops' columns as an insert binds them (opArgs). */
type OpArgs = [string, number, string, string, string, string, string | null, number, number | null, number | null, number | null];
/** A new row made by one op: the op, and the row it writes (its change, with the op's null columns). */
export interface NewRowInsert {
  op: NewOpRow & { change: Record<string, unknown> };
  table: string;
  pk: readonly string[];
  /** The op's change as its page's value array (WireOp.stored), when it came as one: stored as it is. */
  stored?: StoredValues;
}
/**
 * A change as a value-array page (wire 3) brought it: the values in the order of `columns`, the
 * same content as the op's `change` (main/sync/exchange.ts pullOps builds that from these).
 */
export interface StoredValues {
  columns: readonly string[];
  values: readonly unknown[];
}
/** Rows a multi-row INSERT writes at most (12 columns an op: well under SQLite's 32,766 variables). */
const MULTI_ROW = 100;

/** A row's merge state as stored: field stamps, latest insert, tombstone and erasure. */
export interface StoredRowState {
  clocks: Record<string, string>;
  born: string | null;
  deleted: string | null;
  erased: string | null;
}

/** What a stored op's change is read from: its text, and the shapes of its null columns and of its value array. */
export type StoredChangeRow = Pick<OpRow, 'change_json' | 'null_columns'> & { change_shape?: number | null };

/**
 * A stored op's change as the op had it: the object (or the value array named by its shape,
 * migration 99), its null columns (kept as a shape id) back, after the others.
 */
export function storedChange(row: StoredChangeRow, columnsOfShape: (id: number) => readonly string[]): Record<string, unknown> | null {
  if (row.change_json === null) return null;
  let change: Record<string, unknown>;
  if (row.change_shape == null) change = JSON.parse(row.change_json) as Record<string, unknown>;
  else {
    const values = JSON.parse(row.change_json) as unknown[];
    const columns = columnsOfShape(row.change_shape);
    change = {};
    for (let i = 0; i < columns.length; i++) change[columns[i]] = values[i] ?? null;
  }
  if (row.null_columns !== null) for (const column of columnsOfShape(row.null_columns)) if (!(column in change)) change[column] = null;
  return change;
}

/**
 * The change's stored columns (its null columns left out) as object text: the stored text as it is,
 * or, from a value array, made with `keysOf(shape)` (each column's `"name":`, made once per shape).
 */
export function storedObjectJson(row: StoredChangeRow, keysOf: (id: number) => readonly string[]): string | null {
  if (row.change_json === null) return null;
  if (row.change_shape == null) return row.change_json;
  const values = JSON.parse(row.change_json) as unknown[];
  const keys = keysOf(row.change_shape);
  let text = '{';
  for (let i = 0; i < keys.length; i++) text += `${i === 0 ? '' : ','}${keys[i]}${JSON.stringify(values[i] ?? null)}`;
  return `${text}}`;
}

/** The whole change as JSON text, null columns included (an object form is spliced, not parsed: it was written by JSON.stringify). */
export function storedChangeJson(row: StoredChangeRow, nullText: (id: number) => string, keysOf: (id: number) => readonly string[]): string {
  const object = storedObjectJson(row, keysOf);
  if (object === null) return 'null';
  if (row.null_columns === null) return object;
  const nulls = nullText(row.null_columns);
  if (nulls === '') return object;
  return object === '{}' ? `{${nulls}}` : `${object.slice(0, -1)},${nulls}}`;
}

/**
 * The length of storedChangeJson's text, without making it: a value array's text is its object's
 * with the keys left out (the same values and commas), so adding the keys' lengths gives it exactly.
 */
export function storedChangeJsonLength(row: StoredChangeRow, nullText: (id: number) => string, keysOf: (id: number) => readonly string[]): number {
  if (row.change_json === null) return 4;
  let length = row.change_json.length;
  if (row.change_shape != null) for (const key of keysOf(row.change_shape)) length += key.length;
  const nulls = row.null_columns === null ? '' : nullText(row.null_columns);
  return nulls === '' ? length : length + nulls.length + (length === 2 ? 0 : 1);
}

/** The columns a change names: its values', then the ones it sets to null (a compact change leaves those out). */
export const columnsOfChange = (change: Record<string, unknown> | null, nulls: readonly string[] | undefined): string[] =>
  nulls === undefined ? Object.keys(change ?? {}) : [...Object.keys(change ?? {}), ...nulls];

/** `"name":` for each column of a shape: the keys of a change made from its value array. */
export const keysOfColumns = (columns: readonly string[]): string[] => columns.map((c) => `${JSON.stringify(c)}:`);

/** `"a":null,"b":null` for a shape of null columns: what a change's left-out null columns add to its text. */
export const nullTextOfColumns = (columns: readonly string[]): string => columns.map((c) => `${JSON.stringify(c)}:null`).join(',');

/**
 * A merge state's stamps as sync_rows stores them (migration 92), for the columns `names` in their
 * order: the distinct stamps space-separated, and per column the index of its own (48 + i) in
 * `marks`, unless all share one (marks null). Both stores write and read this one format.
 */
export function packStamps(names: readonly string[], clocks: Record<string, string>): { stamps: string; marks: string | null } {
  const first = names.length === 0 ? '' : clocks[names[0]];
  let uniform = true;
  for (let i = 1; i < names.length && uniform; i++) uniform = clocks[names[i]] === first;
  if (uniform) return { stamps: first, marks: null };
  const stamps: string[] = [];
  let marks = '';
  for (const column of names) {
    let i = stamps.indexOf(clocks[column]);
    if (i === -1) i = stamps.push(clocks[column]) - 1;
    marks += String.fromCharCode(48 + i);
  }
  return { stamps: stamps.join(' '), marks };
}

/** The clocks packStamps stored, per column of the state's shape. */
export function unpackStamps(columns: readonly string[], stamps: string, marks: string | null): Record<string, string> {
  const clocks: Record<string, string> = {};
  if (marks === null) {
    for (const column of columns) clocks[column] = stamps;
  } else {
    const distinct = stamps.split(' ');
    for (let i = 0; i < columns.length; i++) clocks[columns[i]] = distinct[marks.charCodeAt(i) - 48];
  }
  return clocks;
}

/**
 * Ops whose change stays a JSON object in sync_ops: SQL reads into them (a booking's `customer_id`,
 * for erasure: customersInBookingOps, bookingsOfCustomer). Every other entity's change is stored as
 * a value array with the shape of its columns (migration 99).
 */
export const CHANGE_READ_IN_SQL: ReadonlySet<string> = new Set(['bookings']);

/**
 * The columns of sync_ops in the order opRowOf reads them. Read as arrays (better-sqlite3's raw
 * mode) and made into objects here: setting 13 properties per row from C++ cost more than reading the
 * row (about 10 µs against 4 per op a hub serves).
 */
const OP_COLUMNS = 'arrival, origin, seq, hlc, entity, entity_id, kind, change_json, schema, null_columns, row_state, write_continues, change_shape';
type OpColumns = [number, string, number, string, string, string, OpRow['kind'], string | null, number, number | null, number | null, number | null, number | null];
/** A stored op as its row, its stamp whole again (stored without the op's own origin, shortHlc). */
function opRowOf(r: OpColumns): OpRow {
  return {
    arrival: r[0],
    origin: r[1],
    seq: r[2],
    hlc: wholeHlc(r[3], r[1]),
    entity: r[4],
    entity_id: r[5],
    kind: r[6],
    change_json: r[7],
    schema: r[8],
    null_columns: r[9],
    row_state: r[10],
    write_continues: r[11],
    change_shape: r[12],
  };
}

/**
 * An op's stamp without its origin when that is the op's own: as sync_ops stores it (migration 99)
 * and a compact pull page sends it. wholeHlc puts it back.
 */
export function shortHlc(hlc: string, origin: string): string {
  return hlc.length === 23 + origin.length && hlc.charCodeAt(22) === 45 /* - */ && hlc.endsWith(origin) ? hlc.slice(0, 22) : hlc;
}

/** The whole stamp from shortHlc's: a 22-character stamp (time and counter) gets the op's origin back. */
export function wholeHlc(hlc: string, origin: string): string {
  return hlc.length === 22 ? `${hlc}-${origin}` : hlc;
}

/**
 * `names.join(',')`, remembering the last list: a page's ops mostly have one shape, and giving back
 * the same string (its hash already computed) saves the join and the hashing of the map lookup
 * that follows, per op.
 */
function joinLikeLast(): (names: readonly string[]) => string {
  let last: readonly string[] = [];
  let joined = '';
  return (names) => {
    if (names.length === last.length) {
      let same = true;
      for (let i = 0; i < names.length && same; i++) same = names[i] === last[i];
      if (same) return joined;
    }
    last = names;
    joined = names.join(',');
    return joined;
  };
}

export function syncLogQueries(sqlite: BetterSqlite3.Database) {
  const s = {
    instance: sqlite.prepare<[], SyncInstanceTable>('SELECT * FROM sync_instance WHERE id = 1'),
    saveClock: sqlite.prepare<[number, string | null]>('UPDATE sync_instance SET last_seq = ?, last_hlc = ? WHERE id = 1'),
    setHub: sqlite.prepare<[string | null]>('UPDATE sync_instance SET hub_origin = ? WHERE id = 1'),
    captures: sqlite.prepare<[], CaptureRow>('SELECT * FROM sync_capture WHERE id > 0 ORDER BY id'),
    lastCapture: sqlite.prepare<[], { id: number | null }>('SELECT max(id) AS id FROM sync_capture WHERE id > 0'),
    dropCapturesAfter: sqlite.prepare<[number]>('DELETE FROM sync_capture WHERE id > ?'),
    dropCaptures: sqlite.prepare<[number]>('DELETE FROM sync_capture WHERE id > 0 AND id <= ?'),
    pauseCapture: sqlite.prepare<[]>(`INSERT INTO sync_capture (id, tbl, pk) VALUES (${CAPTURE_PAUSED_ID}, '', '')`),
    resumeCapture: sqlite.prepare<[]>(`DELETE FROM sync_capture WHERE id = ${CAPTURE_PAUSED_ID}`),
    insertOp: sqlite.prepare<OpArgs>(
      'INSERT INTO sync_ops (origin, seq, hlc, entity, entity_id, kind, change_json, schema, null_columns, write_continues, change_shape) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    opAt: sqlite.prepare<[string, number], OpColumns>(`SELECT ${OP_COLUMNS} FROM sync_ops WHERE origin = ? AND seq = ?`).raw(true),
    opsFrom: sqlite.prepare<[number, number], OpColumns>(`SELECT ${OP_COLUMNS} FROM sync_ops WHERE arrival > ? ORDER BY arrival LIMIT ?`).raw(true),
    arrivalOf: sqlite.prepare<[string, number], { arrival: number }>('SELECT arrival FROM sync_ops WHERE origin = ? AND seq = ?'),
    opsOfEntity: sqlite.prepare<[string, string], OpColumns>(`SELECT ${OP_COLUMNS} FROM sync_ops WHERE entity = ? AND entity_id = ?`).raw(true),
    rewriteChange: sqlite.prepare<[string | null, number | null, number | null, number]>('UPDATE sync_ops SET change_json = ?, null_columns = ?, change_shape = ? WHERE arrival = ?'),
    vector: sqlite.prepare<[], { origin: string; seq: number }>('SELECT origin, seq FROM sync_vector'),
    setVector: sqlite.prepare<[string, number]>('INSERT INTO sync_vector (origin, seq) VALUES (?, ?) ON CONFLICT (origin) DO UPDATE SET seq = excluded.seq'),
    rowState: sqlite.prepare<[string, string], SyncRowsTable>('SELECT * FROM sync_rows WHERE entity = ? AND entity_id = ?'),
    /** The op that is a row's whole merge state, for a row sync_rows lacks (migration 95). */
    stateOp: sqlite.prepare<[string, string], { origin: string; hlc: string; change_json: string | null; null_columns: number | null; change_shape: number | null }>(
      'SELECT origin, hlc, change_json, null_columns, change_shape FROM sync_ops WHERE entity = ? AND entity_id = ? AND row_state = 1',
    ),
    withRowState: sqlite.prepare<[string, string, string, string], { entity_id: string }>(
      `SELECT entity_id FROM sync_rows WHERE entity = ? AND entity_id IN (SELECT value FROM json_each(?))
       UNION SELECT entity_id FROM sync_ops WHERE entity = ? AND entity_id IN (SELECT value FROM json_each(?)) AND row_state = 1`,
    ),
    hasRowState: sqlite
      .prepare<[string, string, string, string], number>(
        'SELECT 1 FROM sync_rows WHERE entity = ? AND entity_id = ? UNION ALL SELECT 1 FROM (SELECT 1 FROM sync_ops WHERE entity = ? AND entity_id = ? AND row_state = 1 LIMIT 1)',
      )
      .pluck(),
    saveRowState: sqlite.prepare<[string, string, number, string, string | null, string | null, string | null, string | null]>(
      `INSERT INTO sync_rows (entity, entity_id, shape, stamps, marks, born, deleted, erased) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (entity, entity_id) DO UPDATE SET shape = excluded.shape, stamps = excluded.stamps, marks = excluded.marks, born = excluded.born, deleted = excluded.deleted, erased = excluded.erased`,
    ),
    shapeByColumns: sqlite.prepare<[string], { id: number }>('SELECT id FROM sync_shapes WHERE columns = ?'),
    shapeById: sqlite.prepare<[number], { columns: string }>('SELECT columns FROM sync_shapes WHERE id = ?'),
    addShape: sqlite.prepare<[string], { id: number }>('INSERT INTO sync_shapes (columns) VALUES (?) RETURNING id'),
    hold: sqlite.prepare<[string, number, string, string]>('INSERT OR IGNORE INTO sync_held (origin, seq, op_json, reason) VALUES (?, ?, ?, ?)'),
    heldCount: sqlite.prepare<[], { n: number }>('SELECT count(*) AS n FROM sync_held'),
    held: sqlite.prepare<[], { origin: string; seq: number; op_json: string }>('SELECT s.origin, s.seq, h.op_json FROM sync_held h JOIN sync_ops s ON s.origin = h.origin AND s.seq = h.seq ORDER BY s.arrival'),
    release: sqlite.prepare<[string, number]>('DELETE FROM sync_held WHERE origin = ? AND seq = ?'),
    customerOfBooking: sqlite.prepare<[string], { customer_id: number | null }>('SELECT customer_id FROM bookings WHERE order_number = ?'),
    /**
     * Every customer a booking's ops ever named: a booking edited away from its customer still holds
     * what they wrote. An instance that joined from a snapshot has no ops from before it: the
     * snapshot's list of the booking's customers stands for them (sync_booking_customers).
     */
    customersInBookingOps: sqlite.prepare<[string, string], { customer_id: number }>(
      `SELECT DISTINCT json_extract(change_json, '$.customer_id') AS customer_id FROM sync_ops
        WHERE entity = 'bookings' AND entity_id = ? AND json_extract(change_json, '$.customer_id') IS NOT NULL
       UNION SELECT customer_id FROM sync_booking_customers WHERE order_number = ?`,
    ),
    linkBookingCustomer: sqlite.prepare<[string, number]>('INSERT OR IGNORE INTO sync_booking_customers (order_number, customer_id) VALUES (?, ?)'),
    bookingOfParticipant: sqlite.prepare<[number], { order_number: string }>(
      'SELECT bi.order_number FROM participants p JOIN booking_items bi ON bi.id = p.item_id WHERE p.id = ?',
    ),
    bookingsOfCustomer: sqlite.prepare<[number, number, number], { order_number: string }>(
      `SELECT order_number FROM bookings WHERE customer_id = ?
       UNION SELECT json_extract(entity_id, '$[0]') FROM sync_ops WHERE entity = 'bookings' AND json_extract(change_json, '$.customer_id') = ?
       UNION SELECT order_number FROM sync_booking_customers WHERE customer_id = ?`,
    ),
    participantsOfBooking: sqlite.prepare<[string], { id: number }>(
      'SELECT p.id FROM participants p JOIN booking_items bi ON bi.id = p.item_id WHERE bi.order_number = ?',
    ),
    /** Prepared once: sqlite.pragma() prepares its statement on every call, and every page runs this. */
    deferForeignKeys: sqlite.prepare<[]>('PRAGMA defer_foreign_keys = ON'),
    purgeJournal: sqlite.prepare<[string]>(`UPDATE op_log SET payload_json = '{"erased":true}' WHERE entity IN ('customer', 'customers') AND entity_id = ?`),
  };
  const columnCache = new Map<string, Set<string>>();
  const notNullCache = new Map<string, Set<string>>();
  const rowStatements = new Map<string, BetterSqlite3.Statement>();
  const columnsOf = (table: string) => {
    let columns = columnCache.get(table);
    if (!columns) {
      const info = sqlite.prepare<[string], { name: string; notnull: number }>('SELECT name, "notnull" FROM pragma_table_info(?)').all(table);
      columns = new Set(info.map((r) => r.name));
      columnCache.set(table, columns);
      notNullCache.set(table, new Set(info.filter((r) => r.notnull === 1).map((r) => r.name)));
    }
    return columns;
  };
  const statement = (key: string, build: () => string) => {
    let st = rowStatements.get(key);
    if (!st) {
      st = sqlite.prepare(build());
      rowStatements.set(key, st);
    }
    return st;
  };
  const upserts = new Map<string, Map<string, UpsertPlan>>();
  const joinUpsert = joinLikeLast();
  const joinColumns = joinLikeLast();
  // Stamped columns and null columns alternate per op: each kind keeps its own last list.
  const joinNulls = joinLikeLast();
  const joinChange = joinLikeLast();
  const where = (pk: readonly string[]) => pk.map((c) => `"${c}" = ?`).join(' AND ');

  /**
   * Shapes by columns and by id. A shape read from sync_shapes that this connection did not add
   * itself is committed (another writer's uncommitted rows are invisible here) and never changes, so
   * it is kept; one this connection added is kept only until the next transaction begins
   * (`beginWork`), since that transaction may have rolled back and the id be reused for other
   * columns, also by another process writing the same file. Then it is read again.
   */
  const shapeIds = new Map<string, number>();
  const shapeColumns = new Map<number, string[]>();
  const addedHere = new Set<number>();
  const shapeOf = (columns: string): number => {
    let id = shapeIds.get(columns);
    if (id === undefined) {
      id = s.shapeByColumns.get(columns)?.id;
      if (id === undefined) {
        id = s.addShape.get(columns)!.id;
        addedHere.add(id);
      }
      shapeIds.set(columns, id);
    }
    return id;
  };
  const columnsOfShape = (id: number): string[] => {
    let columns = shapeColumns.get(id);
    if (columns === undefined) {
      const text = s.shapeById.get(id)?.columns;
      if (text === undefined) throw new Error(`sync_rows names shape ${id}, which sync_shapes lacks`);
      columns = text === '' ? [] : text.startsWith('[') ? (JSON.parse(text) as string[]) : text.split(',');
      shapeColumns.set(id, columns);
    }
    return columns;
  };
  /**
   * Shapes by their columns comma-joined, for column lists without a comma in any name (those
   * come only from a peer's op, and take the slow path below): such a list is the only one of its
   * length that joins to its text, so the cached id is exact.
   */
  const plainShapes = new Map<string, { id: number; length: number }>();
  const forgetShapesAddedHere = () => {
    if (addedHere.size === 0) return;
    for (const [columns, id] of shapeIds) if (addedHere.has(id)) shapeIds.delete(columns);
    for (const [joined, shape] of plainShapes) if (addedHere.has(shape.id)) plainShapes.delete(joined);
    for (const id of addedHere) shapeColumns.delete(id);
    addedHere.clear();
    nullTexts.clear();
    changeKeys.clear();
  };

  function shapeOfColumns(names: string[], join = joinColumns): number {
    const joined = join(names);
    const cached = plainShapes.get(joined);
    if (cached !== undefined && cached.length === names.length) return cached.id;
    const plain = !names.some((c) => c.includes(',')) && !joined.startsWith('[');
    const id = shapeOf(plain ? joined : JSON.stringify(names));
    if (plain) plainShapes.set(joined, { id, length: names.length });
    return id;
  }

  /**
   * A change as stored: its non-null columns (an object for CHANGE_READ_IN_SQL's entities, else their
   * values as an array and the shape of their columns), and the shape of the null ones (or null).
   * `knownNulls`: the null columns the change leaves out already (a compact page's op).
   */
  function encodeChange(entity: string, change: Record<string, unknown> | null, knownNulls?: readonly string[]): { json: string | null; nulls: number | null; shape: number | null } {
    if (change === null) return { json: null, nulls: null, shape: null };
    let nullNames: string[] | null = null;
    const names: string[] = [];
    const values: unknown[] = [];
    for (const column in change) {
      const value = change[column];
      if (value === null && knownNulls === undefined) (nullNames ??= []).push(column);
      else {
        names.push(column);
        values.push(value);
      }
    }
    const nulls = knownNulls !== undefined ? shapeOfColumns(knownNulls as string[], joinNulls) : nullNames === null ? null : shapeOfColumns(nullNames, joinNulls);
    if (names.length === 0 || CHANGE_READ_IN_SQL.has(entity)) {
      if (nullNames === null) return { json: JSON.stringify(change), nulls, shape: null };
      const rest: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) rest[names[i]] = values[i];
      return { json: JSON.stringify(rest), nulls, shape: null };
    }
    return { json: JSON.stringify(values), nulls, shape: shapeOfColumns(names, joinChange) };
  }

  /** `"name":` per column of a change's shape, made once per shape. */
  const changeKeys = new Map<number, string[]>();
  function keysOf(id: number): string[] {
    let keys = changeKeys.get(id);
    if (keys === undefined) {
      keys = keysOfColumns(columnsOfShape(id));
      if (!addedHere.has(id)) changeKeys.set(id, keys);
    }
    return keys;
  }

  /** `"a":null,"b":null` for a shape of null columns, made once per shape. */
  const nullTexts = new Map<number, string>();
  function nullText(id: number): string {
    let text = nullTexts.get(id);
    if (text === undefined) {
      text = nullTextOfColumns(columnsOfShape(id));
      if (!addedHere.has(id)) nullTexts.set(id, text);
    }
    return text;
  }

  function encodeClocks(clocks: Record<string, string>): { shape: number; stamps: string; marks: string | null } {
    const names = Object.keys(clocks);
    return { shape: shapeOfColumns(names), ...packStamps(names, clocks) };
  }

  const decodeClocks = (row: SyncRowsTable) => unpackStamps(columnsOfShape(row.shape), row.stamps, row.marks);

  interface UpsertPlan {
    key: string;
    one: BetterSqlite3.Statement;
    columns: string[];
    length: number;
    split: number;
    argsOf(values: Record<string, unknown>): unknown[];
    sql(rows: number): string;
  }
  /**
   * The upsert of a row with these columns. Keyed by the values' own column order, so a row of a
   * known shape costs no filter or sort. `nulls`: more columns, set to null (a compact op's change
   * leaves them out).
   */
  function upsertPlan(table: string, pk: readonly string[], values: Record<string, unknown>, nulls?: readonly string[]): UpsertPlan {
    const names = columnsOfChange(values, nulls);
    const byTable = upserts.get(table) ?? upserts.set(table, new Map()).get(table)!;
    const key = joinUpsert(names);
    let plan = byTable.get(key);
    // The same list can be split in two ways (which of its columns are `nulls`): the split is part of the plan.
    const split = names.length - (nulls?.length ?? 0);
    if (!plan || plan.length !== names.length || plan.split !== split) {
      const known = columnsOf(table);
      const notNull = notNullCache.get(table)!;
      // The `nulls` columns are not bound per row: a new row leaves them NULL by being silent on
      // them, and a row already there is set to NULL by the update (17 of a customer's 26 columns,
      // bound as NULL per op of a catch-up, were a fifth of its row write). A NOT NULL column stays
      // bound, so NULL there fails as before instead of taking the column's default.
      const nullOnly = new Set(nulls === undefined ? [] : nulls.filter((c) => known.has(c) && !(c in values) && !pk.includes(c) && !notNull.has(c)));
      const columns = names.filter((c) => known.has(c) && !nullOnly.has(c)).sort();
      const sets = [...columns.filter((c) => !pk.includes(c)).map((c) => `"${c}" = excluded."${c}"`), ...[...nullOnly].sort().map((c) => `"${c}" = NULL`)];
      const row = `(${columns.map(() => '?').join(', ')})`;
      const sql = (rows: number) =>
        `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}
         ON CONFLICT (${pk.map((c) => `"${c}"`).join(', ')}) DO ${sets.length ? `UPDATE SET ${sets.join(', ')}` : 'NOTHING'}`;
      const argsOf = (v: Record<string, unknown>) => {
        const args = new Array<unknown>(columns.length);
        for (let i = 0; i < args.length; i++) {
          const value = v[columns[i]];
          args[i] = value === undefined ? null : value;
        }
        return args;
      };
      const planKey = `u:${table}:${columns.join(',')}|${[...nullOnly].sort().join(',')}`;
      plan = { key: planKey, one: statement(planKey, () => sql(1)), columns, length: names.length, split, argsOf, sql };
      // As with shapes: only a list without commas in its names is the one list its key names.
      if (!names.some((c) => c.includes(','))) byTable.set(key, plan);
    }
    return plan;
  }

  /**
   * A row's arguments for a plan, from a page's value array (NewRowInsert.stored) instead of the
   * change object: where each of the plan's columns is in the array is worked out once per list of
   * columns and plan (the last of a repeated column, as the change object has it; none: NULL).
   */
  const valueIndexes = new WeakMap<readonly string[], Map<string, number[]>>();
  function argsOfValues(plan: UpsertPlan, stored: { columns: readonly string[]; values: readonly unknown[] }): unknown[] {
    let byPlan = valueIndexes.get(stored.columns);
    if (byPlan === undefined) valueIndexes.set(stored.columns, (byPlan = new Map()));
    let indexes = byPlan.get(plan.key);
    if (indexes === undefined) byPlan.set(plan.key, (indexes = plan.columns.map((c) => stored.columns.lastIndexOf(c))));
    const args = new Array<unknown>(indexes.length);
    for (let i = 0; i < indexes.length; i++) {
      const value = indexes[i] === -1 ? undefined : stored.values[indexes[i]];
      args[i] = value === undefined ? null : value;
    }
    return args;
  }

  /**
   * Runs one INSERT of many rows (`sql(n)`: the statement for n rows) over `rows` (each its
   * arguments), MULTI_ROW rows a statement: one statement's fixed cost (bind, step, reset, the
   * call into SQLite) for many rows, where a catch-up would pay it per row, three times per op.
   */
  function insertMany(key: string, sql: (rows: number) => string, rows: readonly unknown[][]): void {
    for (let from = 0; from < rows.length; from += MULTI_ROW) {
      const n = Math.min(MULTI_ROW, rows.length - from);
      let length = 0;
      for (let i = from; i < from + n; i++) length += rows[i].length;
      const args = new Array<unknown>(length);
      let at = 0;
      for (let i = from; i < from + n; i++) {
        const row = rows[i];
        for (let j = 0; j < row.length; j++) args[at++] = row[j];
      }
      statement(`${key}#${n}`, () => sql(n)).run(args);
    }
  }
  /** Ops that are their rows' whole merge state (row_state = 1, migration 95). */
  const stateOpsSql = (rows: number) =>
    `INSERT INTO sync_ops (origin, seq, hlc, entity, entity_id, kind, change_json, schema, null_columns, write_continues, change_shape, row_state) VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)').join(', ')}`;

  /**
   * An op as sync_ops stores it: its change without null columns (which a shape names), its stamp
   * without its origin. `stored`: the change as a page's value array, with its null columns named
   * (op.nulls): what encodeChange would make of it, so it is stored as it is.
   */
  function opArgs(op: NewOpRow, stored?: NewRowInsert['stored']): OpArgs {
    if (stored !== undefined && op.nulls !== undefined && stored.columns.length > 0 && !CHANGE_READ_IN_SQL.has(op.entity)) {
      const nulls = shapeOfColumns(op.nulls as string[], joinNulls);
      const shape = shapeOfColumns(stored.columns as string[], joinChange);
      return [op.origin, op.seq, shortHlc(op.hlc, op.origin), op.entity, op.entity_id, op.kind, JSON.stringify(stored.values), op.schema, nulls, op.write_continues ?? null, shape];
    }
    const { json, nulls, shape } = encodeChange(op.entity, op.change, op.change === null ? undefined : op.nulls);
    return [op.origin, op.seq, shortHlc(op.hlc, op.origin), op.entity, op.entity_id, op.kind, json, op.schema, nulls, op.write_continues ?? null, shape];
  }

  return {
    instance: () => s.instance.get()!,
    /** The hub whose catalogue this instance follows, as it stands (answered at once on both dialects). */
    hubOriginNow: () => s.instance.get()!.hub_origin,
    saveClock: (lastSeq: number, lastHlc: string | null) => void s.saveClock.run(lastSeq, lastHlc),
    setHub: (origin: string | null) => void s.setHub.run(origin),
    /** Called at the start of the replica's work in each transaction (see shapeIds). */
    beginWork: forgetShapesAddedHere,
    /** The capture triggers record nothing until `resumeCapture`, in this transaction (see CAPTURE_PAUSED_ID). */
    pauseCapture: () => void s.pauseCapture.run(),
    resumeCapture: () => void s.resumeCapture.run(),
    captures: () => s.captures.all(),
    lastCaptureId: () => s.lastCapture.get()?.id ?? 0,
    dropCapturesAfter: (id: number) => void s.dropCapturesAfter.run(id),
    dropCapturesUpTo: (id: number) => void s.dropCaptures.run(id),
    /** Stores an op; `nulls`, when given, names the columns its change sets to null and leaves out. */
    insertOp(op: NewOpRow): void {
      s.insertOp.run(...opArgs(op));
    },
    /**
     * New rows, each made by one op (a remote insert of a row with no merge state here): the ops in
     * this order (their arrival), marked as their rows' merge state (every column stamped by the op,
     * born then: what saveInsertedRowState would write to sync_rows, said once, by the op), and the
     * rows, as upsertRow would, in a few multi-row statements. The caller has checked that none has
     * a merge state, and that no two are one row.
     */
    insertNewRows(rows: readonly NewRowInsert[]): void {
      insertMany('state-ops', stateOpsSql, rows.map((r) => opArgs(r.op, r.stored)));
      // Consecutive rows of one table and column list share a statement.
      for (let from = 0; from < rows.length; ) {
        const first = rows[from];
        const plan = upsertPlan(first.table, first.pk, first.op.change, first.op.nulls);
        const args: unknown[][] = [];
        let to = from;
        for (; to < rows.length; to++) {
          const row = rows[to];
          if (row.table !== first.table) break;
          // A page's ops of one shape share its lists (the same arrays): the same plan, without making it again.
          const sameLists = row.stored !== undefined && row.stored.columns === first.stored?.columns && row.op.nulls === first.op.nulls;
          if (to !== from && !sameLists && upsertPlan(row.table, row.pk, row.op.change, row.op.nulls) !== plan) break;
          args.push(row.stored === undefined ? plan.argsOf(row.op.change) : argsOfValues(plan, row.stored));
        }
        insertMany(plan.key, plan.sql, args);
        from = to;
      }
    },
    /**
     * This instance's inserts of rows with no merge state, the rows already written by the write
     * being folded: the ops in this order, each marked as its row's merge state (as insertNewRows
     * marks a remote one). The caller has checked that none has a merge state.
     */
    insertOwnNewRows(ops: readonly NewOpRow[]): void {
      insertMany('state-ops', stateOpsSql, ops.map((op) => opArgs(op)));
    },
    /** Which of these rows of one entity have a merge state (one statement for a page's rows). */
    withRowState(entity: string, entityIds: readonly string[]): Set<string> {
      const ids = JSON.stringify(entityIds);
      return new Set(s.withRowState.all(entity, ids, entity, ids).map((r) => r.entity_id));
    },
    /** Which of these rows, of any entities, have a merge state (a write's new rows): `entity entityId` each. */
    withRowStateAmong(rows: readonly { entity: string; entityId: string }[]): Set<string> {
      // A key lookup or two per row: a write has a few rows, and one statement over a JSON list of
      // them (json_each, a temporary B-tree per side) cost more than these together.
      const found = new Set<string>();
      for (const { entity, entityId } of rows) if (s.hasRowState.get(entity, entityId, entity, entityId) !== undefined) found.add(`${entity} ${entityId}`);
      return found;
    },
    /** A stored op's change as the op had it (its null columns back, after the others). */
    changeOf: (row: OpRow) => storedChange(row, columnsOfShape),
    /** The same as JSON text, without parsing the stored text (it was written by JSON.stringify). */
    changeJsonOf: (row: OpRow) => storedChangeJson(row, nullText, keysOf),
    /** changeJsonOf(row).length, without making the text (a page's byte count). */
    changeJsonLengthOf: (row: OpRow) => storedChangeJsonLength(row, nullText, keysOf),
    /** The change's stored columns as object text, its null columns left out (nullColumnsOf names them); null for a delete. */
    storedChangeJsonOf: (row: OpRow) => storedObjectJson(row, keysOf),
    /** The columns a stored op's change set to null (left out of its change_json), or none. */
    nullColumnsOf: (row: OpRow): readonly string[] => (row.null_columns === null ? [] : columnsOfShape(row.null_columns)),
    opAt: (origin: string, seq: number): OpRow | undefined => {
      const row = s.opAt.get(origin, seq);
      return row && opRowOf(row);
    },
    opsAfter: (arrival: number, limit: number): OpRow[] => s.opsFrom.all(arrival, limit).map(opRowOf),
    arrivalOf: (origin: string, seq: number) => s.arrivalOf.get(origin, seq)?.arrival ?? null,
    opsOfEntity: (entity: string, entityId: string): OpRow[] => s.opsOfEntity.all(entity, entityId).map(opRowOf),
    /** Replaces a stored op's change (erasure); `entity`: the op's (it decides the form, CHANGE_READ_IN_SQL). */
    rewriteChange(arrival: number, change: Record<string, unknown> | null, entity: string): void {
      const { json, nulls, shape } = encodeChange(entity, change);
      s.rewriteChange.run(json, nulls, shape, arrival);
    },
    vector: () => Object.fromEntries(s.vector.all().map((r) => [r.origin, r.seq])) as Record<string, number>,
    setVector: (origin: string, seq: number) => void s.setVector.run(origin, seq),
    rowState(entity: string, entityId: string): StoredRowState | null {
      const row = s.rowState.get(entity, entityId);
      if (row) return { clocks: decodeClocks(row), born: row.born, deleted: row.deleted, erased: row.erased };
      // A row one remote insert made: its state is that op (insertNewRows), the same saveInsertedRowState would have written.
      const op = s.stateOp.get(entity, entityId);
      if (!op) return null;
      const stamp = wholeHlc(op.hlc, op.origin);
      const clocks: Record<string, string> = {};
      if (op.change_json !== null) for (const column of op.change_shape === null ? Object.keys(JSON.parse(op.change_json) as Record<string, unknown>) : columnsOfShape(op.change_shape)) clocks[column] = stamp;
      if (op.null_columns !== null) for (const column of columnsOfShape(op.null_columns)) clocks[column] = stamp;
      return { clocks, born: stamp, deleted: null, erased: null };
    },
    /** The state of a row one insert made: every column it wrote has its stamp, and it was born then. */
    saveInsertedRowState(entity: string, entityId: string, columns: string[], stamp: string): void {
      s.saveRowState.run(entity, entityId, shapeOfColumns(columns), columns.length === 0 ? '' : stamp, null, stamp, null, null);
    },
    saveRowState(entity: string, entityId: string, state: StoredRowState): void {
      const { shape, stamps, marks } = encodeClocks(state.clocks);
      s.saveRowState.run(entity, entityId, shape, stamps, marks, state.born, state.deleted, state.erased);
    },
    hold: (origin: string, seq: number, opJson: string, reason: string) => void s.hold.run(origin, seq, opJson, reason),
    heldCount: () => s.heldCount.get()!.n,
    /** Held ops in arrival order (the order they would have been applied in). */
    held: () => s.held.all(),
    release: (origin: string, seq: number) => void s.release.run(origin, seq),
    purgeJournal: (customerId: string) => void s.purgeJournal.run(customerId),
    /** The booking's customer now and every customer its ops ever named (an edit can clear or change the link). */
    customersOfBooking(orderNumber: string): number[] {
      const ids = new Set(s.customersInBookingOps.all(JSON.stringify([orderNumber]), orderNumber).map((r) => Number(r.customer_id)));
      const current = s.customerOfBooking.get(orderNumber)?.customer_id;
      if (current != null) ids.add(current);
      return [...ids];
    },
    bookingOfParticipant: (participantId: number) => s.bookingOfParticipant.get(participantId)?.order_number ?? null,
    /** Bookings that hold or ever held this customer. */
    bookingsOfCustomer: (customerId: number) => s.bookingsOfCustomer.all(customerId, customerId, customerId).map((r) => r.order_number),
    /** Records that a booking held these customers (a snapshot's word for the ops it does not carry). */
    linkBookingCustomers(orderNumber: string, customerIds: readonly number[]): void {
      for (const id of customerIds) s.linkBookingCustomer.run(orderNumber, id);
    },
    participantsOfBooking: (orderNumber: string) => s.participantsOfBooking.all(orderNumber).map((r) => r.id),
    /** The current row of a synced table, or null. */
    readRow(table: string, pk: readonly string[], key: readonly unknown[]): Record<string, unknown> | null {
      return (statement(`r:${table}`, () => `SELECT * FROM "${table}" WHERE ${where(pk)}`).get(...key) as Record<string, unknown> | undefined) ?? null;
    },
    /** Writes a whole row (insert or replace its columns); columns this schema lacks are left out. */
    upsertRow(table: string, pk: readonly string[], values: Record<string, unknown>, nulls?: readonly string[]): void {
      const plan = upsertPlan(table, pk, values, nulls);
      plan.one.run(plan.argsOf(values));
    },
    deleteRow(table: string, pk: readonly string[], key: readonly unknown[]): void {
      statement(`d:${table}`, () => `DELETE FROM "${table}" WHERE ${where(pk)}`).run(...key);
    },
    /** A page of a table's rows in key order (a snapshot for a joining instance). */
    rowsPage(table: string, pk: readonly string[], limit: number, offset: number): Record<string, unknown>[] {
      return statement(`p:${table}`, () => `SELECT * FROM "${table}" ORDER BY ${pk.map((c) => `"${c}"`).join(', ')} LIMIT ? OFFSET ?`).all(limit, offset) as Record<string, unknown>[];
    },
    /** Every row of a table in key order (canonical dumps, snapshots). */
    allRows(table: string, pk: readonly string[]): Record<string, unknown>[] {
      return sqlite.prepare(`SELECT * FROM "${table}" ORDER BY ${pk.map((c) => `"${c}"`).join(', ')}`).all() as Record<string, unknown>[];
    },
    deferForeignKeys: () => void s.deferForeignKeys.run(),
  };
}

export type SyncLogQueries = ReturnType<typeof syncLogQueries>;

/**
 * The op log as the replica (main/sync/replica.ts) uses it on either dialect: one algorithm over this
 * interface. SQLite's store answers at once (the prepared statements above: a catch-up runs them
 * per op, and an await of a plain value costs next to nothing); PostgreSQL's (db/postgres/syncLog.ts)
 * answers with promises. What must answer at once on both: reading a stored op's change (its
 * shapes are loaded with the rows) and the hub the instance follows (a cache on PostgreSQL).
 */
type AnswersAtOnce = 'changeOf' | 'changeJsonOf' | 'changeJsonLengthOf' | 'storedChangeJsonOf' | 'nullColumnsOf' | 'hubOriginNow' | 'beginWork';
export type SyncStore = {
  [K in keyof SyncLogQueries]: K extends AnswersAtOnce ? SyncLogQueries[K] : SyncLogQueries[K] extends (...args: infer A) => infer R ? (...args: A) => R | Promise<R> : never;
};

/** Where the replica finds its store: per write transaction's connection, and for reads outside one. */
export interface SyncStores {
  /** This instance's origin (fixed when its database was made). */
  origin: string;
  /** The store for a write transaction's connection (`conn` as inWriteTransaction gives it). */
  at(conn: unknown): SyncStore;
  /** The store for reads outside a write transaction (pages served, vectors, dumps). */
  outside: SyncStore;
}

/** SQLite: one connection, so one store, its statements prepared once. */
export function sqliteSyncStores(sqlite: BetterSqlite3.Database): SyncStores {
  const store = syncLogQueries(sqlite);
  return { origin: store.instance().origin, at: () => store, outside: store };
}
