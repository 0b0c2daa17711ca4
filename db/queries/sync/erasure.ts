import type BetterSqlite3 from 'better-sqlite3';
import type { HeldOp, SqliteSyncStore } from '../../syncStore';

type SqliteErasure = Pick<SqliteSyncStore, 'heldOfEntity' | 'rewriteHeld' | 'purgeJournal' | 'purgeBookingJournal' | 'answeredEventsOfBooking' | 'customersOfBooking' | 'bookingOfParticipant' | 'bookingsOfCustomer' | 'linkBookingCustomers' | 'participantsOfBooking'>;

/** What erasing a customer must reach on SQLite: the bookings and participants that hold them, and the journal. */
export function sqliteErasure(sqlite: BetterSqlite3.Database): SqliteErasure {
  const s = {
    customerOfBooking: sqlite.prepare<[string], { customer_id: number | null }>('SELECT customer_id FROM bookings WHERE order_number = ?'),
    /**
     * Every customer a booking's ops ever named: a booking edited away from its customer still holds
     * what they wrote. An instance that joined from a snapshot has no ops from before it: the
     * snapshot's list of the booking's customers stands for them (sync_booking_customers).
     */
    customersInBookingOps: sqlite.prepare<[string, string], { customer_id: number }>(
      // sync_op_rows by its key (migration 20261206_31): a booking's key, an order number, is text, so it is kept whole in `key`.
      `SELECT DISTINCT json_extract(change_json, '$.customer_id') AS customer_id FROM sync_op_rows
        WHERE entity = (SELECT no FROM sync_entities WHERE name = 'bookings') AND k1 = 0 AND k2 = 0 AND key = ? AND json_extract(change_json, '$.customer_id') IS NOT NULL
       UNION SELECT customer_id FROM sync_booking_customers WHERE order_number = ?`,
    ),
    linkBookingCustomer: sqlite.prepare<[string, number]>('INSERT OR IGNORE INTO sync_booking_customers (order_number, customer_id) VALUES (?, ?)'),
    bookingOfParticipant: sqlite.prepare<[number], { order_number: string }>(
      'SELECT bi.order_number FROM participants p JOIN booking_items bi ON bi.id = p.item_id WHERE p.id = ?',
    ),
    bookingsOfCustomer: sqlite.prepare<[number, number, number], { order_number: string }>(
      `SELECT order_number FROM bookings WHERE customer_id = ?
       UNION SELECT json_extract(entity_id, '$[0]') FROM sync_ops WHERE entity = 'bookings' AND json_extract(change_json, '$.customer_id') = ?
       UNION SELECT order_number FROM sync_booking_customers WHERE customer_id = ?`,
    ),
    participantsOfBooking: sqlite.prepare<[string], { id: number }>(
      'SELECT p.id FROM participants p JOIN booking_items bi ON bi.id = p.item_id WHERE bi.order_number = ?',
    ),
    purgeJournal: sqlite.prepare<[string]>(`UPDATE op_log SET payload_json = '{"erased":true}' WHERE entity IN ('customer', 'customers') AND entity_id = ?`),
    purgeBookingJournal: sqlite.prepare<[string]>(`UPDATE op_log SET payload_json = '{"erased":true}' WHERE entity = 'booking' AND entity_id = ? AND payload_json <> '{"erased":true}'`),
    answeredEvents: sqlite.prepare<[string], { event_id: string }>('SELECT event_id FROM checkin_events WHERE order_number = ? AND answer_json IS NOT NULL'),
    // sync_held is small (ops of a newer schema, until an upgrade): read whole, no index needed.
    heldOfEntity: sqlite.prepare<[string, string], HeldOp>("SELECT origin, seq, op_json FROM sync_held WHERE json_extract(op_json, '$.entity') = ? AND json_extract(op_json, '$.entityId') = ?"),
    rewriteHeld: sqlite.prepare<[string, string, number]>('UPDATE sync_held SET op_json = ? WHERE origin = ? AND seq = ?'),
  };
  return {
    heldOfEntity: (entity, entityId) => s.heldOfEntity.all(entity, entityId),
    rewriteHeld: (origin, seq, opJson) => void s.rewriteHeld.run(opJson, origin, seq),
    purgeJournal: (customerId) => void s.purgeJournal.run(customerId),
    purgeBookingJournal: (orderNumber) => void s.purgeBookingJournal.run(orderNumber),
    answeredEventsOfBooking: (orderNumber) => s.answeredEvents.all(orderNumber).map((r) => r.event_id),
    // An edit can clear or change a booking's customer: the ops still hold what each one wrote.
    customersOfBooking(orderNumber) {
      const ids = new Set(s.customersInBookingOps.all(JSON.stringify([orderNumber]), orderNumber).map((r) => Number(r.customer_id)));
      const current = s.customerOfBooking.get(orderNumber)?.customer_id;
      if (current != null) ids.add(current);
      return [...ids];
    },
    bookingOfParticipant: (participantId) => s.bookingOfParticipant.get(participantId)?.order_number ?? null,
    bookingsOfCustomer: (customerId) => s.bookingsOfCustomer.all(customerId, customerId, customerId).map((r) => r.order_number),
    linkBookingCustomers(orderNumber, customerIds) {
      for (const id of customerIds) s.linkBookingCustomer.run(orderNumber, id);
    },
    participantsOfBooking: (orderNumber) => s.participantsOfBooking.all(orderNumber).map((r) => r.id),
  };
}
