import type { HeldOp, SyncStore } from '../../syncStore';
import type { PostgresQuery } from './query';

type PostgresErasure = Pick<SyncStore, 'heldOfEntity' | 'rewriteHeld' | 'purgeJournal' | 'purgeBookingJournal' | 'answeredEventsOfBooking' | 'customersOfBooking' | 'bookingOfParticipant' | 'bookingsOfCustomer' | 'linkBookingCustomers' | 'participantsOfBooking'>;

/** What erasing a customer must reach on PostgreSQL (JSON read from text columns with `::json` operators). */
export function postgresErasure({ run, first }: PostgresQuery): PostgresErasure {
  return {
    heldOfEntity: async (entity, entityId) =>
      (await run<HeldOp>(`SELECT origin, seq, op_json FROM sync_held WHERE op_json::json ->> 'entity' = $1 AND op_json::json ->> 'entityId' = $2`, [entity, entityId])).map((h) => ({ ...h, seq: Number(h.seq) })),
    rewriteHeld: async (origin, seq, opJson) => void (await run('UPDATE sync_held SET op_json = $1 WHERE origin = $2 AND seq = $3', [opJson, origin, seq])),
    purgeJournal: async (customerId) => void (await run(`UPDATE op_log SET payload_json = '{"erased":true}' WHERE entity IN ('customer', 'customers') AND entity_id = $1`, [customerId])),
    purgeBookingJournal: async (orderNumber) =>
      void (await run(`UPDATE op_log SET payload_json = '{"erased":true}' WHERE entity = 'booking' AND entity_id = $1 AND payload_json <> '{"erased":true}'`, [orderNumber])),
    answeredEventsOfBooking: async (orderNumber) =>
      (await run<{ event_id: string }>('SELECT event_id FROM checkin_events WHERE order_number = $1 AND answer_json IS NOT NULL', [orderNumber])).map((r) => r.event_id),
    async customersOfBooking(orderNumber) {
      const named = await run<{ customer_id: string }>(
        `SELECT DISTINCT change_json::json ->> 'customer_id' AS customer_id FROM sync_ops
          WHERE entity = 'bookings' AND entity_id = $1 AND change_json::json ->> 'customer_id' IS NOT NULL
         UNION SELECT customer_id::text FROM sync_booking_customers WHERE order_number = $2`,
        [JSON.stringify([orderNumber]), orderNumber],
      );
      const ids = new Set(named.map((r) => Number(r.customer_id)));
      const current = (await first<{ customer_id: number | null }>('SELECT customer_id FROM bookings WHERE order_number = $1', [orderNumber]))?.customer_id;
      if (current != null) ids.add(current);
      return [...ids];
    },
    bookingOfParticipant: async (participantId) =>
      (await first<{ order_number: string }>('SELECT bi.order_number FROM participants p JOIN booking_items bi ON bi.id = p.item_id WHERE p.id = $1', [participantId]))?.order_number ?? null,
    bookingsOfCustomer: async (customerId) =>
      (
        await run<{ order_number: string }>(
          `SELECT order_number FROM bookings WHERE customer_id = $1
           UNION SELECT entity_id::json ->> 0 FROM sync_ops WHERE entity = 'bookings' AND change_json::json ->> 'customer_id' = $2
           UNION SELECT order_number FROM sync_booking_customers WHERE customer_id = $1`,
          [customerId, String(customerId)],
        )
      ).map((r) => r.order_number),
    async linkBookingCustomers(orderNumber, customerIds) {
      for (const id of customerIds) await run('INSERT INTO sync_booking_customers (order_number, customer_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [orderNumber, id]);
    },
    participantsOfBooking: async (orderNumber) => (await run<{ id: number }>('SELECT p.id FROM participants p JOIN booking_items bi ON bi.id = p.item_id WHERE bi.order_number = $1', [orderNumber])).map((r) => r.id),
  };
}
