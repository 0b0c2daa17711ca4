import { sql, type Kysely } from 'kysely';
import { captureStatements } from '../syncCapture';

/**
 * Sync (issue 16).
 * - sync_instance: this data folder's origin (random, made here, so every folder has its own),
 *   its gapless op sequence, the last clock stamp, and the hub whose catalogue it follows.
 * - sync_capture: row changes recorded by triggers on every synced table, inside the writing
 *   transaction; the sync module folds them into ops before the same transaction commits.
 * - sync_ops: the replayable op log (origin, seq, clock stamp, resulting change, schema version),
 *   in arrival order. The old op_log stays as the local journal of requests and is not shipped.
 * - sync_vector: per origin, the highest contiguous seq applied here (advanced with the ops).
 * - sync_rows: each synced row's merge state (field stamps, insert and tombstone stamps).
 * - sync_held: ops written by a newer schema than this build knows, kept until an upgrade.
 * - sync_peers, sync_instances: paired peers (key encrypted at rest) and known instance numbers.
 * - sync_acknowledgements: a person's acknowledgement of an oversold session (a synced table).
 * - api_keys: a new `sync` role (SQLite cannot alter a CHECK, so the table is rebuilt).
 */
export const statements = [
  `CREATE TABLE sync_instance (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     origin TEXT NOT NULL,
     last_seq INTEGER NOT NULL DEFAULT 0,
     last_hlc TEXT,
     hub_origin TEXT
   ) STRICT`,
  `INSERT INTO sync_instance (id, origin) VALUES (1, hex(randomblob(8)))`,
  `CREATE TABLE sync_capture (
     id INTEGER PRIMARY KEY,
     tbl TEXT NOT NULL,
     pk TEXT NOT NULL,
     old_json TEXT,
     new_json TEXT
   ) STRICT`,
  `CREATE TABLE sync_ops (
     arrival INTEGER PRIMARY KEY,
     origin TEXT NOT NULL,
     seq INTEGER NOT NULL,
     hlc TEXT NOT NULL,
     entity TEXT NOT NULL,
     entity_id TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('insert','update','delete')),
     change_json TEXT,
     schema INTEGER NOT NULL,
     UNIQUE (origin, seq)
   ) STRICT`,
  `CREATE INDEX sync_ops_entity ON sync_ops(entity, entity_id)`,
  `CREATE TABLE sync_vector (origin TEXT PRIMARY KEY, seq INTEGER NOT NULL) STRICT`,
  `CREATE TABLE sync_rows (
     entity TEXT NOT NULL,
     entity_id TEXT NOT NULL,
     clocks_json TEXT NOT NULL,
     born TEXT,
     deleted TEXT,
     erased TEXT,
     PRIMARY KEY (entity, entity_id)
   ) WITHOUT ROWID, STRICT`,
  `CREATE TABLE sync_held (
     origin TEXT NOT NULL,
     seq INTEGER NOT NULL,
     op_json TEXT NOT NULL,
     reason TEXT NOT NULL,
     PRIMARY KEY (origin, seq)
   ) STRICT`,
  `CREATE TABLE sync_peers (
     url TEXT PRIMARY KEY,
     key_sealed TEXT NOT NULL,
     peer_origin TEXT,
     peer_instance_no INTEGER,
     added_at INTEGER NOT NULL,
     last_success_at INTEGER,
     last_attempt_at INTEGER,
     last_error TEXT,
     skew_ms INTEGER,
     ops_to_send INTEGER,
     ops_to_receive INTEGER
   ) STRICT`,
  `CREATE TABLE sync_instances (origin TEXT PRIMARY KEY, instance_no INTEGER NOT NULL) STRICT`,
  `CREATE TABLE sync_acknowledgements (
     session_id INTEGER NOT NULL,
     booking_set TEXT NOT NULL,
     acknowledged_at INTEGER NOT NULL,
     acknowledged_by TEXT,
     PRIMARY KEY (session_id, booking_set)
   ) STRICT`,
  `CREATE TABLE api_keys_new (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL,
     role TEXT NOT NULL CHECK (role IN ('supplier','agent','checkin','sync')),
     key_hash TEXT NOT NULL UNIQUE,
     key_prefix TEXT NOT NULL,
     reseller_id INTEGER REFERENCES resellers(id),
     created_at INTEGER NOT NULL,
     last_used_at INTEGER,
     revoked_at INTEGER
   ) STRICT`,
  `INSERT INTO api_keys_new SELECT id, name, role, key_hash, key_prefix, reseller_id, created_at, last_used_at, revoked_at FROM api_keys`,
  `DROP TABLE api_keys`,
  `ALTER TABLE api_keys_new RENAME TO api_keys`,
];

/** The synced tables and their keys as of this migration (frozen; main/sync/entities.ts has the rules). */
export const CAPTURED: Record<string, string[]> = {
  companies: ['id'], rates: ['id'], resellers: ['id'], pickup_lists: ['id'], pickup_locations: ['id'],
  products: ['product_code'], price_options: ['id'], extras: ['id'], product_extras: ['product_code', 'extra_id'],
  product_images: ['id'], categories: ['id'], category_products: ['category_id', 'product_code'],
  rate_products: ['rate_id', 'product_code'], partner_connect: ['product_code'], sessions: ['id'],
  session_price_options: ['session_id', 'price_option_id'], resources: ['id'], session_resources: ['resource_id', 'session_id'],
  customers: ['id'], vouchers: ['code'], external_codes: ['code'], bookings: ['order_number'], booking_items: ['id'],
  booking_item_quantities: ['item_id', 'position'], booking_item_extras: ['item_id', 'position'], participants: ['id'],
  order_barcodes: ['code'], payments: ['id'], voucher_redemptions: ['id'], revoked_codes: ['code'],
  checkin_events: ['event_id'], sync_acknowledgements: ['session_id', 'booking_set'],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
  // Triggers for every synced table, and the rows already there captured as inserts, so an
  // existing data folder's history becomes ops of its own origin on the first write after this.
  for (const statement of await captureStatements(db, CAPTURED, { baseline: true })) await sql.raw(statement).execute(db);
}
