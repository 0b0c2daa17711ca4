import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { DbHandle } from '../../db/connection';
import { inWriteTransaction } from '../../db/transaction';
import { keepTableMark, markState, recordSuccession, restoreSigns, syncIdentity, takeIncarnation } from '../../db/queries/syncIncarnation';
import { folderMarker, readFolderMark, wentBack } from './incarnationMark';
import type { Hello } from './wire';

/**
 * Restores that rejoin. An instance restored from a backup has forgotten the ops, ids and order
 * numbers it gave out after that backup, while its peers hold them. Re-issuing any would make two
 * different things one (peers refuse an op id they hold with other content). So a restore takes a
 * new incarnation before its first write: a new origin (its op sequence starts again under it, so no
 * op id repeats), the id and order-number sequences moved past a margin (what it could have issued
 * since the backup), and its earlier origin kept as an earlier self. Its earlier self's ops are then
 * any other origin's: the peers send back those it lost (a desk's pull; a hub's desks push what it
 * lacks, their own and relayed alike), and each one that comes back raises the sequences past the
 * ids and order numbers it names (apply.ts). Peers learn the earlier origins from every hello
 * (`incarnations`): a hub admits the desk's new self in place of the old (no re-pairing), a desk
 * follows its hub's new origin as the catalogue's owner.
 * How a restore is noticed: `tourdesk restore` leaves a mark in the copy it restores (SQLite); a
 * database copied back by hand holds less than its data folder's mark saw (incarnationMark.ts); a
 * PostgreSQL hub keeps its sync_instance table's oid, which pg_restore --clean changes.
 */

/** Ids the instance could have issued between its backup and the restore (a season is ~1M). */
export const ID_MARGIN = 10_000_000;
/** Order numbers likewise (a hub's season is ~100k bookings). */
export const ORDER_MARGIN = 100_000;

export interface Incarnation {
  was: string;
  origin: string;
  /** How it was noticed: `tourdesk restore`'s mark (or pg_restore's new table), or a copy put back by hand. */
  noticed: 'restore' | 'copied back';
}

/**
 * Run when a data folder opens, before the engine: a restored database takes a new incarnation
 * (one transaction; on PostgreSQL, of all hub processes starting at once, one does it). Null when
 * the database was not restored.
 */
export async function incarnateIfRestored(handle: DbHandle, now: number, options: { folder?: string; newOrigin?: () => string } = {}): Promise<Incarnation | null> {
  const newOrigin = options.newOrigin ?? (() => randomBytes(8).toString('hex'));
  // The folder's mark is the database's only on SQLite (a PostgreSQL hub's database is not in its folder).
  const folder = handle.postgres ? undefined : options.folder;
  const mark = folder === undefined ? null : readFolderMark(folder);
  const { taken, identity } = await inWriteTransaction(handle.db, async (conn) => {
    const copied = mark !== null && wentBack(mark, await markState(conn));
    const taken = await incarnateIn(conn, now, newOrigin, copied);
    return { taken, identity: handle.postgres ? await syncIdentity(conn) : null };
  });
  if (folder !== undefined) await folderMarker(handle.db, folder).keep();
  // A PostgreSQL handle read its origin when it opened, before this check (and before another hub
  // process's): the engine must start from the origin the database holds now, or it would go on
  // folding ops under the origin it gave up, re-issuing their ids.
  if (handle.postgres && identity) handle.postgres.syncInstance = identity;
  return taken;
}

async function incarnateIn(conn: Kysely<Database>, now: number, newOrigin: () => string, copiedBack: boolean): Promise<Incarnation | null> {
  const signs = await restoreSigns(conn);
  const moved = signs.tableMark !== null && signs.keptMark !== null && signs.keptMark !== signs.tableMark;
  if (!signs.pending && !moved && !copiedBack) {
    if (signs.tableMark !== null && signs.keptMark === null) await keepTableMark(conn, signs.tableMark);
    return null;
  }
  const origin = newOrigin();
  const was = await takeIncarnation(conn, { origin, at: now, idMargin: ID_MARGIN, orderMargin: ORDER_MARGIN, tableMark: signs.tableMark });
  return { was, origin, noticed: signs.pending || moved ? 'restore' : 'copied back' };
}

/** What a restore taking a new incarnation prints. */
export function incarnationLine(i: Incarnation): string {
  const what = i.noticed === 'restore' ? 'This database was restored from a backup' : 'This database is older than the one this data folder last held (copied back by hand)';
  return `${what}: it continues as a new incarnation (origin ${i.origin}, was ${i.was}); its peers send back what it lost at the next exchanges.`;
}

/**
 * A peer's hello named earlier origins of its own: they are recorded (ops of them are the peer's),
 * and when one is the hub this instance follows, it follows the hub's new origin. `recorded`: what
 * this process has recorded already (every page's hello repeats them).
 */
export async function followIncarnations(db: Kysely<Database>, hello: Pick<Hello, 'origin' | 'incarnations'>, hub: { now(): string | null; set(origin: string): Promise<void> }, at: number, recorded: Set<string>): Promise<void> {
  for (const earlier of hello.incarnations ?? []) {
    const key = `${earlier}>${hello.origin}`;
    if (recorded.has(key)) continue;
    await recordSuccession(db, earlier, hello.origin, at);
    recorded.add(key);
  }
  const followed = hub.now();
  if (followed !== null && followed !== hello.origin && (hello.incarnations ?? []).includes(followed)) await hub.set(hello.origin);
}
