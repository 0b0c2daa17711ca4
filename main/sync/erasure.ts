import type { SyncStore } from '../../db/syncStore';
import { canonicalJson, keyOf, type WireOp } from './op';
import { ERASED_BOOKING_VALUES, ERASED_PARTICIPANT_VALUES, SYNCED_ENTITIES } from './entities';
import { purgePersonal } from './merge';
import { eraseAnswer } from './erasedAnswer';

/**
 * A customer's erasure, applied where the merge finds it: their personal columns are blanked in
 * every op of theirs, and in their bookings and participants (rows and ops) too; the answers kept
 * for their bookings' scans (rows and ops) and the local journal's entries of them lose them as well.
 */
export async function erase(q: SyncStore, entityId: string): Promise<void> {
  for (const row of await q.opsOfEntity('customers', entityId)) {
    if (row.change_json !== null) await q.rewriteChange(row.arrival, purgePersonal(q.changeOf(row)), row.entity);
  }
  await scrubHeld(q, 'customers', entityId, (change) => purgePersonal(change)!);
  const customerId = (JSON.parse(entityId) as number[])[0];
  await q.purgeJournal(String(customerId));
  for (const orderNumber of await q.bookingsOfCustomer(customerId)) {
    await blank(q, 'bookings', keyOf([orderNumber]));
    for (const participantId of await q.participantsOfBooking(orderNumber)) await blank(q, 'participants', keyOf([participantId]));
    await q.purgeBookingJournal(orderNumber);
    for (const eventId of await q.answeredEventsOfBooking(orderNumber)) await blankAnswer(q, keyOf([eventId]));
  }
}

/** A check-in event's kept answer as the erased booking now reads: in the row and in every op of it. */
async function blankAnswer(q: SyncStore, entityId: string): Promise<void> {
  const overwrite = (change: Record<string, unknown>) =>
    typeof change.answer_json === 'string' ? { ...change, answer_json: eraseAnswer(change.answer_json) } : change;
  for (const row of await q.opsOfEntity('checkin_events', entityId)) {
    const change = row.change_json === null ? null : q.changeOf(row);
    if (change && canonicalJson(overwrite(change)) !== canonicalJson(change)) await q.rewriteChange(row.arrival, overwrite(change), row.entity);
  }
  await scrubHeld(q, 'checkin_events', entityId, overwrite);
  const current = await q.readRow('checkin_events', SYNCED_ENTITIES.checkin_events.pk, JSON.parse(entityId) as unknown[]);
  if (current && canonicalJson(overwrite(current)) !== canonicalJson(current)) await q.upsertRow('checkin_events', SYNCED_ENTITIES.checkin_events.pk, overwrite(current));
}

/** Blanks the personal columns of an erased customer's booking or participant: the row and every op of it. */
async function blank(q: SyncStore, table: 'bookings' | 'participants', entityId: string): Promise<void> {
  const values = table === 'bookings' ? ERASED_BOOKING_VALUES : ERASED_PARTICIPANT_VALUES;
  const overwrite = (change: Record<string, unknown>) => {
    const out = { ...change };
    for (const [column, value] of Object.entries(values)) if (column in out) out[column] = value;
    return out;
  };
  for (const row of await q.opsOfEntity(table, entityId)) if (row.change_json !== null) await q.rewriteChange(row.arrival, overwrite(q.changeOf(row)!), row.entity);
  await scrubHeld(q, table, entityId, overwrite);
  const key = JSON.parse(entityId) as unknown[];
  const current = await q.readRow(table, SYNCED_ENTITIES[table].pk, key);
  if (current && canonicalJson(overwrite(current)) !== canonicalJson(current)) await q.upsertRow(table, SYNCED_ENTITIES[table].pk, overwrite(current));
}

/**
 * Ops held back (a newer schema's, kept until an upgrade) are copies of ops as they arrived: the held
 * copy of a row's op loses what the stored op lost. Its page's value array goes too (it is the same
 * change, unerased).
 */
async function scrubHeld(q: SyncStore, entity: string, entityId: string, overwrite: (change: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  for (const held of await q.heldOfEntity(entity, entityId)) {
    const { stored: _unerased, ...op } = JSON.parse(held.op_json) as WireOp;
    const scrubbed = JSON.stringify({ ...op, change: op.change === null ? null : overwrite(op.change) });
    if (scrubbed !== held.op_json) await q.rewriteHeld(held.origin, held.seq, scrubbed);
  }
}

/**
 * What keepErased would otherwise ask the store, known from the rows a write inserted that took the
 * fold's short path: such a row is in its table exactly as its change has it (nothing merged it), a
 * new booking has had no customer but the one it names (its only op is this insert, and no snapshot
 * linked an order number that had no row here), and a new customer is not erased (an erased one's
 * insert takes the whole path). A new check-in event's booking, when it keeps an answer, is in its
 * change too (a scan's SCAN row and its CHECK_IN: not read back from the table).
 */
export interface WrittenLinks {
  orderOfParticipant: ReadonlyMap<number, string>;
  customersOfBooking: ReadonlyMap<string, readonly number[]>;
  newCustomers: ReadonlySet<number>;
  /** By the event's key (the op's entity id): its order number when it keeps an answer, else null (as answeredOrderOf). */
  answeredOrderOfEvent: ReadonlyMap<string, string | null>;
}
export const NO_LINKS: WrittenLinks = { orderOfParticipant: new Map(), customersOfBooking: new Map(), newCustomers: new Set(), answeredOrderOfEvent: new Map() };

/**
 * Erasure is final for bookings and participants too: a row of an erased customer touched by
 * this transaction (an op that arrived after the erasure, or an edit made before a desk heard
 * of it) is blanked again. Run after a page or a fold, when every row it needs is in place.
 */
export async function keepErased(q: SyncStore, touched: readonly { entity: string; entityId: string }[], known: WrittenLinks = NO_LINKS): Promise<void> {
  // A booking and its participants ask the same question: answered once per booking.
  const erasedBooking = new Map<string, boolean>();
  for (const { entity, entityId } of touched) {
    if (entity !== 'bookings' && entity !== 'participants' && entity !== 'checkin_events') continue;
    const id = (JSON.parse(entityId) as unknown[])[0];
    const orderNumber =
      entity === 'bookings' ? String(id)
      : entity === 'checkin_events' ? (known.answeredOrderOfEvent.has(entityId) ? known.answeredOrderOfEvent.get(entityId)! : await answeredOrderOf(q, entityId))
      : (known.orderOfParticipant.get(Number(id)) ?? (await q.bookingOfParticipant(Number(id))));
    if (orderNumber === null) continue;
    let erased = erasedBooking.get(orderNumber);
    if (erased === undefined) {
      erased = false;
      for (const customerId of known.customersOfBooking.get(orderNumber) ?? (await q.customersOfBooking(orderNumber))) {
        if (!known.newCustomers.has(customerId) && (await q.rowState('customers', keyOf([customerId])))?.erased) erased = true;
      }
      erasedBooking.set(orderNumber, erased);
    }
    if (erased) await (entity === 'checkin_events' ? blankAnswer(q, entityId) : blank(q, entity, entityId));
  }
}

/** The booking of a check-in event that keeps an answer (only those can hold a guest's data), or null. */
async function answeredOrderOf(q: SyncStore, entityId: string): Promise<string | null> {
  const row = await q.readRow('checkin_events', SYNCED_ENTITIES.checkin_events.pk, JSON.parse(entityId) as unknown[]);
  return row && typeof row.answer_json === 'string' && typeof row.order_number === 'string' ? row.order_number : null;
}
