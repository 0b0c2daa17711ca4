import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { listPeers, peerByUrl, recordPeerAttempt, rememberInstances } from '../../db/queries/syncPeers';
import { movePeerOrigin } from '../../db/queries/syncIncarnation';
import { DomainError } from '../domain/errors';
import { exchangeWith, type ExchangeCounts, type ExchangeReport, type PeerTransport } from './exchange';
import type { KnownInstances, LocalSide } from './peers';
import type { Vector } from './vector';
import { measureSkew } from './hlc';

export interface PeerRunResult {
  url: string;
  error: string | null;
  report?: ExchangeReport;
}

/**
 * Exchanges with the stored peers, one at a time, each attempt recorded with the peer (its time,
 * its error, what waits each way) and the one running now shown with its progress.
 * `transportFor` opens a peer's transport from its stored (sealed) key.
 */
export function createExchangeRuns(db: Kysely<Database>, side: LocalSide, known: KnownInstances, transportFor: (url: string, sealedKey: string) => PeerTransport) {
  const { replica, now } = side;
  /** The exchange running now, if any, and how far it has come (the status shows it during a long catch-up). */
  let current: { url: string; startedAt: number; counts: ExchangeCounts } | null = null;
  async function exchange(url: string, onProgress: (line: string) => void = () => {}): Promise<ExchangeReport> {
    const peer = await peerByUrl(db, url);
    if (!peer) throw new DomainError('NOT_FOUND', `No peer ${url}`);
    await known.refresh();
    const attemptAt = now();
    // The peer's vector and clock as last heard in this exchange (kept even when it fails half-way),
    // so the status counts what waits for the peer as it is now, not as it was at the last success,
    // and can tell when a peer refusing this instance's clock stamps will take them.
    const heard: Heard = { vector: null, skewMs: null };
    try {
      // Ops held for a newer schema are applied once this build knows it (after an upgrade).
      const released = await replica.releaseHeld();
      if (released > 0) onProgress(`applied ${released} held ops this version now understands`);
      current = { url, startedAt: attemptAt, counts: { snapshotRows: 0, received: 0, remaining: null, sent: 0 } };
      const report = await exchangeWith(
        side,
        listening(transportFor(url, peer.key_sealed), heard, now),
        (line) => onProgress(`${url}: ${line}`),
        (counts) => {
          if (current?.url === url) current.counts = counts;
        },
      );
      await rememberInstances(db, { ...report.peer.knownInstances, [report.peer.origin]: report.peer.instanceNo });
      // A peer restored from a backup answers as a new incarnation (incarnation.ts): kept under its new origin.
      if (report.peer.origin !== peer.peer_origin) await movePeerOrigin(db, url, report.peer.origin);
      await recordPeerAttempt(db, url, { last_attempt_at: attemptAt, last_success_at: now(), last_error: null, skew_ms: report.skewMs, ops_to_send: report.opsToSend, ops_to_receive: report.opsToReceive, ...vectorOf(heard) });
      return report;
    } catch (error) {
      await recordPeerAttempt(db, url, { last_attempt_at: attemptAt, last_error: error instanceof Error ? error.message : String(error), ...vectorOf(heard), ...(heard.skewMs === null ? {} : { skew_ms: heard.skewMs }) });
      throw error;
    } finally {
      current = null;
    }
  }

  /** The exchange with every peer in progress, if any (syncAll runs them one at a time). */
  let exchanging: Promise<unknown> = Promise.resolve();
  async function syncAllNow(onProgress: (line: string) => void): Promise<PeerRunResult[]> {
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
    exchange,
    syncAll(onProgress: (line: string) => void = () => {}): Promise<PeerRunResult[]> {
      const run = exchanging.then(() => syncAllNow(onProgress));
      exchanging = run.catch(() => undefined);
      return run;
    },
    /** The exchange running now and how far it has come, or null. */
    current: () => (current ? { url: current.url, since: new Date(current.startedAt).toISOString(), ...current.counts } : null),
  };
}

interface Heard {
  vector: Vector | null;
  /** The peer's clock minus ours, measured on its last pull answer. */
  skewMs: number | null;
}

/** The transport, noting the peer's vector from each pull answer and push acknowledgement, and its clock from each pull answer. */
function listening(transport: PeerTransport, heard: Heard, now: () => number): PeerTransport {
  return {
    ...transport,
    pull: async (request) => {
      const sentAt = now();
      const answer = await transport.pull(request);
      heard.vector = answer.vector;
      heard.skewMs = measureSkew(answer.now, sentAt, now());
      return answer;
    },
    push: async (request) => {
      const answer = await transport.push(request);
      heard.vector = answer.vector;
      return answer;
    },
  };
}

const vectorOf = (heard: Heard) => (heard.vector === null ? {} : { peer_vector: JSON.stringify(heard.vector) });
