import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { forgetSeenInstance, insertAcknowledgement } from '../../db/queries/syncPeers';
import { earlierOrigins } from '../../db/queries/syncIncarnation';
import type { Actor, EngineContext } from '../domain/context';
import { DomainError } from '../domain/errors';
import { toIso, toLocal } from '../domain/time';
import { supplierTimezone } from '../../db/queries/departures';
import type { PeerAdded, PeerStatus, SyncConflict, SyncStatus } from '../contract/sync';
import type { PeerTransport } from './exchange';
import { createExchangeRuns } from './runs';
import { httpTransport } from './peerClient';
import { bookingSetKey, oversoldSessionsOf } from '../domain/checkin/oversold';
import type { Replica } from './replica';
import { unseal } from './secret';
import { helloOf, knownInstancesOf, pairWith, peerUrl, unpair, type LocalSide } from './peers';
import { companyTime, peerStatuses, seenStatuses, type LocalState } from './status';
import { decodeHlc } from './hlc';
import { createServing } from './serving';
import { compactOpLog, DAY_MS, DEFAULT_HORIZON_DAYS, type CompactionResult } from './compaction';
import { opLogGauge } from './opLogGauge';
import { createMedia } from './media';
import { followIncarnations } from './incarnation';
import { folderMarker } from './incarnationMark';
import { isPostgres } from '../../db/dialect';

/**
 * Sync as the engine offers it: pairing, exchanges with every peer, the serving side of a peer's
 * exchange, status, the oversold sessions a person must look at and their acknowledgement (a
 * synced row, so every instance sees it). Network calls happen between transactions, never inside one.
 */
export function createSyncService(ctx: EngineContext, replica: Replica, instanceNo: number, transportFor: (url: string, key: string) => PeerTransport = httpTransport) {
  const db: Kysely<Database> = ctx.db;
  const now = () => ctx.clock.now().getTime();
  const media = createMedia(ctx);
  const known = knownInstancesOf(db, replica.origin);
  const recorded = new Set<string>();
  const hub = { now: () => replica.store.hubOriginNow(), set: (origin: string) => replica.setHub(origin) };
  const side: LocalSide = {
    replica,
    instanceNo,
    now,
    knownInstances: () => known.current,
    earlierOrigins: () => known.earlier,
    beforeHello: async (vector) => {
      // Every pull answer asks: a vector and a list of earlier origins of a few entries each, so no set is built for it.
      if (Object.keys(vector).some((o) => o !== replica.origin && !known.earlier.includes(o) && !(o in known.current))) known.earlier = await earlierOrigins(db, replica.origin);
    },
    media,
    onPeerHello: (hello) => followIncarnations(db, hello, hub, now(), recorded),
  };

  function dataDir(): string {
    if (!ctx.dataDir) throw new DomainError('VALIDATION_ERROR', 'Sync peers need a data folder');
    return ctx.dataDir;
  }
  const runs = createExchangeRuns(db, side, known, (url, sealed) => transportFor(url, unseal(dataDir(), sealed)));

  const opLog = opLogGauge(db, now);
  // The data folder's mark follows what the database gave out and holds (incarnationMark.ts): after
  // every exchange, either side, failed ones too (their committed pages count).
  const folderMark = ctx.dataDir && !isPostgres(db) ? folderMarker(db, ctx.dataDir) : null;
  const keepingMark = <A extends unknown[], R>(work: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    try {
      return await work(...args);
    } finally {
      await folderMark?.keep();
    }
  };
  const served = createServing(db, side, known);
  const serving = { ...served, answerPull: keepingMark(served.answerPull), answerPullJson: keepingMark(served.answerPullJson), answerPush: keepingMark(served.answerPush) };

  /** What the status counts against: this instance's vector, and its latest own op's clock (a clock set back leaves it ahead). */
  async function localState(): Promise<LocalState> {
    const ours = await replica.vector();
    const latest = ours[replica.origin] ? await replica.store.opAt(replica.origin, ours[replica.origin]) : undefined;
    return { origin: replica.origin, ours, latestOwnWall: latest ? decodeHlc(latest.hlc).wall : null, now: now() };
  }

  return {
    side,
    /** Links a peer: checks it answers, that its identity does not clash, and follows its hub. */
    async addPeer(url: string, key: string): Promise<PeerAdded> {
      const normalized = peerUrl(url);
      await known.refresh();
      const hello = await transportFor(normalized, key).pull({ ...helloOf(side), vector: await replica.vector(), limit: 0, maxBytes: 1024 });
      return pairWith(ctx, side, normalized, key, hello, dataDir());
    },
    removePeer: (url: string): Promise<string | null> => unpair(db, url),
    /**
     * A hub forgets a desk that will not come back: it no longer shows among the instances that sync
     * here (nor its refusals). Its number stays taken; an exchange of it records it again.
     */
    async forgetInstance(instanceNo: number): Promise<void> {
      if (!(await forgetSeenInstance(db, instanceNo, now()))) throw new DomainError('NOT_FOUND', `No instance ${instanceNo} syncs with this one or was refused here`);
    },
    /** Peers as stored; keys are never part of the answer. */
    peers: async (): Promise<PeerStatus[]> => peerStatuses(db, await localState(), await companyTime(db)),
    exchange: keepingMark(runs.exchange),
    /**
     * One exchange with every peer; the failures, each with its reason. One at a time: a call made
     * while another runs (the background's, an on-demand one) starts when that one has ended, so its
     * answer tells what this instance holds after the call.
     */
    syncAll: keepingMark(runs.syncAll),
    /** At a clean stop: the folder's mark as the database is left. */
    keepFolderMark: async (): Promise<void> => folderMark?.keep(),
    /** A peer's pull (as objects, or as JSON text for HTTP), snapshot and push, each caller admitted first. */
    ...serving,
    /** An image's original by content hash, for a peer that lacks the file (GET /v1/sync/media/{hash}). */
    mediaOriginal: media.original,
    /** Hashes images uploaded before content hashes, where the catalogue is authored (serve runs it at start). */
    hashOlderImages: async (): Promise<number> => (replica.followsHub() ? 0 : media.hashOlderUploads()),
    async status(): Promise<SyncStatus> {
      const at = await companyTime(db);
      return {
        instance: { origin: replica.origin, instanceNo, catalogueOwner: replica.catalogueOwner(), heldOps: await replica.heldCount() },
        peers: await peerStatuses(db, await localState(), at),
        ...(await seenStatuses(db, at)),
        exchanging: runs.current(),
        opLog: await opLog.read(),
      };
    },
    /**
     * Removes the ops every known instance holds and older than the horizon (compaction.ts); answers
     * how many and the op log's size before and after.
     */
    async compact(horizonMs = DEFAULT_HORIZON_DAYS * DAY_MS): Promise<CompactionResult> {
      const result = await compactOpLog(db, replica.store, await replica.vector(), now(), horizonMs);
      opLog.forget();
      return result;
    },
    /** Sessions holding more seats than they have, with the bookings involved; acknowledged ones say so. */
    async conflicts(): Promise<SyncConflict[]> {
      const open = await oversoldSessionsOf(db);
      const companyZone = open.size > 0 ? ((await supplierTimezone(db)) ?? 'UTC') : 'UTC';
      return [...open.values()].map(({ session: r, oversold }) => ({
        sessionId: r.session_id,
        productCode: r.product_code,
        productName: r.product_name,
        startTime: toIso(r.start_at),
        // A person reads the local time: a Sydney 07:30 departure is the day before in UTC.
        startTimeLocal: toLocal(r.start_at, r.product_timezone || companyZone),
        capacity: oversold.capacity,
        seatsHeld: oversold.seatsHeld,
        bookings: oversold.bookings,
        bookingSet: oversold.bookingSet,
        acknowledged: oversold.acknowledged,
      }));
    },
    /** A person saw this oversold set of bookings; synced like any other change. */
    async acknowledge(sessionId: number, bookingSet: string, actor: Actor) {
      const open = (await this.conflicts()).find((c) => c.sessionId === sessionId);
      if (!open) throw new DomainError('NOT_FOUND', `Session ${sessionId} is not oversold`);
      // The same bookings in another order are the same set.
      bookingSet = bookingSetKey(bookingSet.split(',').map((order) => order.trim()).filter(Boolean));
      if (open.bookingSet !== bookingSet) throw new DomainError('CONFLICT', `Session ${sessionId} holds the bookings ${open.bookingSet} now, not ${bookingSet}: look again and acknowledge the current set`);
      await ctx.write(actor, async (tx) => insertAcknowledgement(tx.db, { session_id: sessionId, booking_set: bookingSet, acknowledged_at: tx.now, acknowledged_by: actor.name }));
      return { ...open, acknowledged: true };
    },
  };
}

export type SyncService = ReturnType<typeof createSyncService>;
