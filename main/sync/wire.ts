import { shortHlc, wholeHlc } from '../../db/syncEncoding';
import type { OpRow, SyncStore } from '../../db/syncStore';
import type { PullRequest } from '../contract/sync';
import type { Op, WireOp } from './op';
import type { SnapshotCursor, SnapshotRow } from './snapshot';
import type { Vector } from './vector';

/**
 * The exchange's answers as they travel, and the pull page's encodings, both ways: this file writes
 * a page as JSON text (pullPageJson) and reads it back (pullOps). The requests are in
 * main/contract/sync.ts.
 *
 * Pull encodings. 1, the plain one: `ops` as Op objects. 2, compact: `origins` and `shapes` (lists of
 * null columns) once per page, and `rows`, one array per op (opWireOfRow) whose change leaves out its
 * null columns; about half the bytes and the parsing of a customer catch-up, where most of an op was
 * `"column":null`. A caller asks with `wire: 2`; a peer that does not know the field (an older
 * build) drops it and answers plain ops, and a caller that does not send it gets plain ops from this
 * build, so older and newer peers keep syncing both ways. Pushes stay plain.
 */
export const WIRE_COMPACT = 2;
/**
 * 3, compact with value arrays: as 2, but a change the peer stores as a value array (migration 99)
 * goes out as that array, spliced as stored, with the index of its columns' list in `shapes` after
 * the continues flag (0 or 1 then): no column name repeated per op, and nothing for the serving side
 * to parse or make. A caller asks with `wire: 3`; an older peer answers 2 (or plain), which this
 * build still reads, and a caller asking 2 gets 2.
 */
export const WIRE_VALUES = 3;

type CompactRow = [origin: number, seq: number, hlc: string, entity: string, entityId: string, kind: Op['kind'], change: Record<string, unknown> | unknown[] | null, nulls: number, schema: number, continues?: 0 | 1, changeShape?: number];

/** Who an instance is, as every answer (and every request) opens. */
export interface Hello {
  origin: string;
  instanceNo: number;
  catalogueOwner: string;
  schema: { min: number; max: number };
  knownInstances: Record<string, number>;
  /** This instance's earlier origins (it was restored from a backup: main/sync/incarnation.ts); absent when none. */
  incarnations?: string[];
}

export interface PullResponse extends Hello {
  now: number;
  vector: Vector;
  ops: WireOp[];
  hasMore: boolean;
  cursor: number;
  remaining: number;
  /** The caller lacks ops this peer's op log no longer holds (compaction.ts): it rejoins from the snapshot. */
  rejoin?: boolean;
}

/** A pull answer in the compact encoding (WIRE_COMPACT), as it comes off the wire. */
export interface CompactPullResponse extends Omit<PullResponse, 'ops'> {
  wire: typeof WIRE_COMPACT | typeof WIRE_VALUES;
  origins: string[];
  shapes: string[][];
  rows: CompactRow[];
}

/** A push as the engine sends it (pushRequestSchema's fields, with Op's values). */
export type PushRequest = Omit<PullRequest, 'vector' | 'limit' | 'maxBytes' | 'after' | 'wire'> & { ops: Op[] };

export interface PushResponse {
  applied: number;
  duplicates: number;
  held: number;
  vector: Vector;
}

export interface SnapshotResponse extends Hello {
  now: number;
  vector: Vector;
  rows: SnapshotRow[];
  next: SnapshotCursor | null;
}

/**
 * A pull answer as JSON text: `head`'s fields, then the page's op rows in the encoding the caller
 * reads (`wire`, the newest it asked for that this build writes). The ops' change texts go out as
 * stored, not parsed and serialized again (on a catch-up that was a third of the serving side's time).
 */
export function pullPageJson(q: SyncStore, head: Record<string, unknown>, rows: readonly OpRow[], wire: number | undefined): string {
  const text = JSON.stringify(head).slice(0, -1);
  if ((wire ?? 1) < WIRE_COMPACT) return `${text},"ops":[${rows.map((row) => opJsonOfRow(q, row)).join(',')}]}`;
  const encoding = Math.min(wire!, WIRE_VALUES);
  const origins = new Map<string, number>();
  const shapes = new Map<number, number>();
  const encoded = rows.map((row) => opWireOfRow(q, row, origins, shapes, encoding === WIRE_VALUES)).join(',');
  // A stored shape's column list (a compact page names each op's null columns, and its value array's columns, by one).
  const shapeLists = [...shapes.keys()].map((shape) => q.nullColumnsOf({ null_columns: shape } as OpRow));
  return `${text},"wire":${encoding},"origins":${JSON.stringify([...origins.keys()])},"shapes":${JSON.stringify(shapeLists)},"rows":[${encoded}]}`;
}

/** An op row as the op's JSON text, its change spliced in as stored (no parse, no serialize). */
function opJsonOfRow(q: SyncStore, row: OpRow): string {
  const text = JSON.stringify;
  return `{"origin":${text(row.origin)},"seq":${row.seq},"hlc":${text(row.hlc)},"entity":${text(row.entity)},"entityId":${text(row.entity_id)},"kind":${text(row.kind)},"change":${q.changeJsonOf(row)},"schema":${row.schema}${row.write_continues === 1 ? ',"continues":true' : ''}}`;
}

/**
 * An op row in the compact pull encoding (WIRE_COMPACT): an array of origin index, seq, clock stamp
 * (its origin left off when it is the op's), entity, entity id, kind, the change as stored (without
 * its null columns, spliced as text), the index of its null columns' list (-1: none), schema, and 1
 * when more ops of its write follow (left off otherwise). `origins` and `shapes` collect the page's
 * lists as rows are written. With `values` (WIRE_VALUES), a change stored as a value array goes out
 * as it is, followed by the continues flag (0 or 1) and the index of its columns' list in `shapes`.
 */
function opWireOfRow(q: SyncStore, row: OpRow, origins: Map<string, number>, shapes: Map<number, number>, values: boolean): string {
  let o = origins.get(row.origin);
  if (o === undefined) origins.set(row.origin, (o = origins.size));
  let shape = -1;
  if (row.null_columns !== null && q.nullColumnsOf(row).length > 0) {
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
  return `[${o},${row.seq},${text(hlc)},${text(row.entity)},${text(row.entity_id)},${text(row.kind)},${q.storedChangeJsonOf(row) ?? 'null'},${shape},${row.schema}${row.write_continues === 1 ? ',1' : ''}]`;
}

/** Either encoding of a pull answer, as Op objects (the plain one is returned as it is). */
export function pullOps(response: PullResponse | CompactPullResponse): PullResponse {
  if (!('wire' in response) || (response.wire !== WIRE_COMPACT && response.wire !== WIRE_VALUES)) return response as PullResponse;
  const { origins, shapes, rows, ...rest } = response;
  // A column list names an object's keys below: none may reach its prototype.
  if (shapes.some((columns) => columns.includes('__proto__'))) throw new Error('A compact pull page lists a column named __proto__');
  const ops = new Array<WireOp>(rows.length);
  for (let i = 0; i < rows.length; i++) ops[i] = opOfCompactRow(rows[i], origins, shapes);
  return { ...rest, ops };
}

function opOfCompactRow(row: CompactRow, origins: readonly string[], shapes: readonly string[][]): WireOp {
  const [o, seq, stamp, entity, entityId, kind, stored, nulls, schema, continues, changeShape] = row;
  const origin = origins[o];
  if (origin === undefined || (nulls !== -1 && shapes[nulls] === undefined)) throw new Error('A compact pull page names an origin or a shape it does not list');
  let change = stored as Record<string, unknown> | null;
  let values: unknown[] | undefined;
  if (changeShape !== undefined) {
    const columns = shapes[changeShape];
    if (columns === undefined || !Array.isArray(stored) || stored.length !== columns.length) throw new Error('A compact pull page names a shape it does not list, or a change that does not fit it');
    change = {};
    for (let c = 0; c < columns.length; c++) change[columns[c]] = stored[c];
    values = stored;
  }
  // The null columns stay a list (completeOp adds them where needed): adding them to each parsed
  // change cost more than parsing them did.
  const op: WireOp = { origin, seq, hlc: wholeHlc(stamp, origin), entity, entityId, kind, change, schema, nulls: change === null || nulls === -1 ? undefined : shapes[nulls] };
  if (continues === 1) op.continues = true;
  if (values !== undefined && op.nulls !== undefined) op.stored = { columns: shapes[changeShape!], values };
  return op;
}
