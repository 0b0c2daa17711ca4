import { z } from 'zod';
import { defineRoute, RawResponse, type RouteHost } from '../route';
import { successStatus } from '../envelope';
import { idParam } from '../../contract/common';
import { pullRequestSchema, pushRequestSchema, snapshotRequestSchema, type SyncRun, type SyncStatus } from '../../contract/sync';
import { DomainError } from '../../domain/errors';

/** A page a peer sends may be large (ops carry whole rows); pages are capped by the sender too. */
const PAGE_BODY_LIMIT = 16 * 1024 * 1024;

export function registerSyncRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'POST',
    path: '/v1/sync/pull',
    summary: 'The ops the caller lacks (by its version vector), one page in arrival order',
    tag: 'Sync',
    right: 'sync',
    body: pullRequestSchema,
    // The answer is written as text: a page's ops go out as stored, not parsed and serialized again.
    handler: async ({ body, engine }) => new RawResponse('application/json; charset=utf-8', await engine.sync.answerPullJson(body, { requestStatus: successStatus() })),
  });
  defineRoute(host, {
    method: 'POST',
    path: '/v1/sync/snapshot',
    summary: 'A page of this instance’s synced rows with their merge states and the vector they include (a fresh instance joins from it)',
    tag: 'Sync',
    right: 'sync',
    body: snapshotRequestSchema,
    handler: async ({ body, engine }) => engine.sync.answerSnapshot(body),
  });
  defineRoute(host, {
    method: 'POST',
    path: '/v1/sync/push',
    summary: 'Apply one page of ops from a peer, in one transaction',
    tag: 'Sync',
    right: 'sync',
    body: pushRequestSchema,
    bodyLimit: PAGE_BODY_LIMIT,
    handler: async ({ body, engine }) => engine.sync.answerPush(body),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/sync/media/:hash',
    summary: 'A product image’s original file by its SHA-256 (a peer that has the image’s row fetches the file it lacks)',
    tag: 'Sync',
    right: 'sync',
    params: z.object({ hash: z.string() }),
    handler: async ({ params, engine }) => {
      const { bytes, mimeType } = await engine.sync.mediaOriginal(params.hash);
      // Content-addressed: the same hash is the same bytes for ever.
      return new RawResponse(mimeType, bytes, { 'cache-control': 'private, max-age=31536000, immutable' });
    },
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/sync/status',
    summary: 'This instance’s identity and, per peer, the last successful exchange, ops waiting, last error and clock skew',
    tag: 'Sync',
    right: 'sync',
    handler: async ({ engine }): Promise<SyncStatus> => engine.sync.status(),
  });
  defineRoute(host, {
    method: 'POST',
    path: '/v1/sync/peers',
    summary: 'Pair with a peer (`tourdesk peer add`): asks it who it is, refuses a clash, follows its hub; its key is stored sealed and never answered',
    tag: 'Sync',
    right: 'system',
    body: z.object({ url: z.string().min(1).max(2_000), key: z.string().min(1).max(500) }),
    // Not an address at all: bad input (400). A clash, a refused key or a peer that does not answer:
    // 409, nothing stored, the reason says what to do (sync refusals answer as main/sync/errors.ts maps them).
    handler: async ({ body, engine }) => ({ peer: await engine.sync.addPeer(body.url, body.key) }),
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/sync/peers',
    summary: 'Unpair a peer (`tourdesk peer remove`): no more exchanges with it; what was exchanged stays',
    tag: 'Sync',
    right: 'system',
    query: z.object({ url: z.string().min(1).max(2_000) }),
    handler: async ({ query, engine }) => {
      const removed = await engine.sync.removePeer(query.url);
      if (removed === null) throw new DomainError('NOT_FOUND', `No peer ${query.url}`);
      return { removed };
    },
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/sync/instances/:instanceNo',
    summary: 'Forget an instance that synced here or was refused here (`tourdesk peer forget`): it leaves the status; its number stays taken, and its next exchange records it again',
    tag: 'Sync',
    right: 'system',
    params: z.object({ instanceNo: z.coerce.number().int().min(1).max(999) }),
    handler: async ({ params, engine }) => {
      await engine.sync.forgetInstance(params.instanceNo);
      return { forgotten: params.instanceNo };
    },
  });
  defineRoute(host, {
    method: 'POST',
    path: '/v1/sync/run',
    summary: 'Sync now: one exchange with every paired peer (after the one in progress, if any); per peer what moved or why it failed, and the status after',
    tag: 'Sync',
    // An office action: a peer's sync key must not make this instance call out to its other peers.
    right: 'system',
    body: z.object({}).optional(),
    handler: async ({ engine }): Promise<SyncRun> => {
      const runs = await engine.sync.syncAll();
      if (runs.length === 0) throw new DomainError('CONFLICT', 'This instance has no peers to sync with: pair it first (tourdesk peer add URL --key KEY)');
      return { peers: runs.map((r) => ({ url: r.url, error: r.error, received: r.report?.received ?? 0, sent: r.report?.sent ?? 0 })), status: await engine.sync.status() };
    },
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/sync/conflicts',
    summary: 'Sessions the merge left oversold, with the bookings involved',
    tag: 'Sync',
    // Every party's order numbers: the office and its guides (whose manifests show the same notice), not agents.
    right: 'manifest:read',
    handler: async ({ engine }) => ({ conflicts: await engine.sync.conflicts() }),
  });
  defineRoute(host, {
    method: 'POST',
    path: '/v1/sync/conflicts/:sessionId/acknowledge',
    summary: 'Acknowledge an oversold session’s current set of bookings (synced; reopens when the set changes)',
    tag: 'Sync',
    right: 'availability:write',
    params: z.object({ sessionId: idParam }),
    body: z.object({ bookingSet: z.string().min(1).max(10_000) }),
    handler: async ({ params, body, actor, engine }) => ({ conflict: await engine.sync.acknowledge(params.sessionId, body.bookingSet, actor) }),
  });
}
