import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { keyValuesOf, type PullRequest, type SnapshotRequest } from '../contract/sync';
import { isDataRefusal } from '../../db/refusals';
import { markSeen, recordRefusal } from '../../db/queries/syncPeers';
import { recordHolderVector } from '../../db/queries/syncCompaction';
import { isBehindCompaction } from './compaction';
import { SYNCED_ENTITIES, SYNCED_TABLES } from './entities';
import { missingCount } from './vector';
import { SCHEMA_VERSION } from './core';
import { SyncError } from './errors';
import { admit, helloOf, type KnownInstances, type LocalSide } from './peers';
import { pullPageJson, type PullResponse, type PushRequest, type PushResponse, type SnapshotResponse } from './wire';

/**
 * The serving side of an exchange: a peer's pull, push and snapshot requests, each caller admitted
 * first (peers.ts, admit) and its visit recorded. Each page is read, or applied in one transaction, here.
 */
export function createServing(db: Kysely<Database>, side: LocalSide, known: KnownInstances) {
  /**
   * A caller's first pull page of an exchange (no cursor yet) is when it was last seen. Not a bare
   * hello (limit 0): pairing asks one and checks the answer on its side, and a desk that refuses it
   * (its number is taken) never comes back; recorded, its number would clash with the desk that
   * holds it on every exchange after. Best effort: a pull only reads, and must still be answered
   * when this instance cannot write (a full disk).
   */
  async function seenAtStart(request: PullRequest): Promise<void> {
    if (request.after === undefined && request.limit > 0) {
      await markSeen(db, request.origin, request.instanceNo, side.now()).catch(() => undefined);
      // What it holds: compaction keeps every op it lacks (compaction.ts).
      await recordHolderVector(db, request.origin, request.vector).catch(() => undefined);
    }
  }
  /**
   * A caller further behind than the op log reaches (compaction removed ops it lacks) is told to
   * rejoin from the snapshot, on its first page, instead of a page that would skip them.
   */
  async function mustRejoin(request: PullRequest): Promise<boolean> {
    return request.after === undefined && request.limit > 0 && (await isBehindCompaction(db, request.origin, request.vector));
  }
  /**
   * Answers a caller's request, keeping a sync refusal as its last one (a hub's operator sees why a
   * desk does not sync). Not a bare hello's: pairing asks one and refuses on its side, leaving no trace.
   * Best effort, like seenAtStart: the caller is told the refusal whether or not it could be kept.
   */
  async function refusalKept<T>(request: { origin: string; instanceNo: number; limit?: number }, answer: () => Promise<T>): Promise<T> {
    try {
      return await answer();
    } catch (error) {
      if (error instanceof SyncError && request.limit !== 0) {
        await recordRefusal(db, { origin: request.origin, instance_no: request.instanceNo, refused_at: side.now(), reason: error.refusal, message: error.message }).catch(() => undefined);
      }
      throw error;
    }
  }
  return {
    answerPull: (request: PullRequest): Promise<PullResponse> =>
      refusalKept(request, async () => {
        await admit(db, side, known, request);
        const answer = (await mustRejoin(request)) ? await rejoinAnswer(side, request) : await answerPull(side, request);
        await seenAtStart(request);
        return answer;
      }),
    /** answerPull as JSON text (HTTP), `envelope`'s fields first. */
    answerPullJson: (request: PullRequest, envelope: Record<string, unknown>): Promise<string> =>
      refusalKept(request, async () => {
        await admit(db, side, known, request);
        const answer = (await mustRejoin(request)) ? JSON.stringify({ ...envelope, ...(await rejoinAnswer(side, request)) }) : await answerPullJson(side, request, envelope);
        await seenAtStart(request);
        return answer;
      }),
    answerSnapshot: (request: SnapshotRequest): Promise<SnapshotResponse> =>
      refusalKept(request, async () => {
        await admit(db, side, known, request);
        return answerSnapshot(side, request);
      }),
    answerPush: (request: PushRequest): Promise<PushResponse> =>
      refusalKept(request, async () => {
        await admit(db, side, known, request);
        const answer = await answerCheckedPush(side, request);
        await markSeen(db, request.origin, request.instanceNo, side.now());
        return answer;
      }),
  };
}

/** The answers alone, without admitting the caller (an exchange between engines in one process, in tests). */

/** The answer to a pull (the server side of GET-what-I-lack), as objects. */
export async function answerPull(side: LocalSide, request: PullRequest): Promise<PullResponse> {
  const page = await side.replica.pageFor(request.vector, request.limit, request.maxBytes, request.after);
  const vector = await side.replica.vector();
  await side.beforeHello?.(vector);
  return { ...helloOf(side), now: side.now(), vector, ops: page.ops, hasMore: page.hasMore, cursor: page.cursor, remaining: missingCount(request.vector, vector) - page.ops.length };
}

/** The answer to a caller behind the op log: no ops, `rejoin` (it takes the snapshot, then pulls again). */
async function rejoinAnswer(side: LocalSide, request: PullRequest): Promise<PullResponse> {
  const vector = await side.replica.vector();
  return { ...helloOf(side), now: side.now(), vector, ops: [], hasMore: false, cursor: 0, remaining: missingCount(request.vector, vector), rejoin: true };
}

/** The same answer as JSON text, for HTTP, in the encoding the caller reads (wire.ts); `envelope`'s fields go first. */
export async function answerPullJson(side: LocalSide, request: PullRequest, envelope: Record<string, unknown> = {}): Promise<string> {
  const page = await side.replica.pageRowsFor(request.vector, request.limit, request.maxBytes, request.after);
  const vector = await side.replica.vector();
  await side.beforeHello?.(vector);
  const head = { ...envelope, ...helloOf(side), now: side.now(), vector, hasMore: page.hasMore, cursor: page.cursor, remaining: missingCount(request.vector, vector) - page.rows.length };
  return pullPageJson(side.replica.store, head, page.rows, request.wire);
}

/** A page of this instance's synced rows and merge states, with the vector they include. */
export async function answerSnapshot(side: LocalSide, request: SnapshotRequest): Promise<SnapshotResponse> {
  const { table, offset, after } = checkSnapshotCursor(request);
  const vector = await side.replica.vector(); // taken before the rows: anything newer merges again harmlessly
  try {
    const page = await side.replica.snapshotPage({ table, offset, ...(after ? { after } : {}) }, request.limit);
    return { ...helloOf(side), now: side.now(), vector, rows: page.rows, next: page.next };
  } catch (error) {
    // A key value of the wrong type for its column (PostgreSQL refuses to compare them).
    if (isDataRefusal(error)) throw new SyncError('SNAPSHOT_CURSOR', `The snapshot's \`after\` does not fit the keys of ${SYNCED_TABLES[table] ?? 'the tombstones'} (${(error as { code: string }).code}); ask again with the \`next\` of the page before`);
    throw error;
  }
}

/** A snapshot request's cursor names a table (or the tombstones after them) and, with `after`, a whole key of it. */
function checkSnapshotCursor(request: SnapshotRequest): SnapshotRequest {
  const tables = SYNCED_TABLES.length;
  if (request.table > tables) throw new SyncError('SNAPSHOT_CURSOR', `The snapshot has tables 0 to ${tables - 1} and the tombstones (${tables}); there is no table ${request.table}`);
  const keyLength = request.table < tables ? SYNCED_ENTITIES[SYNCED_TABLES[request.table]].pk.length : 2;
  if (request.after && request.after.length !== keyLength) {
    const what = request.table < tables ? `${SYNCED_TABLES[request.table]}'s key (${SYNCED_ENTITIES[SYNCED_TABLES[request.table]].pk.join(', ')})` : 'a tombstone\'s key (entity, entity id)';
    throw new SyncError('SNAPSHOT_CURSOR', `The snapshot's \`after\` must hold ${keyLength} value(s), ${what}; it holds ${request.after.length}`);
  }
  return request;
}

export async function answerPush(side: LocalSide, request: PushRequest): Promise<PushResponse> {
  return side.replica.apply(request.ops);
}

/**
 * A pushed page, checked before it is applied: ops of this build's schema or older must name a
 * table that syncs and its whole key (a newer schema's are held as they are: this build cannot
 * judge them). A page that does not fit the tables rolls back whole; the peer is told which kind
 * of problem, not the SQL.
 */
async function answerCheckedPush(side: LocalSide, request: PushRequest): Promise<PushResponse> {
  refuseUnknownRows(request.ops);
  try {
    return await answerPush(side, request);
  } catch (error) {
    // A value that does not fit its column, a missing required one, a key naming no row.
    if (isDataRefusal(error)) throw new SyncError('PAGE_REFUSED', `This page does not fit this instance's tables (${(error as { code: string }).code}); nothing of it was applied. Is the peer's build a compatible one?`);
    throw error;
  }
}

function refuseUnknownRows(ops: readonly { origin: string; seq: number; entity: string; entityId: string; schema: number }[]): void {
  for (const op of ops) {
    if (op.schema > SCHEMA_VERSION) continue;
    const entity = SYNCED_ENTITIES[op.entity];
    if (!entity) throw new SyncError('PAGE_REFUSED', `Op ${op.origin}:${op.seq} names ${op.entity}, which does not sync at schema ${op.schema}; nothing of the page was applied`);
    if (keyValuesOf(op.entityId)?.length !== entity.pk.length) throw new SyncError('PAGE_REFUSED', `Op ${op.origin}:${op.seq}'s entityId must hold ${entity.pk.length} key value(s) of ${op.entity} (${entity.pk.join(', ')}); nothing of the page was applied`);
  }
}
