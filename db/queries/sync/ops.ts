import type BetterSqlite3 from 'better-sqlite3';
import type { HeldOp, NewOpRow, NewRowInsert, OpRow, SqliteSyncStore } from '../../syncStore';
import { CHANGE_READ_IN_SQL, shortHlc, storedChange, storedChangeJson, storedChangeJsonLength, storedObjectJson, wholeHlc } from '../../syncEncoding';
import type { SqliteRowKeys } from './rowKeys';
import type { SqliteRowPlans } from './rows';
import type { SqliteShapes } from './shapes';

/** sync_op_rows' columns as an insert binds them (opArgs): origin and entity as numbers, the key as rowKeys.ts keys it. */
type OpArgs = [number, number, string, number, number, number, string, string, string | null, number, number | null, number | null, number | null];

/**
 * The columns of sync_op_rows in the order opRowOf reads them. Read as arrays (better-sqlite3's raw
 * mode) and made into objects here: setting 13 properties per row from C++ cost more than reading the
 * row (about 10 µs against 4 per op a hub serves).
 */
const OP_COLUMNS = 'arrival, origin, seq, hlc, entity, k1, k2, key, kind, change_json, schema, null_columns, row_state, write_continues, change_shape';
type OpColumns = [number, number, number, string, number, number, number, string, OpRow['kind'], string | null, number, number | null, number | null, number | null, number | null];

/** The columns an insert writes, in opArgs' order (row_state last, set by the statement). */
const INSERT_COLUMNS = 'origin, seq, hlc, entity, k1, k2, key, kind, change_json, schema, null_columns, write_continues, change_shape';

/** Ops that are their rows' whole merge state (row_state = 1, migration 95). */
const stateOpsSql = (rows: number) =>
  `INSERT INTO sync_op_rows (${INSERT_COLUMNS}, row_state) VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)').join(', ')}`;

type SqliteOps = Pick<
  SqliteSyncStore,
  | 'insertOp' | 'insertNewRows' | 'insertOwnNewRows' | 'changeOf' | 'changeJsonOf' | 'changeJsonLengthOf' | 'storedChangeJsonOf' | 'nullColumnsOf'
  | 'opAt' | 'opsAfter' | 'arrivalOf' | 'opsOfEntity' | 'rewriteChange'
>;

/**
 * The op log on SQLite: sync_op_rows, keyed by numbers (migration 20261206_31; `keys` turns names
 * into numbers and back). The sync_ops view shows the same rows by name, for readers not per op.
 */
export function sqliteOps(sqlite: BetterSqlite3.Database, shapes: SqliteShapes, rows: SqliteRowPlans, keys: SqliteRowKeys): SqliteOps {
  const s = {
    insertOp: sqlite.prepare<OpArgs>(`INSERT INTO sync_op_rows (${INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    opAt: sqlite.prepare<[number, number], OpColumns>(`SELECT ${OP_COLUMNS} FROM sync_op_rows WHERE origin = ? AND seq = ?`).raw(true),
    opsFrom: sqlite.prepare<[number, number], OpColumns>(`SELECT ${OP_COLUMNS} FROM sync_op_rows WHERE arrival > ? ORDER BY arrival LIMIT ?`).raw(true),
    arrivalOf: sqlite.prepare<[number, number], { arrival: number }>('SELECT arrival FROM sync_op_rows WHERE origin = ? AND seq = ?'),
    opsOfEntity: sqlite.prepare<[number, number, number, string], OpColumns>(`SELECT ${OP_COLUMNS} FROM sync_op_rows WHERE entity = ? AND k1 = ? AND k2 = ? AND key = ? ORDER BY arrival`).raw(true),
    rewriteChange: sqlite.prepare<[string | null, number | null, number | null, number]>('UPDATE sync_op_rows SET change_json = ?, null_columns = ?, change_shape = ? WHERE arrival = ?'),
  };
  /** A stored op as its row: names again, its stamp whole (stored without the op's own origin, shortHlc). */
  const opRowOf = (r: OpColumns): OpRow => {
    const origin = keys.originName(r[1]);
    return {
      arrival: r[0],
      origin,
      seq: r[2],
      hlc: wholeHlc(r[3], origin),
      entity: keys.entityName(r[4]),
      entity_id: keys.entityIdOf({ entity: r[4], k1: r[5], k2: r[6], key: r[7] }),
      kind: r[8],
      change_json: r[9],
      schema: r[10],
      null_columns: r[11],
      row_state: r[12],
      write_continues: r[13],
      change_shape: r[14],
    };
  };
  /** An op's origin and key as numbers, given numbers if new (an insert's). */
  const numbersOf = (op: NewOpRow): [number, number, number, number, string] => {
    const key = keys.keyOf(op.entity, op.entity_id, true)!;
    return [keys.originNo(op.origin, true)!, key.entity, key.k1, key.k2, key.key];
  };
  const { columnsOfShape, keysOf, nullText } = shapes;
  /** The last null columns' and value array's lists opArgs looked up, and their shapes (see insertNewRows). */
  let last: { nulls: readonly string[] | null; nullsShape: number; columns: readonly string[] | null; valuesShape: number } = { nulls: null, nullsShape: 0, columns: null, valuesShape: 0 };

  /**
   * An op as sync_ops stores it: its change without null columns (which a shape names), its stamp
   * without its origin. `stored`: the change as a page's value array, with its null columns named
   * (op.nulls): what encodeChange would make of it, so it is stored as it is.
   */
  function opArgs(op: NewOpRow, stored?: NewRowInsert['stored']): OpArgs {
    if (stored !== undefined && op.nulls !== undefined && stored.columns.length > 0 && !CHANGE_READ_IN_SQL.has(op.entity)) {
      // A page's ops of one shape share its lists (the same arrays): their shapes are looked up once.
      if (op.nulls !== last.nulls) last.nullsShape = shapes.shapeOfNulls((last.nulls = op.nulls) as string[]);
      if (stored.columns !== last.columns) last.valuesShape = shapes.shapeOfValues((last.columns = stored.columns) as string[]);
      const nulls = last.nullsShape;
      const shape = last.valuesShape;
      const [origin, entity, k1, k2, key] = numbersOf(op);
      return [origin, op.seq, shortHlc(op.hlc, op.origin), entity, k1, k2, key, op.kind, JSON.stringify(stored.values), op.schema, nulls, op.write_continues ?? null, shape];
    }
    const { json, nulls, shape } = shapes.encodeChange(op.entity, op.change, op.change === null ? undefined : op.nulls);
    const [origin, entity, k1, k2, key] = numbersOf(op);
    return [origin, op.seq, shortHlc(op.hlc, op.origin), entity, k1, k2, key, op.kind, json, op.schema, nulls, op.write_continues ?? null, shape];
  }

  return {
    insertOp(op) {
      s.insertOp.run(...opArgs(op));
    },
    // What saveInsertedRowState would write to sync_rows is said once, by the op (row_state = 1); the
    // rows are written as upsertRow would, in a few multi-row statements.
    insertNewRows(newRows) {
      // Remembered for one call only: a shape this transaction added is forgotten if it rolls back.
      last = { nulls: null, nullsShape: 0, columns: null, valuesShape: 0 };
      rows.insertMany('state-ops', stateOpsSql, newRows.map((r) => opArgs(r.op, r.stored)));
      // Consecutive rows of one table and column list share a statement.
      for (let from = 0; from < newRows.length; ) {
        const first = newRows[from];
        const plan = rows.upsertPlan(first.table, first.pk, first.op.change, first.op.nulls);
        const args: unknown[][] = [];
        let to = from;
        for (; to < newRows.length; to++) {
          const row = newRows[to];
          if (row.table !== first.table) break;
          // A page's ops of one shape share its lists (the same arrays): the same plan, without making it again.
          const sameLists = row.stored !== undefined && row.stored.columns === first.stored?.columns && row.op.nulls === first.op.nulls;
          if (to !== from && !sameLists && rows.upsertPlan(row.table, row.pk, row.op.change, row.op.nulls) !== plan) break;
          args.push(row.stored === undefined ? plan.argsOf(row.op.change) : rows.argsOfValues(plan, row.stored));
        }
        rows.insertMany(plan.key, plan.sql, args);
        from = to;
      }
    },
    insertOwnNewRows(ops) {
      rows.insertMany('state-ops', stateOpsSql, ops.map((op) => opArgs(op)));
    },
    changeOf: (row) => storedChange(row, columnsOfShape),
    // Without parsing the stored text (it was written by JSON.stringify).
    changeJsonOf: (row) => storedChangeJson(row, nullText, keysOf),
    changeJsonLengthOf: (row) => storedChangeJsonLength(row, nullText, keysOf),
    storedChangeJsonOf: (row) => storedObjectJson(row, keysOf),
    nullColumnsOf: (row) => (row.null_columns === null ? [] : columnsOfShape(row.null_columns)),
    opAt: (origin, seq) => {
      const no = keys.originNo(origin, false);
      const row = no === null ? undefined : s.opAt.get(no, seq);
      return row && opRowOf(row);
    },
    opsAfter: (arrival, limit) => s.opsFrom.all(arrival, limit).map(opRowOf),
    arrivalOf: (origin, seq) => {
      const no = keys.originNo(origin, false);
      return no === null ? null : (s.arrivalOf.get(no, seq)?.arrival ?? null);
    },
    opsOfEntity: (entity, entityId) => {
      const key = keys.keyOf(entity, entityId, false);
      return key === null ? [] : s.opsOfEntity.all(key.entity, key.k1, key.k2, key.key).map(opRowOf);
    },
    // `entity` decides the form the change is stored in (CHANGE_READ_IN_SQL).
    rewriteChange(arrival, change, entity) {
      const { json, nulls, shape } = shapes.encodeChange(entity, change);
      s.rewriteChange.run(json, nulls, shape, arrival);
    },
  };
}

/** The ops held back (sync_held) on SQLite. */
export function sqliteHeld(sqlite: BetterSqlite3.Database): Pick<SqliteSyncStore, 'hold' | 'heldCount' | 'held' | 'release'> {
  const s = {
    hold: sqlite.prepare<[string, number, string, string]>('INSERT OR IGNORE INTO sync_held (origin, seq, op_json, reason) VALUES (?, ?, ?, ?)'),
    heldCount: sqlite.prepare<[], { n: number }>('SELECT count(*) AS n FROM sync_held'),
    held: sqlite.prepare<[], HeldOp>('SELECT h.origin, h.seq, h.op_json FROM sync_held h JOIN sync_origins g ON g.origin = h.origin JOIN sync_op_rows s ON s.origin = g.no AND s.seq = h.seq ORDER BY s.arrival'),
    release: sqlite.prepare<[string, number]>('DELETE FROM sync_held WHERE origin = ? AND seq = ?'),
  };
  return {
    hold: (origin, seq, opJson, reason) => void s.hold.run(origin, seq, opJson, reason),
    heldCount: () => s.heldCount.get()!.n,
    held: () => s.held.all(),
    release: (origin, seq) => void s.release.run(origin, seq),
  };
}
