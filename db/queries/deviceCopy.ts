import { sql, type Kysely } from 'kysely';
import type { Database, RevokedCodesTable } from '../schema';
import { inChunks } from './manifest';

/**
 * The reads behind a scanner device's window copy (main/domain/checkin/deviceCopy.ts): which orders
 * changed since a point in the op log, and the facts the manifest reads leave out. Every write is
 * folded into sync_ops before it commits, so `arrival` (the local insertion order) marks "since".
 */

type Db = Kysely<Database>;

/** The last op stored, or 0 on an empty log. */
export async function opLogHighMark(db: Db): Promise<number> {
  const row = await db.selectFrom('sync_ops').select(sql<number | null>`max(arrival)`.as('high')).executeTakeFirst();
  return Number(row?.high ?? 0);
}

/** How many ops lie in (low, high]: a cursor remembers it, and a different count means ops arrived late (or were compacted) below its mark. */
export async function opsBetween(db: Db, low: number, high: number): Promise<number> {
  const row = await db.selectFrom('sync_ops').select(sql<number>`count(*)`.as('n')).where('arrival', '>', low).where('arrival', '<=', high).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The tables whose rows a device's copy shows, and how a row's key leads to its order. */
const ORDER_TABLES = ['bookings', 'booking_items', 'booking_item_quantities', 'booking_item_extras', 'participants', 'order_barcodes', 'payments', 'revoked_codes', 'checkin_events', 'customers'] as const;

/**
 * The orders whose rows changed in (arrival, upTo] (up to `limit` ops; `overflow` when there were
 * more, and the caller sends the whole window instead).
 */
export async function ordersChangedSince(db: Db, arrival: number, upTo: number, limit: number): Promise<{ orders: string[]; overflow: boolean }> {
  const ops = await db
    .selectFrom('sync_ops')
    .select(['entity', 'entity_id'])
    .where('arrival', '>', arrival)
    .where('arrival', '<=', upTo)
    .where('entity', 'in', [...ORDER_TABLES])
    .orderBy('arrival')
    .limit(limit + 1)
    .execute();
  const overflow = ops.length > limit;
  const kept = ops.slice(0, limit);
  const keys = new Map<string, unknown[]>();
  for (const op of kept) keys.set(op.entity, [...(keys.get(op.entity) ?? []), (JSON.parse(op.entity_id) as unknown[])[0]]);
  const orders = new Set<string>();
  const add = (rows: { order_number: string | null }[]) => rows.forEach((r) => r.order_number !== null && orders.add(r.order_number));
  const ids = (entity: string) => [...new Set(keys.get(entity) ?? [])];
  for (const order of ids('bookings')) orders.add(String(order));
  const itemIds = ids('booking_items').concat(ids('booking_item_quantities'), ids('booking_item_extras')).map(Number);
  add(await inChunks(itemIds, (chunk) => db.selectFrom('booking_items').select('order_number').where('id', 'in', chunk).execute()));
  add(await inChunks(ids('participants').map(Number), (chunk) => db.selectFrom('participants').innerJoin('booking_items', 'booking_items.id', 'participants.item_id').select('booking_items.order_number').where('participants.id', 'in', chunk).execute()));
  add(await inChunks(ids('order_barcodes').map(String), (chunk) => db.selectFrom('order_barcodes').select('order_number').where('code', 'in', chunk).execute()));
  add(await inChunks(ids('payments').map(Number), (chunk) => db.selectFrom('payments').select('order_number').where('id', 'in', chunk).execute()));
  add(await inChunks(ids('revoked_codes').map(String), (chunk) => db.selectFrom('revoked_codes').select('order_number').where('code', 'in', chunk).execute()));
  add(await inChunks(ids('checkin_events').map(String), (chunk) => db.selectFrom('checkin_events').select('order_number').where('event_id', 'in', chunk).execute()));
  add(await inChunks(ids('customers').map(Number), (chunk) => db.selectFrom('bookings').select('order_number').where('customer_id', 'in', chunk).execute()));
  return { orders: [...orders].sort(), overflow };
}

/** Which of these orders have items in which of these sessions. */
export async function orderSessionPairs(db: Db, orders: readonly string[], sessionIds: readonly number[]): Promise<{ order_number: string; session_id: number }[]> {
  if (!sessionIds.length) return [];
  const rows = await inChunks(orders, (chunk) =>
    db.selectFrom('booking_items').select(['order_number', 'session_id']).distinct().where('order_number', 'in', chunk).where('session_id', 'in', [...sessionIds]).execute(),
  );
  return rows.map((r) => ({ order_number: r.order_number, session_id: Number(r.session_id) }));
}

/** The codes reissues replaced, of these orders. */
export function revokedCodesOf(db: Db, orders: readonly string[]): Promise<RevokedCodesTable[]> {
  return inChunks(orders, (chunk) => db.selectFrom('revoked_codes').selectAll().where('order_number', 'in', chunk).execute());
}
