import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { acknowledgedSets, deletePeer, deletePlaceholderCompany, forgetInstance, hasOwnCatalogueOrSales, insertAcknowledgement, knownInstances, listPeers, markSeen, oversoldSessions, peerByUrl, recordPeerAttempt, rememberInstances, seenInstances, upsertPeer } from '../../db/queries/syncPeers';
import type { Actor, EngineContext } from '../domain/context';
import { DomainError } from '../domain/errors';
import { toIso, toLocal } from '../domain/time';
import { supplierTimezone } from '../../db/queries/departures';
import { answerPull, answerPullJson, answerPush, answerSnapshot, checkPeer, exchangeWith, helloOf, PairingError, type ExchangeCounts, type ExchangeReport, type LocalSide, type PeerTransport, type PullRequest, type PushRequest, type SnapshotRequest } from './exchange';
import { httpTransport } from './peerClient';
import { bookingSetKey } from './oversell';
import { SCHEMA_VERSION, type Replica } from './replica';
import { SYNCED_ENTITIES } from './entities';
import { keyValuesOf } from './op';
import { isDataRefusal } from '../../db/refusals';
import { missingCount, type Vector } from './vector';
import type { PeerAdded, PeerStatus, SyncConflict, SyncStatus } from '../contract/sync';
import { seal, unseal } from './secret';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Sync as the engine offers it: pairing, exchanges with every peer, status, the oversold
 * sessions a person must look at and their acknowledgement (a synced row, so every instance
 * sees it). Network calls happen between transactions, never inside one.
 */
export function createSyncService(ctx: EngineContext, replica: Replica, instanceNo: number, transportFor: (url: string, key: string) => PeerTransport = httpTransport) {
  const db: Kysely<Database> = ctx.db;
  const now = () => ctx.clock.now().getTime();
  const known = { current: {} as Record<string, number> };
  const side: LocalSide = { replica, instanceNo, now, knownInstances: () => known.current };
  const refreshKnown = async () => void (known.current = await knownInstances(db));

  function dataDir(): string {
    if (!ctx.dataDir) throw new DomainError('VALIDATION_ERROR', 'Sync peers need a data folder');
    return ctx.dataDir;
  }

  /** The exchange running now, if any, and how far it has come (the status shows it during a long catch-up). */
  let current: { url: string; startedAt: number; counts: ExchangeCounts } | null = null;
  async function exchange(url: string, onProgress: (line: string) => void = () => {}): Promise<ExchangeReport> {
    const peer = await peerByUrl(db, url);
    if (!peer) throw new DomainError('NOT_FOUND', `No peer ${url}`);
    await refreshKnown();
    const attemptAt = now();
    // The peer's vector as last heard in this exchange (kept even when it fails half-way), so the
    // status counts what waits for the peer as it is now, not as it was at the last success.
    const heard: { vector: Vector | null } = { vector: null };
    try {
      // Ops held for a newer schema are applied once this build knows it (after an upgrade).
      const released = await replica.releaseHeld();
      if (released > 0) onProgress(`applied ${released} held ops this version now understands`);
      current = { url, startedAt: attemptAt, counts: { snapshotRows: 0, received: 0, remaining: null, sent: 0 } };
      const report = await exchangeWith(
        side,
        listening(transportFor(url, unseal(dataDir(), peer.key_sealed)), heard),
        (line) => onProgress(`${url}: ${line}`),
        (counts) => {
          if (current?.url === url) current.counts = counts;
        },
      );
      await rememberInstances(db, { ...report.peer.knownInstances, [report.peer.origin]: report.peer.instanceNo });
      await recordPeerAttempt(db, url, { last_attempt_at: attemptAt, last_success_at: now(), last_error: null, skew_ms: report.skewMs, ops_to_send: report.opsToSend, ops_to_receive: report.opsToReceive, ...vectorOf(heard) });
      return report;
    } catch (error) {
      await recordPeerAttempt(db, url, { last_attempt_at: attemptAt, last_error: error instanceof Error ? error.message : String(error), ...vectorOf(heard) });
      throw error;
    } finally {
      current = null;
    }
  }

  /**
   * A caller's first pull page of an exchange (no cursor yet) is when it was last seen. Not a bare
   * hello (limit 0): pairing asks one and checks the answer on its side, and a desk that refuses it
   * (its number is taken) never comes back; recorded, its number would clash with the desk that
   * holds it on every exchange after. Best effort: a pull only reads, and must still be answered
   * when this instance cannot write (a full disk).
   */
  async function seenAtStart(request: PullRequest): Promise<void> {
    if (request.after === undefined && request.limit > 0) await markSeen(db, request.origin, request.instanceNo, now()).catch(() => undefined);
  }

  /**
   * The hub's side of the clash check: a caller whose instance number another instance that syncs
   * here already holds is refused before anything of it is recorded or taken (both would issue the
   * same ids). A number held only by an instance that has no op here (a desk whose pairing was
   * refused, recorded by an earlier build at its hello) is a leftover: it is forgotten, and the
   * desk that has synced here keeps syncing.
   */
  async function admit(caller: { origin: string; instanceNo: number; schema: { min: number; max: number } }): Promise<void> {
    // This instance's own origin (a copied folder) or number: refused like any clash, before anything is recorded.
    checkPeer(side, { ...caller, catalogueOwner: replica.catalogueOwner(), knownInstances: {} });
    if (caller.schema.min > SCHEMA_VERSION) {
      throw new PairingError(`The caller reads schema ${caller.schema.min} and newer only, and this instance writes ${SCHEMA_VERSION}: upgrade TourDesk here first.`);
    }
    await refreshKnown();
    const holder = Object.entries(known.current).find(([origin, no]) => origin !== caller.origin && no === caller.instanceNo)?.[0];
    if (holder === undefined) return;
    const here = await replica.vector();
    if (!(holder in here) && caller.origin in here) {
      await forgetInstance(db, holder);
      await refreshKnown();
      return;
    }
    throw new PairingError(
      `Instance number ${caller.instanceNo} is already used by instance ${holder}, which syncs with this hub, so both would issue the same ids. ` +
        'Start this desk from a fresh data folder with another number (`tourdesk serve --instance N --data-dir NEW`) and pair that.',
    );
  }

  /** The exchange with every peer in progress, if any (syncAll runs them one at a time). */
  let exchanging: Promise<unknown> = Promise.resolve();
  async function syncAllNow(onProgress: (line: string) => void): Promise<{ url: string; error: string | null; report?: ExchangeReport }[]> {
    const results = [];
    for (const peer of await listPeers(db)) {
      try {
        const report = await exchange(peer.url, onProgress);
        onProgress(`${peer.url}: received ${report.received}, sent ${report.sent}`);
        results.push({ url: peer.url, error: null, report });
      } catch (error) {
        results.push({ url: peer.url, error: error instanceof Error ? error.message : String(error) });
      }
    }
    return results;
  }

  return {
    side,
    /** Links a peer: checks it answers, that its identity does not clash, and follows its hub. */
    async addPeer(url: string, key: string): Promise<PeerAdded> {
      const normalized = peerUrl(url);
      await refreshKnown();
      const hello = await transportFor(normalized, key).pull({ ...helloOf(side), vector: await replica.vector(), limit: 0, maxBytes: 1024 });
      checkPeer(side, hello);
      const owner = replica.catalogueOwner();
      let followsPeer = false;
      if (hello.catalogueOwner !== replica.origin && owner === replica.origin) {
        // This instance takes the peer's hub: it must not have a catalogue of its own beyond the placeholder company.
        if (await hasOwnCatalogueOrSales(db)) {
          throw new PairingError('This instance already has products or bookings of its own, and the peer follows a different catalogue. Pair from the other side (make this one the hub), or start this desk from a fresh data folder.');
        }
        // The placeholder company made at first start goes (the hub's comes with the first
        // exchange); its delete is still this instance's own op, so it is folded before the hub is set.
        await ctx.write({ keyId: null, role: 'system', resellerId: null, name: 'sync' }, async (tx) => deletePlaceholderCompany(tx.db));
        await replica.setHub(hello.catalogueOwner);
        followsPeer = true;
      } else if (hello.catalogueOwner !== replica.origin && hello.catalogueOwner !== owner) {
        throw new PairingError('The peer follows a different hub than this instance; pair each desk with the same hub.');
      }
      await upsertPeer(db, { url: normalized, key_sealed: seal(dataDir(), key), peer_origin: hello.origin, peer_instance_no: hello.instanceNo, added_at: now(), peer_vector: JSON.stringify(hello.vector) });
      await rememberInstances(db, { ...hello.knownInstances, [hello.origin]: hello.instanceNo });
      return { url: normalized, origin: hello.origin, instanceNo: hello.instanceNo, hub: followsPeer };
    },
    /** Unlinks a peer: the address as it was stored (without a trailing slash), or null when there was no such peer. */
    async removePeer(url: string): Promise<string | null> {
      const stored = url.replace(/\/+$/, '');
      return (await deletePeer(db, stored)) ? stored : null;
    },
    /** Peers as stored; keys are never part of the answer. */
    async peers(): Promise<PeerStatus[]> {
      const ours = await replica.vector();
      const zone = (await supplierTimezone(db)) ?? null;
      // "Not synced since 11:58" in the company's time (a desk before its first sync has no company yet: UTC).
      const at = (ms: number) => (zone ? `${toLocal(ms, zone).slice(0, 16)} (${zone})` : new Date(ms).toISOString());
      return (await listPeers(db)).map((p) => {
        const opsToSend = p.peer_vector === null ? p.ops_to_send : missingCount(JSON.parse(p.peer_vector) as Vector, ours);
        const waiting = opsToSend ? ` · ${opsToSend} ${opsToSend === 1 ? 'change' : 'changes'} waiting to send` : '';
        return {
          url: p.url,
          origin: p.peer_origin,
          instanceNo: p.peer_instance_no,
          lastSuccessAt: iso(p.last_success_at),
          lastAttemptAt: iso(p.last_attempt_at),
          lastError: p.last_error,
          clockSkewMs: p.skew_ms,
          // Counted now from the peer's vector as last heard: a desk offline all morning says how much waits.
          opsToSend,
          opsToReceive: p.ops_to_receive,
          summary: `${p.last_success_at === null ? 'Never synced' : `${p.last_error ? 'Not synced since' : 'Synced at'} ${at(p.last_success_at)}`}${waiting}${p.last_error ? ` (last try: ${p.last_error})` : ''}`,
        };
      });
    },
    exchange,
    /**
     * One exchange with every peer; the failures, each with its reason. One at a time: a call made
     * while another runs (the background's, an on-demand one) starts when that one has ended, so its
     * answer tells what this instance holds after the call.
     */
    syncAll(onProgress: (line: string) => void = () => {}): Promise<{ url: string; error: string | null; report?: ExchangeReport }[]> {
      const run = exchanging.then(() => syncAllNow(onProgress));
      exchanging = run.catch(() => undefined);
      return run;
    },
    async answerPull(request: PullRequest) {
      await admit(request);
      const answer = await answerPull(side, request);
      await seenAtStart(request);
      return answer;
    },
    /** answerPull as JSON text (HTTP), `envelope`'s fields first. */
    async answerPullJson(request: PullRequest, envelope: Record<string, unknown>) {
      await admit(request);
      const answer = await answerPullJson(side, request, envelope);
      await seenAtStart(request);
      return answer;
    },
    async answerSnapshot(request: SnapshotRequest) {
      await admit(request);
      return answerSnapshot(side, request);
    },
    async answerPush(request: PushRequest) {
      await admit(request);
      refuseUnknownRows(request.ops);
      let answer: Awaited<ReturnType<typeof answerPush>>;
      try {
        answer = await answerPush(side, request);
      } catch (error) {
        // A value that does not fit its column, a missing required one, a key naming no row: the
        // page rolled back whole; the peer is told which kind of problem, not the SQL.
        if (isDataRefusal(error)) throw new PageRefusedError(`This page does not fit this instance's tables (${(error as { code: string }).code}); nothing of it was applied. Is the peer's build a compatible one?`);
        throw error;
      }
      await markSeen(db, request.origin, request.instanceNo, now());
      return answer;
    },
    async status(): Promise<SyncStatus> {
      const seen = await seenInstances(db);
      return {
        instance: { origin: replica.origin, instanceNo, catalogueOwner: replica.catalogueOwner(), heldOps: await replica.heldCount() },
        peers: await this.peers(),
        seenBy: seen.map((r) => ({ origin: r.origin, instanceNo: r.instance_no, lastSeenAt: iso(r.last_seen_at)! })),
        exchanging: current ? { url: current.url, since: iso(current.startedAt)!, ...current.counts } : null,
      };
    },
    /** Sessions holding more seats than they have, with the bookings involved; acknowledged ones say so. */
    async conflicts(): Promise<SyncConflict[]> {
      const rows = await oversoldSessions(db);
      const acks = await acknowledgedSets(db, [...new Set(rows.map((r) => r.session_id))]);
      const companyZone = rows.length > 0 ? ((await supplierTimezone(db)) ?? 'UTC') : 'UTC';
      const bySession = new Map<number, Omit<SyncConflict, 'bookingSet' | 'acknowledged'>>();
      for (const r of rows) {
        const entry = bySession.get(r.session_id) ?? {
          sessionId: r.session_id,
          productCode: r.product_code,
          productName: r.product_name,
          startTime: toIso(r.start_at),
          // A person reads the local time: a Sydney 07:30 departure is the day before in UTC.
          startTimeLocal: toLocal(r.start_at, r.product_timezone || companyZone),
          capacity: r.capacity,
          seatsHeld: 0,
          bookings: [],
        };
        entry.seatsHeld += r.seats;
        entry.bookings.push({ orderNumber: r.order_number, seats: r.seats });
        bySession.set(r.session_id, entry);
      }
      return [...bySession.values()].map((c) => {
        const bookingSet = bookingSetKey(c.bookings.map((b) => b.orderNumber));
        return { ...c, bookingSet, acknowledged: acks.has(`${c.sessionId}|${bookingSet}`) };
      });
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

/** A pushed page this instance cannot take as it is: bad input (400), nothing of it applied. */
export class PageRefusedError extends Error {}

/**
 * Ops of this build's schema or older must name a table that syncs and its whole key; a newer
 * schema's are held as they are (this build cannot judge them).
 */
function refuseUnknownRows(ops: readonly { origin: string; seq: number; entity: string; entityId: string; schema: number }[]): void {
  for (const op of ops) {
    if (op.schema > SCHEMA_VERSION) continue;
    const entity = SYNCED_ENTITIES[op.entity];
    if (!entity) throw new PageRefusedError(`Op ${op.origin}:${op.seq} names ${op.entity}, which does not sync at schema ${op.schema}; nothing of the page was applied`);
    if (keyValuesOf(op.entityId)?.length !== entity.pk.length) throw new PageRefusedError(`Op ${op.origin}:${op.seq}'s entityId must hold ${entity.pk.length} key value(s) of ${op.entity} (${entity.pk.join(', ')}); nothing of the page was applied`);
  }
}

/** The transport, noting the peer's vector from each pull answer and push acknowledgement. */
function listening(transport: PeerTransport, heard: { vector: Vector | null }): PeerTransport {
  return {
    ...transport,
    pull: async (request) => {
      const answer = await transport.pull(request);
      heard.vector = answer.vector;
      return answer;
    },
    push: async (request) => {
      const answer = await transport.push(request);
      heard.vector = answer.vector;
      return answer;
    },
  };
}

const vectorOf = (heard: { vector: Vector | null }) => (heard.vector === null ? {} : { peer_vector: JSON.stringify(heard.vector) });

/** An address that is not a peer's URL: bad input (400), not a refusal by the peer (409). */
export class PeerAddressError extends PairingError {}

/** A peer's address as stored: an http(s) URL without a trailing slash; anything else refused in words. */
export function peerUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PeerAddressError(`“${text}” is not a peer address: give the peer's URL, like http://192.168.1.20:8080`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PeerAddressError(`“${text}” is not a peer address: a peer is reached over http:// or https://`);
  if (url.username || url.password) throw new PeerAddressError('A peer address must not hold a user name or password: the peer’s key is given on its own (--key, or the Peer key field)');
  return url.toString().replace(/\/+$/, '');
}
