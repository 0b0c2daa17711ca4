import type { Kysely } from 'kysely';
import type { Database, SyncPeersTable } from '../../db/schema';
import { lastRefusals, listPeers, seenInstances } from '../../db/queries/syncPeers';
import { supplierTimezone } from '../../db/queries/departures';
import { toLocal } from '../domain/time';
import type { PeerStatus, Refusal, SeenInstance, TurnedAway } from '../contract/sync';
import { missingCount, type Vector } from './vector';
import { DEFAULT_MAX_FUTURE_MS } from './hlc';

/*
 * What GET /v1/sync/status and `tourdesk peer list` say about the peers and the instances that sync
 * here, counted when asked. Times a person reads (the summaries) are in the company's zone.
 */

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A time as a person reads it: in the company's zone, or UTC before the desk has a company (before its first sync). */
export type ShowTime = (ms: number) => string;

export async function companyTime(db: Kysely<Database>): Promise<ShowTime> {
  const zone = (await supplierTimezone(db)) ?? null;
  return (ms) => (zone ? `${toLocal(ms, zone).slice(0, 16)} (${zone})` : new Date(ms).toISOString());
}

const changes = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'}`;

/** This instance's side of what waits: its vector, origin, clock, and the wall time of its latest own op's stamp. */
export interface LocalState {
  origin: string;
  ours: Vector;
  latestOwnWall: number | null;
  now: number;
}

/** Peers as stored, with what waits for each; keys are never part of the answer. */
export async function peerStatuses(db: Kysely<Database>, local: LocalState, at: ShowTime): Promise<PeerStatus[]> {
  return (await listPeers(db)).map((p) => {
    const theirs = p.peer_vector === null ? null : (JSON.parse(p.peer_vector) as Vector);
    // Counted now from the peer's vector as last heard: a desk offline all morning says how much waits.
    const opsToSend = theirs === null ? p.ops_to_send : missingCount(theirs, local.ours);
    const wait = clockWait(p, theirs, local);
    return {
      url: p.url,
      origin: p.peer_origin,
      instanceNo: p.peer_instance_no,
      lastSuccessAt: iso(p.last_success_at),
      lastAttemptAt: iso(p.last_attempt_at),
      lastError: p.last_error,
      clockSkewMs: p.skew_ms,
      opsToSend,
      opsToReceive: p.ops_to_receive,
      pushesWaitUntil: wait?.until ? iso(wait.until) : null,
      summary: peerSummary(p, opsToSend, at) + (wait ? ` · ${clockWaitWords(wait, at)}` : ''),
    };
  });
}

/**
 * Whether the peer refuses this instance's changes for their stamps: it takes none stamped more than
 * 5 minutes ahead of its own clock (hlc.ts). A clock that ran ahead and was set back left its stamps
 * ahead (a clock stamp never goes back), so the changes wait until the peer's clock reaches them:
 * `until`, in this machine's time. A clock still ahead has no such time (`until` null): it must be set right.
 */
function clockWait(p: SyncPeersTable, theirs: Vector | null, local: LocalState): { until: number | null; aheadMs: number } | null {
  const pending = (theirs?.[local.origin] ?? 0) < (local.ours[local.origin] ?? 0);
  if (!pending || local.latestOwnWall === null) return null;
  const skew = p.skew_ms ?? 0; // the peer's clock minus ours
  if (local.latestOwnWall <= local.now + skew + DEFAULT_MAX_FUTURE_MS) return null;
  if (-skew > DEFAULT_MAX_FUTURE_MS) return { until: null, aheadMs: -skew };
  return { until: local.latestOwnWall - DEFAULT_MAX_FUTURE_MS - skew, aheadMs: local.latestOwnWall - local.now - skew };
}

function clockWaitWords(wait: { until: number | null; aheadMs: number }, at: ShowTime): string {
  if (wait.until === null) return `this machine’s clock is ${Math.round(wait.aheadMs / 60_000)} min ahead of the peer’s: the peer refuses its changes until the clock is set right`;
  return `its changes wait for this machine’s clock until ${at(wait.until)}: the clock ran ahead and was set back, and the peer takes no change stamped over 5 min ahead of its own clock`;
}

/** "Synced at 11:58 (Pacific/Auckland)", "Not synced since … · 3 changes waiting to send (last try: …)". */
function peerSummary(p: SyncPeersTable, opsToSend: number | null, at: ShowTime): string {
  const lastTry = p.last_error ? ` (last try: ${p.last_error})` : '';
  // A desk that never synced holds only what pairing made (the placeholder company it dropped): that is not work waiting.
  if (p.last_success_at === null) return `Never synced: waits for its first sync${lastTry}`;
  const waiting = opsToSend ? ` · ${changes(opsToSend)} waiting to send` : '';
  return `${p.last_error ? 'Not synced since' : 'Synced at'} ${at(p.last_success_at)}${waiting}${lastTry}`;
}

/**
 * The instances that exchange with this one (a hub's desks), the most recent first, each with its
 * last refusal here; and the callers refused that never exchanged here (`turnedAway`).
 */
export async function seenStatuses(db: Kysely<Database>, at: ShowTime): Promise<{ seenBy: SeenInstance[]; turnedAway: TurnedAway[] }> {
  const refusals = new Map((await lastRefusals(db)).map((r) => [r.origin, r]));
  const refusalOf = (origin: string): Refusal | null => {
    const r = refusals.get(origin);
    return r ? { at: iso(r.refused_at)!, reason: r.reason, message: r.message } : null;
  };
  const refusedWords = (origin: string) => {
    const r = refusals.get(origin)!;
    return `refused ${at(r.refused_at)}: ${r.message} (${r.reason})`;
  };
  const seenBy = (await seenInstances(db)).map((r) => {
    const refused = refusals.get(r.origin);
    // A refusal older than the last exchange is news no more; the answer still carries it.
    const still = refused !== undefined && refused.refused_at >= r.last_seen_at! ? ` · ${refusedWords(r.origin)}` : '';
    return { origin: r.origin, instanceNo: r.instance_no, lastSeenAt: iso(r.last_seen_at)!, lastRefusal: refusalOf(r.origin), summary: `last exchange ${at(r.last_seen_at!)}${still}` };
  });
  const seen = new Set(seenBy.map((s) => s.origin));
  const turnedAway = [...refusals.values()]
    .filter((r) => !seen.has(r.origin))
    .map((r) => ({ origin: r.origin, instanceNo: r.instance_no, lastRefusal: refusalOf(r.origin)!, summary: `never exchanged here · ${refusedWords(r.origin)}` }));
  return { seenBy, turnedAway };
}
