import type { SyncRowsTable } from '../../schema';
import { columnsOfShapeText, keysOfColumns, nullTextOfColumns, packStamps, unpackStamps } from '../../syncEncoding';
import { ConcurrentInsertError, isUniqueViolation, type PostgresQuery, type SharedSyncState } from './query';

/** sync_shapes on PostgreSQL and the encodings of changes and stamps that use it. */
export interface PostgresShapes {
  shapeOf(names: readonly string[]): Promise<number>;
  /** The columns of a shape already loaded (with the rows that name it). */
  columnsOfShape(id: number): string[];
  /** A shape's null columns as text, and its columns as keys (for storedChangeJson and its kin). */
  nullText(id: number): string;
  keysOf(id: number): string[];
  /** Loads the shapes `ids` name that neither this transaction nor the process knows yet. */
  loadShapes(ids: Iterable<number | null>): Promise<void>;
  /** A change as stored (always an object on the hub): its non-null columns, and the shape of the null ones. */
  splitChange(change: Record<string, unknown> | null): Promise<{ json: string | null; nulls: number | null }>;
  encodeClocks(clocks: Record<string, string>): Promise<{ shape: number; stamps: string; marks: string | null }>;
  decodeClocks(row: SyncRowsTable): Record<string, string>;
}

/** A list of stamped or null columns as sync_shapes stores it (the same text SQLite's store writes). */
function shapeText(names: readonly string[]): string {
  const joined = names.join(',');
  return names.some((c) => c.includes(',')) || joined.startsWith('[') ? JSON.stringify(names) : joined;
}

/**
 * Shapes are kept per process only once committed (read by a statement that did not add them); one
 * this transaction added is known to the transaction alone, since a serialization failure rolls it
 * back and the retry adds it again (under a new id: identities are not reused).
 */
export function postgresShapes({ run, first }: PostgresQuery, shared: SharedSyncState): PostgresShapes {
  const ownIds = new Map<string, number>();
  const ownColumns = new Map<number, string[]>();

  async function shapeOf(names: readonly string[]): Promise<number> {
    const text = shapeText(names);
    const known = ownIds.get(text) ?? shared.shapeIds.get(text);
    if (known !== undefined) return known;
    const found = await first<{ id: number }>('SELECT id FROM sync_shapes WHERE columns = $1', [text]);
    if (found) {
      shared.shapeIds.set(text, found.id);
      shared.shapeColumns.set(found.id, columnsOfShapeText(text));
      return found.id;
    }
    let added: { id: number } | undefined;
    try {
      added = await first<{ id: number }>('INSERT INTO sync_shapes (columns) VALUES ($1) RETURNING id', [text]);
    } catch (error) {
      throw isUniqueViolation(error) ? new ConcurrentInsertError('sync shape', error) : error;
    }
    ownIds.set(text, added!.id);
    ownColumns.set(added!.id, columnsOfShapeText(text));
    return added!.id;
  }

  const columnsOfShape = (id: number): string[] => {
    const columns = ownColumns.get(id) ?? shared.shapeColumns.get(id);
    if (columns === undefined) throw new Error(`sync shape ${id} was not loaded with its rows`);
    return columns;
  };

  return {
    shapeOf,
    columnsOfShape,
    nullText: (id) => nullTextOfColumns(columnsOfShape(id)),
    keysOf: (id) => keysOfColumns(columnsOfShape(id)),
    async loadShapes(ids) {
      const missing = [...new Set(ids)].filter((id): id is number => id !== null && !ownColumns.has(id) && !shared.shapeColumns.has(id));
      if (missing.length === 0) return;
      for (const row of await run<{ id: number; columns: string }>('SELECT id, columns FROM sync_shapes WHERE id = ANY($1::bigint[])', [missing])) {
        shared.shapeColumns.set(row.id, columnsOfShapeText(row.columns));
        shared.shapeIds.set(row.columns, row.id);
      }
      for (const id of missing) if (!shared.shapeColumns.has(id)) throw new Error(`sync_rows names shape ${id}, which sync_shapes lacks`);
    },
    async splitChange(change) {
      if (change === null) return { json: null, nulls: null };
      const nullNames = Object.keys(change).filter((c) => change[c] === null);
      if (nullNames.length === 0) return { json: JSON.stringify(change), nulls: null };
      const rest: Record<string, unknown> = {};
      for (const column in change) if (change[column] !== null) rest[column] = change[column];
      return { json: JSON.stringify(rest), nulls: await shapeOf(nullNames) };
    },
    async encodeClocks(clocks) {
      const names = Object.keys(clocks);
      return { shape: await shapeOf(names), ...packStamps(names, clocks) };
    },
    decodeClocks: (row) => unpackStamps(columnsOfShape(row.shape), row.stamps, row.marks),
  };
}
