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
  /** "Not synced since 08:12" rather than a dot. */
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
export type SyncInstance = z.infer<typeof syncInstanceSchema>;

/** An instance that exchanged with this one (a desk pulling from and pushing to its hub): when it last did. */
export const seenInstanceSchema = z.object({ origin: z.string(), instanceNo: z.number(), lastSeenAt: z.string() });
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

/**
 * GET /v1/sync/status. `seenBy`: instances that exchanged with this one, the most recent first (a
 * hub's desks). `exchanging`: the exchange running now, or null.
 */
export const syncStatusSchema = z.object({ instance: syncInstanceSchema, peers: z.array(peerStatusSchema), seenBy: z.array(seenInstanceSchema), exchanging: exchangingSchema.nullable() });
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
