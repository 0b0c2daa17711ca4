import { sql, type Kysely } from 'kysely';
import { captureStatements } from '../syncCapture';

/**
 * Issue 36 ("every device signs its work"): `checkin_events.key_name`, the name of the API key that
 * recorded the event, as it was then. `api_key_id` names a key of the instance that recorded it (keys
 * never sync), so on every other instance it named nobody and the history's `by` read null there;
 * the name travels with the event instead. Older events keep NULL (their `by` still reads the local
 * key's name where the key is local).
 * checkin_events is a synced table: its SQLite capture triggers are re-made so they carry the column.
 * PostgreSQL (`postgres` below) gets the column only: its capture (row_to_json) takes new columns as they come.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE checkin_events ADD COLUMN key_name TEXT').execute(db);
  for (const statement of await captureStatements(db, { checkin_events: ['event_id'] })) await sql.raw(statement).execute(db);
}

export async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE checkin_events ADD COLUMN key_name TEXT').execute(db);
}
