import { z } from 'zod';
import { sessionOversoldSchema } from './manifest';

/*
 * GET /v1/sync/status's answer. Types only at run time (the sync service builds it, nothing re-parses
 * it): the service, the route and the desk's status bar all take their types from here, so a renamed
 * field is a compile error in each of them.
 */

/** One peer as stored and last exchanged with; its key is never part of the answer. */
export const peerStatusSchema = z.object({
  url: z.string(),
  /** The peer's sync origin, learnt when it was paired. */
  origin: z.string().nullable(),
  instanceNo: z.number().nullable(),
  lastSuccessAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  clockSkewMs: z.number().nullable(),
  opsToSend: z.number().nullable(),
  opsToReceive: z.number().nullable(),
  /**
   * When the peer takes this instance's changes again, when it refuses them for their clock stamps
   * (this machine's clock ran ahead and was set back: its stamps stay ahead); null when it does not,
   * or when the clock is still ahead (the summary says to set it right).
   */
  pushesWaitUntil: z.string().nullable(),
  /** "Not synced since 2030-01-01 08:12 (Pacific/Auckland)" rather than a dot: the times in the company's zone. */
  summary: z.string(),
});
export type PeerStatus = z.infer<typeof peerStatusSchema>;

/** This instance's sync identity: its origin, number, the hub whose catalogue it follows, ops held for a newer schema. */
export const syncInstanceSchema = z.object({
  origin: z.string(),
  instanceNo: z.number(),
  catalogueOwner: z.string(),
  heldOps: z.number(),
});

/** Why this instance last refused a caller's pull, push or snapshot: when, the reason code (CLOCK_AHEAD, GAP, PAIRING...) and what it was told. */
export const refusalSchema = z.object({ at: z.string(), reason: z.string(), message: z.string() });
export type Refusal = z.infer<typeof refusalSchema>;

/** An instance that exchanged with this one (a desk pulling from and pushing to its hub): when it last did, and its last refusal here. */
export const seenInstanceSchema = z.object({
  origin: z.string(),
  instanceNo: z.number(),
  lastSeenAt: z.string(),
  /** Kept after later exchanges went through: compare it with lastSeenAt. */
  lastRefusal: refusalSchema.nullable(),
  /** "last exchange 2030-01-01 11:05 (Australia/Sydney)": the times in the company's zone. */
  summary: z.string(),
});
export type SeenInstance = z.infer<typeof seenInstanceSchema>;

/** The exchange running now and how far it has come, page by page (a long catch-up's progress). */
export const exchangingSchema = z.object({
  url: z.string(),
  since: z.string(),
  /** Rows taken from the peer's snapshot (a fresh desk joining). */
  snapshotRows: z.number(),
  received: z.number(),
  /** Ops the peer still has for this instance, as its last page said; null before the first page. */
  remaining: z.number().nullable(),
  sent: z.number(),
});

/** An instance whose every exchange here was refused (a desk whose number another holds): its last refusal. */
export const turnedAwaySchema = z.object({ origin: z.string(), instanceNo: z.number(), lastRefusal: refusalSchema, summary: z.string() });
export type TurnedAway = z.infer<typeof turnedAwaySchema>;

/**
 * GET /v1/sync/status. `seenBy`: instances that exchanged with this one, the most recent first (a
 * hub's desks). `turnedAway`: callers refused that never exchanged here (always sent by this
 * build; optional in the type, since an older hub's answer lacks it). `exchanging`: the exchange
 * running now, or null. `opLog`: the ops this instance holds and the bytes they take (docs/sync.md,
 * "A bounded op log"; optional in the type, since an older instance's answer lacks it).
 */
export const opLogSchema = z.object({ ops: z.number(), bytes: z.number() });
export const syncStatusSchema = z.object({
  instance: syncInstanceSchema,
  peers: z.array(peerStatusSchema),
  seenBy: z.array(seenInstanceSchema),
  turnedAway: z.array(turnedAwaySchema).optional(),
  exchanging: exchangingSchema.nullable(),
  opLog: opLogSchema.optional(),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;

/** POST /v1/sync/run: one exchange with every peer, now. Per peer: its error (null when it went through) and the ops moved. */
export const syncRunPeerSchema = z.object({ url: z.string(), error: z.string().nullable(), received: z.number(), sent: z.number() });
export const syncRunSchema = z.object({ peers: z.array(syncRunPeerSchema), status: syncStatusSchema });
export type SyncRun = z.infer<typeof syncRunSchema>;

/** POST /v1/sync/peers: the peer as paired (its address as stored, who it is, whether it is this instance's hub now). */
export const peerAddedSchema = z.object({ url: z.string(), origin: z.string(), instanceNo: z.number(), hub: z.boolean() });
export type PeerAdded = z.infer<typeof peerAddedSchema>;

/**
 * GET /v1/sync/conflicts' `conflicts[]`: a session the merge left holding more seats than it has,
 * the bookings involved, and whether a person acknowledged this set (sessionOversoldSchema is the
 * same notice as the manifest carries it).
 */
export const syncConflictSchema = sessionOversoldSchema.extend({
  sessionId: z.number(),
  productCode: z.string(),
  productName: z.string(),
  startTime: z.string(),
  /** The start in the product's (or company's) time: a Sydney 07:30 departure is the day before in UTC. */
  startTimeLocal: z.string(),
});
export type SyncConflict = z.infer<typeof syncConflictSchema>;

/*
 * The exchange between instances (POST /v1/sync/pull, /push, /snapshot): what a peer sends. Every
 * request opens with the caller's hello (who it is, which schemas it reads); main/sync/wire.ts has
 * the answers and their encodings.
 */

/** A pull page's default and largest sizes (the sender caps its pages too). */
export const PAGE_LIMIT = 500;
export const PAGE_MAX_BYTES = 512 * 1024;
export const SNAPSHOT_PAGE_ROWS = 2000;

const originSchema = z.string().regex(/^[A-Za-z0-9]{4,40}$/);
const vectorSchema = z.record(originSchema, z.number().int().nonnegative());

/** An op's entityId as its key values, or null when it is not a non-empty JSON array of strings and numbers. */
export function keyValuesOf(entityId: string): (string | number)[] | null {
  let key: unknown;
  try {
    key = JSON.parse(entityId);
  } catch {
    return null;
  }
  return Array.isArray(key) && key.length > 0 && key.every((v) => typeof v === 'string' || typeof v === 'number') ? key : null;
}

/** A column's value as a row holds it: text, a number, a flag or null (never an object). */
const columnValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * One op: a change to one row, as it resulted on the instance that made it (ids, codes and prices
 * included), so any instance can replay it without the request that caused it.
 * - op id = origin + seq: the origin's gapless sequence, never re-stamped by a relay;
 * - hlc: the hybrid logical clock stamp (orders last-writer-wins);
 * - entity: the table; entityId: its primary key as a JSON array;
 * - kind: insert (the whole row), update (the changed columns only), delete (a tombstone);
 * - schema: the writer's schema version (user_version), so a reader can hold what it cannot apply;
 * - continues: set on every op of a write but its last, so pages carry a write whole.
 */
export const opSchema = z
  .object({
    origin: originSchema,
    seq: z.number().int().positive(),
    hlc: z.string().regex(/^\d{15}-\d{6}-[A-Za-z0-9]{4,40}$/),
    entity: z.string().regex(/^[a-z_]{1,60}$/),
    entityId: z.string().min(2).max(500),
    kind: z.enum(['insert', 'update', 'delete']),
    change: z.record(z.string(), columnValue).nullable(),
    schema: z.number().int().positive(),
    /** More ops of the same write follow this one: a page never ends after it (unless the write alone is over the cap). */
    continues: z.literal(true).optional(),
  })
  .superRefine((op, ctx) => {
    // The row's key as a JSON array of its key columns' values, as every op of this build writes it.
    if (keyValuesOf(op.entityId) === null) ctx.addIssue({ code: 'custom', path: ['entityId'], message: 'must be a JSON array of the row’s key values, like [1001]' });
    if ((op.kind === 'delete') !== (op.change === null)) ctx.addIssue({ code: 'custom', path: ['change'], message: op.kind === 'delete' ? 'must be null for a delete' : `must be the row's columns for an ${op.kind}` });
  });

export const helloSchema = z.object({
  origin: originSchema,
  instanceNo: z.number().int().min(1).max(999),
  schema: z.object({ min: z.number().int().min(1), max: z.number().int().min(1) }).refine((range) => range.min <= range.max, 'min must not be above max'),
  /** The caller's earlier origins (main/sync/incarnation.ts): it was restored from a backup. */
  incarnations: z.array(originSchema).max(100).optional(),
});

/**
 * "Here is who I am and my vector; send what I lack": at most `limit` ops and about `maxBytes`,
 * continuing after `after` (the previous page's cursor).
 */
export const pullRequestSchema = helloSchema.extend({
  vector: vectorSchema,
  limit: z.number().int().min(0).max(5000).default(PAGE_LIMIT),
  maxBytes: z.number().int().min(1024).max(8 * 1024 * 1024).default(PAGE_MAX_BYTES),
  after: z.number().int().nonnegative().optional(),
  /** The newest pull encoding the caller reads (main/sync/wire.ts, WIRE_COMPACT); absent: the plain one (ops as objects). */
  wire: z.number().int().min(1).optional(),
});
export type PullRequest = z.infer<typeof pullRequestSchema>;

/** One page of the caller's ops, applied by the receiver in one transaction. */
export const pushRequestSchema = helloSchema.extend({ ops: z.array(opSchema).max(5000) });

/**
 * A page of the receiver's synced rows with their merge states: `table` (index) and `after` (the key
 * of the last row the previous page took from that table) say where it starts. `offset` is the older
 * builds' cursor, used only without `after`: rows deleted between pages shift offsets past rows the
 * caller never got, where a key cannot shift.
 */
export const snapshotRequestSchema = helloSchema.extend({
  table: z.number().int().min(0).default(0),
  offset: z.number().int().min(0).default(0),
  after: z.array(z.union([z.string(), z.number()])).min(1).max(4).optional(),
  limit: z.number().int().min(1).max(5000).default(SNAPSHOT_PAGE_ROWS),
});
export type SnapshotRequest = z.infer<typeof snapshotRequestSchema>;
