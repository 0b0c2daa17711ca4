import { sql, type Kysely } from 'kysely';

/**
 * Check-in events gain what idempotency and grouped scans need:
 * - answer_json: the first answer given for a client eventId, returned again on a resend;
 * - parent_event_id: the scan an order-code check-in belongs to, so an UNDO naming the scan
 *   undoes every check-in it made.
 */
const statements = [
  `ALTER TABLE checkin_events ADD COLUMN answer_json TEXT`,
  `ALTER TABLE checkin_events ADD COLUMN parent_event_id TEXT`,
  `CREATE INDEX checkin_events_parent ON checkin_events(parent_event_id)`,
  // A scan reads the undos naming its participant's events without scanning the session.
  `CREATE INDEX checkin_events_undoes ON checkin_events(undoes_event_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
