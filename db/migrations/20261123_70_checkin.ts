import { sql, type Kysely } from 'kysely';

/**
 * Check-in, second pass:
 * - products.checkin_opens_minutes_before: how long before a session's start a scan may check in
 *   (NULL: always open); earlier scans answer NOT_YET_OPEN.
 * - revoked_codes: a participant or order code replaced by a reissue. Scanning it answers
 *   CODE_REVOKED naming the booking instead of UNKNOWN_CODE.
 */
const statements = [
  `ALTER TABLE products ADD COLUMN checkin_opens_minutes_before INTEGER`,
  `CREATE TABLE revoked_codes (
     code TEXT PRIMARY KEY,
     order_number TEXT NOT NULL REFERENCES bookings(order_number) ON DELETE CASCADE,
     participant_id INTEGER,
     item_id INTEGER,
     replaced_by TEXT NOT NULL,
     revoked_at INTEGER NOT NULL,
     api_key_id INTEGER
   ) STRICT`,
  `CREATE INDEX revoked_codes_order ON revoked_codes(order_number)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
