import type { OpRow } from './syncStore';

/**
 * How sync_ops and sync_rows hold changes, stamps and shapes: the one format both dialects'
 * stores (db/queries/sync/, db/postgres/sync/) write and read.
 */

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

/** A list of columns as sync_shapes stores it: comma-joined, or a JSON array when a name holds a comma or the text would start with `[`. */
export function columnsOfShapeText(text: string): string[] {
  return text === '' ? [] : text.startsWith('[') ? (JSON.parse(text) as string[]) : text.split(',');
}
