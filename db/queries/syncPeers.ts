import { sql, type Kysely } from 'kysely';
import type { Database, SyncPeersTable, SyncRefusalsTable } from '../schema';
import { LIVE_STATUSES } from '../../main/contract/enums';

/** Paired peers, known instance numbers, oversold sessions and their acknowledgements. */
export function listPeers(db: Kysely<Database>): Promise<SyncPeersTable[]> {
  return db.selectFrom('sync_peers').selectAll().orderBy('url').execute();
}

export function peerByUrl(db: Kysely<Database>, url: string): Promise<SyncPeersTable | undefined> {
  return db.selectFrom('sync_peers').selectAll().where('url', '=', url).executeTakeFirst();
}

export async function upsertPeer(db: Kysely<Database>, peer: Pick<SyncPeersTable, 'url' | 'key_sealed' | 'peer_origin' | 'peer_instance_no' | 'added_at'> & { peer_vector?: string | null }): Promise<void> {
  await db
    .insertInto('sync_peers')
    .values(peer)
    .onConflict((oc) => oc.column('url').doUpdateSet({ key_sealed: peer.key_sealed, peer_origin: peer.peer_origin, peer_instance_no: peer.peer_instance_no, peer_vector: peer.peer_vector }))
    .execute();
}

export async function deletePeer(db: Kysely<Database>, url: string): Promise<boolean> {
  const result = await db.deleteFrom('sync_peers').where('url', '=', url).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function recordPeerAttempt(
  db: Kysely<Database>,
  url: string,
  outcome: Partial<Pick<SyncPeersTable, 'last_success_at' | 'last_error' | 'skew_ms' | 'ops_to_send' | 'ops_to_receive' | 'peer_vector'>> & { last_attempt_at: number },
): Promise<void> {
  await db.updateTable('sync_peers').set(outcome).where('url', '=', url).execute();
}

export async function knownInstances(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db.selectFrom('sync_instances').select(['origin', 'instance_no']).execute();
  return Object.fromEntries(rows.map((r) => [r.origin, r.instance_no]));
}

export async function rememberInstances(db: Kysely<Database>, instances: Record<string, number>): Promise<void> {
  for (const [origin, instanceNo] of Object.entries(instances)) {
    await db.insertInto('sync_instances').values({ origin, instance_no: instanceNo }).onConflict((oc) => oc.column('origin').doUpdateSet({ instance_no: instanceNo })).execute();
  }
}

/** Whether this instance has products or bookings of its own (a desk that has them cannot start following a hub). */
export async function hasOwnCatalogueOrSales(db: Kysely<Database>): Promise<boolean> {
  const product = await db.selectFrom('products').select('product_code').limit(1).executeTakeFirst();
  if (product) return true;
  return (await db.selectFrom('bookings').select('order_number').limit(1).executeTakeFirst()) !== undefined;
}

/** The placeholder company a desk made at first start goes when it starts following a hub (the hub's arrives with the first exchange). */
export async function deletePlaceholderCompany(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('companies').execute();
}

/** Drops an instance from the known ones (a leftover of a refused pairing: it has no op here). */
export async function forgetInstance(db: Kysely<Database>, origin: string): Promise<void> {
  await db.deleteFrom('sync_instances').where('origin', '=', origin).execute();
}

/** Another instance exchanged with this one now (a desk pulling from or pushing to its hub). */
export async function markSeen(db: Kysely<Database>, origin: string, instanceNo: number, at: number): Promise<void> {
  await db
    .insertInto('sync_instances')
    .values({ origin, instance_no: instanceNo, last_seen_at: at, forgotten_at: null })
    .onConflict((oc) => oc.column('origin').doUpdateSet({ instance_no: instanceNo, last_seen_at: at, forgotten_at: null }))
    .execute();
}

/** The instances that have exchanged with this one and are not forgotten, the most recent first. */
export function seenInstances(db: Kysely<Database>): Promise<{ origin: string; instance_no: number; last_seen_at: number | null }[]> {
  return db.selectFrom('sync_instances').select(['origin', 'instance_no', 'last_seen_at']).where('last_seen_at', 'is not', null).where('forgotten_at', 'is', null).orderBy('last_seen_at', 'desc').execute();
}

/**
 * Forgets the instances numbered `instanceNo` that exchanged with this one or were refused here:
 * marked forgotten (their numbers stay taken) and their refusals dropped. Whether there was one.
 */
export async function forgetSeenInstance(db: Kysely<Database>, instanceNo: number, at: number): Promise<boolean> {
  const marked = await db.updateTable('sync_instances').set({ forgotten_at: at }).where('instance_no', '=', instanceNo).where('last_seen_at', 'is not', null).where('forgotten_at', 'is', null).executeTakeFirst();
  const dropped = await db.deleteFrom('sync_refusals').where('instance_no', '=', instanceNo).executeTakeFirst();
  return Number(marked.numUpdatedRows) + Number(dropped.numDeletedRows) > 0;
}

/** This instance refused a caller's exchange now: kept as that caller's last refusal. */
export async function recordRefusal(db: Kysely<Database>, refusal: SyncRefusalsTable): Promise<void> {
  const { instance_no, refused_at, reason, message } = refusal;
  await db.insertInto('sync_refusals').values(refusal).onConflict((oc) => oc.column('origin').doUpdateSet({ instance_no, refused_at, reason, message })).execute();
}

/** Each caller's last refusal, the most recent first. */
export function lastRefusals(db: Kysely<Database>): Promise<SyncRefusalsTable[]> {
  return db.selectFrom('sync_refusals').selectAll().orderBy('refused_at', 'desc').execute();
}

export interface OversoldRow {
  session_id: number;
  product_code: string;
  product_name: string;
  /** The product's own timezone, when it has one (else the company's). */
  product_timezone: string | null;
  start_at: number;
  capacity: number;
  order_number: string;
  seats: number;
}

/** Live bookings' seats on every session that holds more than it has. */
/** Sessions holding more seats than they have, one row per booking involved; only `sessionIds` when given. */
export async function oversoldSessions(db: Kysely<Database>, sessionIds?: readonly number[]): Promise<OversoldRow[]> {
  if (sessionIds !== undefined && sessionIds.length === 0) return [];
  const live = sql.join([...LIVE_STATUSES].map((s) => sql`${s}`));
  const only = sessionIds === undefined ? sql`` : sql`AND bi.session_id IN (${sql.join([...sessionIds])})`;
  const result = await sql<OversoldRow>`
    WITH held AS (
      SELECT bi.session_id, bi.order_number, sum(bi.seats_held) AS seats
      FROM booking_items bi JOIN bookings b ON b.order_number = bi.order_number
      WHERE bi.session_id IS NOT NULL AND b.status IN (${live}) ${only}
      GROUP BY bi.session_id, bi.order_number
    ), over AS (
      SELECT h.session_id FROM held h JOIN sessions s ON s.id = h.session_id GROUP BY h.session_id HAVING sum(h.seats) > max(s.seats)
    )
    SELECT s.id AS session_id, s.product_code, p.name AS product_name, p.timezone AS product_timezone, s.start_at, s.seats AS capacity, h.order_number, h.seats
    FROM over o JOIN sessions s ON s.id = o.session_id JOIN held h ON h.session_id = o.session_id JOIN products p ON p.product_code = s.product_code
    ORDER BY s.start_at, s.id, h.order_number`.execute(db);
  return result.rows;
}

export async function acknowledgedSets(db: Kysely<Database>, sessionIds: number[]): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set();
  const rows = await db.selectFrom('sync_acknowledgements').select(['session_id', 'booking_set']).where('session_id', 'in', sessionIds).execute();
  return new Set(rows.map((r) => `${r.session_id}|${r.booking_set}`));
}

export async function insertAcknowledgement(db: Kysely<Database>, row: { session_id: number; booking_set: string; acknowledged_at: number; acknowledged_by: string | null }): Promise<void> {
  await db.insertInto('sync_acknowledgements').values(row).onConflict((oc) => oc.doNothing()).execute();
}
