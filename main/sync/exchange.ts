import { PAGE_LIMIT, PAGE_MAX_BYTES, type PullRequest, type SnapshotRequest } from '../contract/sync';
import { measureSkew } from './hlc';
import { advanceVector, missingCount, type Vector } from './vector';
import { SyncError } from './errors';
import { checkPeer, helloOf, type LocalSide } from './peers';
import type { MediaFetchReport } from './media';
import { joinFromSnapshot } from './snapshotJoin';
import { pullOps, WIRE_VALUES, type CompactPullResponse, type Hello, type PullResponse, type PushRequest, type PushResponse, type SnapshotResponse } from './wire';

/**
 * The exchange protocol, the calling side, paged:
 * - pull: "here is who I am and my vector; send what I lack" -> ops in the peer's arrival order,
 *   at most `limit` and about `maxBytes`, with `hasMore` and a cursor for the next page; the
 *   answer also carries the peer's identity, schema range, vector and clock (for skew);
 * - push: the same pages the other way, each applied by the receiver in one transaction.
 * Each page is fetched first, then applied in one transaction: no network wait inside it.
 * The serving side is serving.ts; the requests are in main/contract/sync.ts, the answers in wire.ts.
 */
export interface PeerTransport {
  pull(request: PullRequest): Promise<PullResponse | CompactPullResponse>;
  push(request: PushRequest): Promise<PushResponse>;
  /** Optional: a peer that offers snapshots lets a fresh instance join without replaying the log. */
  snapshot?(request: SnapshotRequest): Promise<SnapshotResponse>;
  /** Optional: an image's original file by its content hash (GET /v1/sync/media/{hash}). */
  media?(hash: string): Promise<Buffer>;
}

export interface ExchangeReport {
  peer: Hello;
  received: number;
  sent: number;
  skewMs: number;
  opsToSend: number;
  opsToReceive: number;
  /** Image files fetched after the rows, and those still missing (fetched again next exchange). */
  images?: MediaFetchReport;
}

/** How far an exchange has come, after each page (what a status shows while a long catch-up runs). */
export interface ExchangeCounts {
  snapshotRows: number;
  received: number;
  /** Ops the peer still has for us, as its last page said; null before the first page. */
  remaining: number | null;
  sent: number;
}

type Progress = (line: string) => void;

/** Who this instance is, as every request opens: its earlier origins too, when it was restored (incarnation.ts). */
const callerOf = (me: Hello) => ({ origin: me.origin, instanceNo: me.instanceNo, schema: me.schema, ...(me.incarnations ? { incarnations: me.incarnations } : {}) });

/**
 * One full exchange with a peer: pull every page we lack (each applied in its own transaction),
 * then push every page it lacks. A failure anywhere leaves what was applied applied and the
 * vectors true to it, so the next exchange continues where this one stopped.
 */
export async function exchangeWith(side: LocalSide, transport: PeerTransport, onProgress: Progress = () => {}, onCounts: (counts: ExchangeCounts) => void = () => {}): Promise<ExchangeReport> {
  const counts: ExchangeCounts = { snapshotRows: 0, received: 0, remaining: null, sent: 0 };
  const report = () => onCounts({ ...counts });
  const join = () =>
    joinFromSnapshot(side, { snapshot: transport.snapshot! }, callerOf(helloOf(side)), onProgress, (taken) => {
      counts.snapshotRows = taken;
      report();
    });
  if (transport.snapshot && side.replica.followsHub() && (await side.replica.isFresh())) {
    const rows = await join();
    if (rows > 0) onProgress(`joined from a snapshot of ${rows} rows`);
  }
  let { response, skewMs } = await pullAll(side, transport, onProgress, counts, report);
  // Further behind than the peer's op log reaches (it compacted ops we lack): its snapshot brings us
  // up to date (a join with what we hold), then the ops after it. Twice at most: a join resumed from
  // an earlier attempt can itself be older than what the peer compacted since; the next starts over.
  for (let tries = 0; response.rejoin === true && transport.snapshot && tries < 2; tries++) {
    onProgress('behind the peer\u2019s op log: rejoining from its snapshot');
    if ((await join()) === 0) break;
    ({ response, skewMs } = await pullAll(side, transport, onProgress, counts, report));
  }
  if (response.rejoin === true) throw new SyncError('GAP', `${response.origin} no longer holds ops this instance lacks (its op log was compacted) and this instance cannot take its snapshot; pair it with its hub, which sends one`);
  const theirs = await pushAll(side, transport, response.vector, onProgress, counts, report);
  const ours = await side.replica.vector();
  const images = await fetchImages(side, transport, onProgress);
  return { peer: response, received: counts.received, sent: counts.sent, skewMs, opsToSend: missingCount(theirs, ours), opsToReceive: missingCount(ours, theirs), ...(images ? { images } : {}) };
}

/** After the rows: the image files this instance has rows but no files for. A failure is reported, never thrown: rows never wait for files. */
async function fetchImages(side: LocalSide, transport: PeerTransport, onProgress: Progress): Promise<MediaFetchReport | undefined> {
  if (!side.media || !transport.media) return undefined;
  const images = await side.media.fetchMissing((hash) => transport.media!(hash));
  if (images.fetched > 0) onProgress(`fetched ${images.fetched} image${images.fetched === 1 ? '' : 's'}`);
  if (images.failed.length > 0) onProgress(`${images.failed.length} image${images.failed.length === 1 ? '' : 's'} still missing, fetched again next exchange (${images.failed[0].reason})`);
  return images;
}

/** Pulls and applies every page this instance lacks; answers the peer's last page and the clock skew it measured. */
async function pullAll(side: LocalSide, transport: PeerTransport, onProgress: Progress, counts: ExchangeCounts, report: () => void): Promise<{ response: PullResponse; skewMs: number }> {
  const me = helloOf(side);
  // Pipelined: the next page is asked for while this one applies (the peer reads it meanwhile).
  // Safe because pages apply in order, each in its own transaction with the vector advanced last:
  // the request carries the vector this page leaves (advanceVector, the same one apply computes)
  // and the cursor after it; if this page fails, the exchange stops and the early answer is dropped.
  const pull = (vector: Vector, after: number | undefined) => {
    const sentAt = side.now();
    const answer = transport
      .pull({ ...callerOf(me), vector, limit: PAGE_LIMIT, maxBytes: PAGE_MAX_BYTES, after, wire: WIRE_VALUES })
      .then((r) => ({ response: pullOps(r), skewMs: measureSkew(r.now, sentAt, side.now()) }));
    answer.catch(() => {}); // awaited below, unless a failed apply ends the exchange first
    return answer;
  };
  let next = pull(await side.replica.vector(), undefined);
  for (;;) {
    const { response, skewMs } = await next;
    checkPeer(side, response);
    await side.onPeerHello?.(response);
    let predicted: Vector | null = null;
    if (response.hasMore) {
      try {
        predicted = advanceVector(await side.replica.vector(), response.ops);
      } catch {
        // a page with a gap: apply refuses it below, so nothing is asked for after it
      }
      if (predicted) next = pull(predicted, response.cursor);
    }
    if (response.ops.length > 0) {
      // Only the hub's clock is trusted over ours: a slow desk must still take the hub's ops.
      await side.replica.apply(response.ops, response.origin === side.replica.catalogueOwner() ? skewMs : 0);
      counts.received += response.ops.length;
      if (response.hasMore) onProgress(`received ${counts.received} ops, ${response.remaining} to go`);
    }
    counts.remaining = response.hasMore ? response.remaining : 0;
    report();
    if (!response.hasMore) return { response, skewMs };
    if (!predicted) next = pull(await side.replica.vector(), response.cursor);
  }
}

/** Pushes every page the peer lacks, starting from its vector `theirs`; answers its vector after the last page. */
async function pushAll(side: LocalSide, transport: PeerTransport, theirs: Vector, onProgress: Progress, counts: ExchangeCounts, report: () => void): Promise<Vector> {
  const me = helloOf(side);
  let cursor: number | undefined;
  for (;;) {
    const page = await side.replica.pageFor(theirs, PAGE_LIMIT, PAGE_MAX_BYTES, cursor);
    if (page.ops.length === 0) return theirs;
    const answer = await transport.push({ ...callerOf(me), ops: page.ops });
    counts.sent += page.ops.length;
    report();
    theirs = answer.vector;
    if (page.hasMore) onProgress(`sent ${counts.sent} ops`);
    if (!page.hasMore) return theirs;
    cursor = page.cursor;
  }
}
