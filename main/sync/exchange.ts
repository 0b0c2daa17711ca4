import { z } from 'zod';
import { wholeHlc } from '../../db/syncEncoding';
import { opSchema, type Op, type WireOp } from './op';
import { measureSkew } from './hlc';
import { advanceVector, missingCount, type Vector } from './vector';
import { SCHEMA_VERSION, type Replica, type SnapshotRow } from './replica';

/**
 * The exchange protocol, both directions, paged:
 * - pull: "here is who I am and my vector; send what I lack" -> ops in your arrival order,
 *   at most `limit` and about `maxBytes`, with `hasMore` and a cursor for the next page; the
 *   answer also carries the peer's identity, schema range, vector and clock (for skew);
 * - push: the same pages the other way, each applied by the receiver in one transaction.
 * Each page is fetched first, then applied in one transaction: no network wait inside it.
 */
export const PAGE_LIMIT = 500;
export const PAGE_MAX_BYTES = 512 * 1024;

const vectorSchema = z.record(z.string().regex(/^[A-Za-z0-9]{4,40}$/), z.number().int().nonnegative());
export const helloSchema = z.object({
  origin: z.string().regex(/^[A-Za-z0-9]{4,40}$/),
  instanceNo: z.number().int().min(1).max(999),
  schema: z.object({ min: z.number().int().min(1), max: z.number().int().min(1) }).refine((range) => range.min <= range.max, 'min must not be above max'),
});
export const pullRequestSchema = helloSchema.extend({
  vector: vectorSchema,
  limit: z.number().int().min(0).max(5000).default(PAGE_LIMIT),
  maxBytes: z.number().int().min(1024).max(8 * 1024 * 1024).default(PAGE_MAX_BYTES),
  after: z.number().int().nonnegative().optional(),
  /** The newest pull encoding the caller reads (WIRE_COMPACT); absent: the plain one (ops as objects). */
  wire: z.number().int().min(1).optional(),
});

/**
 * Pull encodings. 1, the plain one: `ops` as Op objects. 2, compact: `origins` and `shapes` (lists of
 * null columns) once per page, and `rows`, one array per op (see Replica.opWireOfRow) whose change
 * leaves out its null columns; about half the bytes and the parsing of a customer catch-up, where
 * most of an op was `"column":null`. A caller asks with `wire: 2`; a peer that does not know the
 * field (an older build) drops it and answers plain ops, and a caller that does not send it gets
 * plain ops from this build, so older and newer peers keep syncing both ways. Pushes stay plain.
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
export const pushRequestSchema = helloSchema.extend({ ops: z.array(opSchema).max(5000) });
export const SNAPSHOT_PAGE_ROWS = 2000;
export const snapshotRequestSchema = helloSchema.extend({
  table: z.number().int().min(0).default(0),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(5000).default(SNAPSHOT_PAGE_ROWS),
});
export type SnapshotRequest = z.infer<typeof snapshotRequestSchema>;
export interface SnapshotResponse extends Hello {
  now: number;
  vector: Vector;
  rows: SnapshotRow[];
  next: { table: number; offset: number } | null;
}
export type PullRequest = z.infer<typeof pullRequestSchema>;
export type PushRequest = Omit<z.infer<typeof pushRequestSchema>, 'ops'> & { ops: Op[] };

export interface Hello {
  origin: string;
  instanceNo: number;
  catalogueOwner: string;
  schema: { min: number; max: number };
  knownInstances: Record<string, number>;
}

export interface PullResponse extends Hello {
  now: number;
  vector: Vector;
  ops: WireOp[];
  hasMore: boolean;
  cursor: number;
  remaining: number;
}

/** A pull answer in the compact encoding (WIRE_COMPACT), as it comes off the wire. */
export interface CompactPullResponse extends Omit<PullResponse, 'ops'> {
  wire: typeof WIRE_COMPACT | typeof WIRE_VALUES;
  origins: string[];
  shapes: string[][];
  rows: CompactRow[];
}

/** Either encoding of a pull answer, as Op objects (the plain one is returned as it is). */
export function pullOps(response: PullResponse | CompactPullResponse): PullResponse {
  if (!('wire' in response) || (response.wire !== WIRE_COMPACT && response.wire !== WIRE_VALUES)) return response as PullResponse;
  const { origins, shapes, rows, ...rest } = response;
  // A column list names an object's keys below: none may reach its prototype.
  if (shapes.some((columns) => columns.includes('__proto__'))) throw new Error('A compact pull page lists a column named __proto__');
  const ops = new Array<WireOp>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const [o, seq, stamp, entity, entityId, kind, stored, nulls, schema, continues, changeShape] = rows[i];
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
    ops[i] = { origin, seq, hlc: wholeHlc(stamp, origin), entity, entityId, kind, change, schema, nulls: change === null || nulls === -1 ? undefined : shapes[nulls] };
    if (continues === 1) ops[i].continues = true;
    if (values !== undefined && ops[i].nulls !== undefined) ops[i].stored = { columns: shapes[changeShape!], values };
  }
  return { ...rest, ops };
}

export interface PushResponse {
  applied: number;
  duplicates: number;
  held: number;
  vector: Vector;
}

export interface PeerTransport {
  pull(request: PullRequest): Promise<PullResponse | CompactPullResponse>;
  push(request: PushRequest): Promise<PushResponse>;
  /** Optional: a peer that offers snapshots lets a fresh instance join without replaying the log. */
  snapshot?(request: SnapshotRequest): Promise<SnapshotResponse>;
}

export interface LocalSide {
  replica: Replica;
  instanceNo: number;
  now(): number;
  knownInstances(): Record<string, number>;
}

export function helloOf(side: LocalSide): Hello {
  return { origin: side.replica.origin, instanceNo: side.instanceNo, catalogueOwner: side.replica.catalogueOwner(), schema: { min: 1, max: SCHEMA_VERSION }, knownInstances: side.knownInstances() };
}

/** The answer to a pull (the server side of GET-what-I-lack). */
export async function answerPull(side: LocalSide, request: PullRequest): Promise<PullResponse> {
  const page = await side.replica.pageFor(request.vector, request.limit, request.maxBytes, request.after);
  const vector = await side.replica.vector();
  return { ...helloOf(side), now: side.now(), vector, ops: page.ops, hasMore: page.hasMore, cursor: page.cursor, remaining: missingCount(request.vector, vector) - page.ops.length };
}

/**
 * The same answer as JSON text, for HTTP: the ops' change texts go out as stored, not parsed and
 * serialized again (on a catch-up that was a third of the serving side's time). `envelope` is the
 * text of the fields that go first (the API's requestStatus).
 */
export async function answerPullJson(side: LocalSide, request: PullRequest, envelope: Record<string, unknown> = {}): Promise<string> {
  const page = await side.replica.pageRowsFor(request.vector, request.limit, request.maxBytes, request.after);
  const vector = await side.replica.vector();
  const head = { ...envelope, ...helloOf(side), now: side.now(), vector, hasMore: page.hasMore, cursor: page.cursor, remaining: missingCount(request.vector, vector) - page.rows.length };
  const text = JSON.stringify(head).slice(0, -1);
  if ((request.wire ?? 1) < WIRE_COMPACT) return `${text},"ops":[${page.rows.map(side.replica.opJsonOfRow).join(',')}]}`;
  const wire = Math.min(request.wire!, WIRE_VALUES);
  const origins = new Map<string, number>();
  const shapes = new Map<number, number>();
  const rows = page.rows.map((row) => side.replica.opWireOfRow(row, origins, shapes, wire === WIRE_VALUES)).join(',');
  const shapeLists = [...shapes.keys()].map((shape) => side.replica.nullColumnsOfShape(shape));
  return `${text},"wire":${wire},"origins":${JSON.stringify([...origins.keys()])},"shapes":${JSON.stringify(shapeLists)},"rows":[${rows}]}`;
}

/** A page of this instance's synced rows and merge states, with the vector they include. */
export async function answerSnapshot(side: LocalSide, request: SnapshotRequest): Promise<SnapshotResponse> {
  const vector = await side.replica.vector(); // taken before the rows: anything newer merges again harmlessly
  const page = await side.replica.snapshotPage(request.table, request.offset, request.limit);
  return { ...helloOf(side), now: side.now(), vector, rows: page.rows, next: page.next };
}

/**
 * A fresh or wiped instance joins from the peer's snapshot: rows and merge states page by page,
 * then the vector of the first page (ops after it come with the normal exchange). Answers the rows taken.
 */
async function joinFromSnapshot(side: LocalSide, transport: PeerTransport, onProgress: (line: string) => void, onRows: (rows: number) => void = () => {}): Promise<number> {
  const me = helloOf(side);
  let cursor = { table: 0, offset: 0 };
  let vector: Vector | null = null;
  let rows = 0;
  for (;;) {
    const page = await transport.snapshot!({ origin: me.origin, instanceNo: me.instanceNo, schema: me.schema, table: cursor.table, offset: cursor.offset, limit: SNAPSHOT_PAGE_ROWS });
    checkPeer(side, page);
    // Only the hub's snapshot is taken: a hub (or a desk) never takes a desk's rows whole.
    if (page.origin !== side.replica.catalogueOwner()) return rows;
    // A newer schema's rows cannot be taken whole: fall back to the op log, which holds what it cannot apply.
    if (page.schema.max > SCHEMA_VERSION) return rows;
    vector ??= page.vector;
    await side.replica.applySnapshot(page.rows, page.next === null ? vector : null);
    rows += page.rows.length;
    onRows(rows);
    if (page.next === null) return rows;
    onProgress(`snapshot: ${rows} rows taken`);
    cursor = page.next;
  }
}

export async function answerPush(side: LocalSide, request: PushRequest): Promise<PushResponse> {
  return side.replica.apply(request.ops);
}

export interface ExchangeReport {
  peer: Hello;
  received: number;
  sent: number;
  skewMs: number;
  opsToSend: number;
  opsToReceive: number;
}

export class PairingError extends Error {}

/** Refuses a peer that would make two instances issue the same ids, or that is a clone of us. */
export function checkPeer(side: LocalSide, peer: Hello): void {
  if (peer.origin === side.replica.origin) throw new PairingError('The peer has this instance’s own origin id: it is this instance itself (its own address), or one data folder was copied from the other. Pair with the hub’s address; a copied folder needs a fresh data folder.');
  const clash = [[peer.origin, peer.instanceNo] as const, ...Object.entries(peer.knownInstances)].find(([o, n]) => o !== side.replica.origin && n === side.instanceNo);
  if (clash) {
    const used = new Set([...Object.values(peer.knownInstances), peer.instanceNo]);
    let free = 2;
    while (used.has(free) && free < 999) free++;
    throw new PairingError(
      `Instance number ${side.instanceNo} is already used by instance ${clash[0]} on the peer's side, so both would issue the same ids. ` +
        `If this folder has no sales yet, create a fresh data folder with \`tourdesk serve --instance ${free} --data-dir NEW\` and pair that; otherwise pair the other instance from a fresh folder.`,
    );
  }
}

/**
 * One full exchange with a peer: pull every page we lack (each applied in its own transaction),
 * then push every page it lacks. A failure anywhere leaves what was applied applied and the
 * vectors true to it, so the next exchange continues where this one stopped.
 */
/** How far an exchange has come, after each page (what a status shows while a long catch-up runs). */
export interface ExchangeCounts {
  snapshotRows: number;
  received: number;
  /** Ops the peer still has for us, as its last page said; null before the first page. */
  remaining: number | null;
  sent: number;
}

export async function exchangeWith(side: LocalSide, transport: PeerTransport, onProgress: (line: string) => void = () => {}, onCounts: (counts: ExchangeCounts) => void = () => {}): Promise<ExchangeReport> {
  const counts: ExchangeCounts = { snapshotRows: 0, received: 0, remaining: null, sent: 0 };
  const me = helloOf(side);
  const base = { origin: me.origin, instanceNo: me.instanceNo, schema: me.schema };
  let received = 0;
  if (transport.snapshot && side.replica.followsHub() && (await side.replica.isFresh())) {
    const rows = await joinFromSnapshot(side, transport, onProgress, (taken) => {
      counts.snapshotRows = taken;
      onCounts({ ...counts });
    });
    if (rows > 0) onProgress(`joined from a snapshot of ${rows} rows`);
  }
  let response: PullResponse;
  let skewMs = 0;
  // Pipelined: the next page is asked for while this one applies (the peer reads it meanwhile).
  // Safe because pages apply in order, each in its own transaction with the vector advanced last:
  // the request carries the vector this page leaves (advanceVector, the same one apply computes)
  // and the cursor after it; if this page fails, the exchange stops and the early answer is dropped.
  const pull = (vector: Vector, after: number | undefined) => {
    const sentAt = side.now();
    const answer = transport.pull({ ...base, vector, limit: PAGE_LIMIT, maxBytes: PAGE_MAX_BYTES, after, wire: WIRE_VALUES }).then((r) => ({ response: pullOps(r), skewMs: measureSkew(r.now, sentAt, side.now()) }));
    answer.catch(() => {}); // awaited below, unless a failed apply ends the exchange first
    return answer;
  };
  let next = pull(await side.replica.vector(), undefined);
  for (;;) {
    ({ response, skewMs } = await next);
    checkPeer(side, response);
    let predicted: Vector | null = null;
    if (response.hasMore) {
      const current = await side.replica.vector();
      try {
        predicted = advanceVector(current, response.ops);
      } catch {
        // a page with a gap: apply refuses it below, so nothing is asked for after it
      }
      if (predicted) next = pull(predicted, response.cursor);
    }
    if (response.ops.length > 0) {
      // Only the hub's clock is trusted over ours: a slow desk must still take the hub's ops.
      await side.replica.apply(response.ops, response.origin === side.replica.catalogueOwner() ? skewMs : 0);
      received += response.ops.length;
      if (response.hasMore) onProgress(`received ${received} ops, ${response.remaining} to go`);
    }
    counts.received = received;
    counts.remaining = response.hasMore ? response.remaining : 0;
    onCounts({ ...counts });
    if (!response.hasMore) break;
    if (!predicted) next = pull(await side.replica.vector(), response.cursor);
  }
  let theirs = response.vector;
  let sent = 0;
  let cursor: number | undefined;
  for (;;) {
    const page = await side.replica.pageFor(theirs, PAGE_LIMIT, PAGE_MAX_BYTES, cursor);
    if (page.ops.length === 0) break;
    const answer = await transport.push({ ...base, ops: page.ops });
    sent += page.ops.length;
    counts.sent = sent;
    onCounts({ ...counts });
    theirs = answer.vector;
    if (page.hasMore) onProgress(`sent ${sent} ops`);
    if (!page.hasMore) break;
    cursor = page.cursor;
  }
  const ours = await side.replica.vector();
  return { peer: response, received, sent, skewMs, opsToSend: missingCount(theirs, ours), opsToReceive: missingCount(ours, theirs) };
}
