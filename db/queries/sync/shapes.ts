import type BetterSqlite3 from 'better-sqlite3';
import type { SyncRowsTable } from '../../schema';
import { CHANGE_READ_IN_SQL, columnsOfShapeText, keysOfColumns, nullTextOfColumns, packStamps, unpackStamps } from '../../syncEncoding';

/** A change as sync_ops stores it: its text, the shape of its null columns, the shape of its value array. */
export interface EncodedChange {
  json: string | null;
  nulls: number | null;
  shape: number | null;
}

/** sync_shapes on SQLite, cached per connection, and the encodings of changes and stamps that use it. */
export interface SqliteShapes {
  /** The columns of a shape (read once). */
  columnsOfShape(id: number): string[];
  /** The shape of a row state's stamped columns. */
  shapeOfStamped(names: string[]): number;
  /** The shape of a change's null columns. */
  shapeOfNulls(names: string[]): number;
  /** The shape of a change's value array. */
  shapeOfValues(names: string[]): number;
  /** `"name":` per column of a change's shape, made once per shape. */
  keysOf(id: number): string[];
  /** `"a":null,"b":null` for a shape of null columns, made once per shape. */
  nullText(id: number): string;
  encodeChange(entity: string, change: Record<string, unknown> | null, knownNulls?: readonly string[]): EncodedChange;
  encodeClocks(clocks: Record<string, string>): { shape: number; stamps: string; marks: string | null };
  decodeClocks(row: Pick<SyncRowsTable, 'shape' | 'stamps' | 'marks'>): Record<string, string>;
  /** Forgets the shapes this connection added (see below); called as each transaction's work begins. */
  forgetShapesAddedHere(): void;
}

/**
 * `names.join(',')`, remembering the last list: a page's ops mostly have one shape, and giving back
 * the same string (its hash already computed) saves the join and the hashing of the map lookup
 * that follows, per op.
 */
export function joinLikeLast(): (names: readonly string[]) => string {
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

/**
 * Shapes by columns and by id. A shape read from sync_shapes that this connection did not add
 * itself is committed (another writer's uncommitted rows are invisible here) and never changes, so
 * it is kept; one this connection added is kept only until the next transaction begins
 * (`beginWork`), since that transaction may have rolled back and the id be reused for other
 * columns, also by another process writing the same file. Then it is read again.
 */
function sqliteShapeTable(sqlite: BetterSqlite3.Database) {
  const s = {
    shapeByColumns: sqlite.prepare<[string], { id: number }>('SELECT id FROM sync_shapes WHERE columns = ?'),
    shapeById: sqlite.prepare<[number], { columns: string }>('SELECT columns FROM sync_shapes WHERE id = ?'),
    addShape: sqlite.prepare<[string], { id: number }>('INSERT INTO sync_shapes (columns) VALUES (?) RETURNING id'),
  };
  const shapeIds = new Map<string, number>();
  const shapeColumns = new Map<number, string[]>();
  const addedHere = new Set<number>();
  return {
    addedHere,
    /** The id of a shape by its text, added if new. */
    shapeOf(columns: string): number {
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
    },
    columnsOfShape(id: number): string[] {
      let columns = shapeColumns.get(id);
      if (columns === undefined) {
        const text = s.shapeById.get(id)?.columns;
        if (text === undefined) throw new Error(`sync_rows names shape ${id}, which sync_shapes lacks`);
        columns = columnsOfShapeText(text);
        shapeColumns.set(id, columns);
      }
      return columns;
    },
    /** Forgets the shapes this connection added (after the caller has forgotten what it made of them). */
    forgetAddedHere(): void {
      for (const [columns, id] of shapeIds) if (addedHere.has(id)) shapeIds.delete(columns);
      for (const id of addedHere) shapeColumns.delete(id);
      addedHere.clear();
    },
  };
}

/** sync_shapes on SQLite (see sqliteShapeTable), with what is made of each shape cached too. */
export function sqliteShapes(sqlite: BetterSqlite3.Database): SqliteShapes {
  const table = sqliteShapeTable(sqlite);
  const { addedHere, shapeOf, columnsOfShape } = table;
  const joinColumns = joinLikeLast();
  // Stamped columns and null columns alternate per op: each kind keeps its own last list.
  const joinNulls = joinLikeLast();
  const joinChange = joinLikeLast();
  /** `"name":` per column of a change's shape, and `"a":null,"b":null` per shape of null columns. */
  const changeKeys = new Map<number, string[]>();
  const nullTexts = new Map<number, string>();
  /**
   * Shapes by their columns comma-joined, for column lists without a comma in any name (those
   * come only from a peer's op, and take the slow path below): such a list is the only one of its
   * length that joins to its text, so the cached id is exact.
   */
  const plainShapes = new Map<string, { id: number; length: number }>();

  function shapeOfColumns(names: string[], join: (names: readonly string[]) => string): number {
    const joined = join(names);
    const cached = plainShapes.get(joined);
    if (cached !== undefined && cached.length === names.length) return cached.id;
    const plain = !names.some((c) => c.includes(',')) && !joined.startsWith('[');
    const id = shapeOf(plain ? joined : JSON.stringify(names));
    if (plain) plainShapes.set(joined, { id, length: names.length });
    return id;
  }
  const shapeOfNulls = (names: string[]) => shapeOfColumns(names, joinNulls);
  const shapeOfValues = (names: string[]) => shapeOfColumns(names, joinChange);
  const shapeOfStamped = (names: string[]) => shapeOfColumns(names, joinColumns);

  return {
    columnsOfShape,
    shapeOfStamped,
    shapeOfNulls,
    shapeOfValues,
    keysOf(id) {
      let keys = changeKeys.get(id);
      if (keys === undefined) {
        keys = keysOfColumns(columnsOfShape(id));
        if (!addedHere.has(id)) changeKeys.set(id, keys);
      }
      return keys;
    },
    nullText(id) {
      let text = nullTexts.get(id);
      if (text === undefined) {
        text = nullTextOfColumns(columnsOfShape(id));
        if (!addedHere.has(id)) nullTexts.set(id, text);
      }
      return text;
    },
    encodeChange: (entity, change, knownNulls) => encodeChange(entity, change, knownNulls, shapeOfNulls, shapeOfValues),
    encodeClocks(clocks) {
      const names = Object.keys(clocks);
      return { shape: shapeOfStamped(names), ...packStamps(names, clocks) };
    },
    decodeClocks: (row) => unpackStamps(columnsOfShape(row.shape), row.stamps, row.marks),
    forgetShapesAddedHere() {
      if (addedHere.size === 0) return;
      for (const [joined, shape] of plainShapes) if (addedHere.has(shape.id)) plainShapes.delete(joined);
      table.forgetAddedHere();
      nullTexts.clear();
      changeKeys.clear();
    },
  };
}

/**
 * A change as stored: its non-null columns (an object for CHANGE_READ_IN_SQL's entities, else their
 * values as an array and the shape of their columns), and the shape of the null ones (or null).
 * `knownNulls`: the null columns the change leaves out already (a compact page's op).
 */
function encodeChange(
  entity: string,
  change: Record<string, unknown> | null,
  knownNulls: readonly string[] | undefined,
  shapeOfNulls: (names: string[]) => number,
  shapeOfValues: (names: string[]) => number,
): EncodedChange {
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
  const nulls = knownNulls !== undefined ? shapeOfNulls(knownNulls as string[]) : nullNames === null ? null : shapeOfNulls(nullNames);
  if (names.length === 0 || CHANGE_READ_IN_SQL.has(entity)) {
    if (nullNames === null) return { json: JSON.stringify(change), nulls, shape: null };
    const rest: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) rest[names[i]] = values[i];
    return { json: JSON.stringify(rest), nulls, shape: null };
  }
  return { json: JSON.stringify(values), nulls, shape: shapeOfValues(names) };
}
