import type { Kysely } from 'kysely';
import type { Database, SyncPeersTable } from '../../db/schema';
import { listPeers, seenInstances } from '../../db/queries/syncPeers';
import { supplierTimezone } from '../../db/queries/departures';
import { toLocal } from '../domain/time';
import type { PeerStatus, SeenInstance } from '../contract/sync';
import { missingCount, type Vector } from './vector';

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

/** Peers as stored, with what waits for each; keys are never part of the answer. */
export async function peerStatuses(db: Kysely<Database>, ours: Vector, at: ShowTime): Promise<PeerStatus[]> {
  return (await listPeers(db)).map((p) => {
    // Counted now from the peer's vector as last heard: a desk offline all morning says how much waits.
    const opsToSend = p.peer_vector === null ? p.ops_to_send : missingCount(JSON.parse(p.peer_vector) as Vector, ours);
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
      summary: peerSummary(p, opsToSend, at),
    };
  });
}

/** "Synced at 11:58 (Pacific/Auckland)", "Not synced since … · 3 changes waiting to send (last try: …)". */
function peerSummary(p: SyncPeersTable, opsToSend: number | null, at: ShowTime): string {
  const lastTry = p.last_error ? ` (last try: ${p.last_error})` : '';
  // A desk that never synced holds only what pairing made (the placeholder company it dropped): that is not work waiting.
  if (p.last_success_at === null) return `Never synced: waits for its first sync${lastTry}`;
  const waiting = opsToSend ? ` · ${changes(opsToSend)} waiting to send` : '';
  return `${p.last_error ? 'Not synced since' : 'Synced at'} ${at(p.last_success_at)}${waiting}${lastTry}`;
}

/** The instances that exchange with this one (a hub's desks), the most recent first. */
export async function seenStatuses(db: Kysely<Database>, at: ShowTime): Promise<SeenInstance[]> {
  return (await seenInstances(db)).map((r) => ({
    origin: r.origin,
    instanceNo: r.instance_no,
    lastSeenAt: iso(r.last_seen_at)!,
    summary: `last exchange ${at(r.last_seen_at!)}`,
  }));
}
