import { sql, type Kysely } from 'kysely';

/**
 * The whole first schema in one migration: every resource of the booking API gets its table now,
 * so later work adds columns through new migrations instead of reshaping this one.
 *
 * Conventions: times are INTEGER epoch milliseconds (UTC instants, *_at); money is INTEGER minor
 * units (*_minor) in the row's currency; ids that two instances can both create come from the
 * injected id generator (never AUTOINCREMENT); JSON columns (*_json) hold nested shapes that are
 * only ever read whole.
 */
const statements = [
  `CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT`,
  `CREATE TABLE sequences (name TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT`,
  `INSERT INTO sequences (name, value) VALUES ('global', 0), ('order', 0)`,
  // Every domain write appends here in its own transaction; the sync module ships it to peers.
  `CREATE TABLE op_log (
     seq INTEGER PRIMARY KEY,
     op_id TEXT NOT NULL UNIQUE,
     at INTEGER NOT NULL,
     actor TEXT,
     entity TEXT NOT NULL,
     entity_id TEXT NOT NULL,
     action TEXT NOT NULL,
     payload_json TEXT NOT NULL
   ) STRICT`,
  `CREATE TABLE companies (
     id INTEGER PRIMARY KEY,
     alias TEXT NOT NULL UNIQUE,
     company_name TEXT NOT NULL,
     description TEXT,
     currency TEXT NOT NULL,
     timezone TEXT NOT NULL,
     locale TEXT NOT NULL,
     email TEXT, phone TEXT, website TEXT,
     address_line TEXT, address_line2 TEXT, city TEXT, state TEXT, post_code TEXT, country_code TEXT,
     latitude REAL, longitude REAL,
     logo_url TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT`,
  `CREATE TABLE resellers (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL,
     alias TEXT NOT NULL UNIQUE,
     rate_id INTEGER REFERENCES rates(id) ON DELETE SET NULL,
     created_at INTEGER NOT NULL
   ) STRICT`,
  `CREATE TABLE api_keys (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL,
     role TEXT NOT NULL CHECK (role IN ('supplier','agent','checkin')),
     key_hash TEXT NOT NULL UNIQUE,
     key_prefix TEXT NOT NULL,
     reseller_id INTEGER REFERENCES resellers(id),
     created_at INTEGER NOT NULL,
     last_used_at INTEGER,
     revoked_at INTEGER
   ) STRICT`,
  `CREATE TABLE pickup_lists (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL,
     additional_notes TEXT,
     other_location_instructions TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT`,
  `CREATE TABLE pickup_locations (
     id INTEGER PRIMARY KEY,
     pickup_list_id INTEGER NOT NULL REFERENCES pickup_lists(id) ON DELETE CASCADE,
     position INTEGER NOT NULL,
     location_name TEXT NOT NULL,
     address TEXT,
     latitude REAL, longitude REAL,
     minutes_prior INTEGER,
     additional_instructions TEXT
   ) STRICT`,
  `CREATE INDEX pickup_locations_list ON pickup_locations(pickup_list_id, position)`,
  `CREATE TABLE products (
     product_code TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     internal_code TEXT,
     product_type TEXT NOT NULL,
     short_description TEXT,
     description TEXT,
     additional_information TEXT,
     general_terms TEXT,
     terms TEXT,
     advertised_price_minor INTEGER,
     currency TEXT NOT NULL,
     booking_mode TEXT NOT NULL,
     confirm_mode TEXT NOT NULL,
     confirm_mode_min_participants INTEGER,
     agent_payment_type TEXT,
     cancellation_policy_days INTEGER,
     barcode_output_type TEXT,
     qr_code_type TEXT,
     charter INTEGER NOT NULL DEFAULT 0,
     quantity_required INTEGER NOT NULL DEFAULT 1,
     quantity_required_min INTEGER,
     quantity_required_max INTEGER,
     duration_minutes INTEGER,
     minimum_notice_minutes INTEGER,
     wait_listing_enabled INTEGER,
     api_booking_supported INTEGER,
     commission_includes_extras INTEGER,
     max_commission_net_rate_minor INTEGER,
     max_commission_percent REAL,
     timezone TEXT,
     unit_label TEXT,
     unit_label_plural TEXT,
     accounting_account TEXT,
     pickup_id INTEGER REFERENCES pickup_lists(id),
     details_json TEXT NOT NULL DEFAULT '{}',
     checkin_requires_payment INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     deleted_at INTEGER
   ) STRICT`,
  `CREATE TABLE price_options (
     id INTEGER PRIMARY KEY,
     product_code TEXT NOT NULL REFERENCES products(product_code),
     position INTEGER NOT NULL,
     label TEXT NOT NULL,
     price_minor INTEGER NOT NULL,
     price_group_type TEXT,
     min_quantity INTEGER,
     max_quantity INTEGER,
     seats_used INTEGER NOT NULL DEFAULT 1,
     UNIQUE (product_code, label)
   ) STRICT`,
  `CREATE TABLE extras (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL,
     description TEXT,
     extra_price_type TEXT NOT NULL,
     price_minor INTEGER NOT NULL,
     currency TEXT NOT NULL,
     unit_label TEXT,
     image_json TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT`,
  `CREATE TABLE product_extras (
     product_code TEXT NOT NULL REFERENCES products(product_code),
     extra_id INTEGER NOT NULL REFERENCES extras(id),
     position INTEGER NOT NULL,
     PRIMARY KEY (product_code, extra_id)
   ) STRICT`,
  `CREATE TABLE product_images (
     id INTEGER PRIMARY KEY,
     product_code TEXT NOT NULL REFERENCES products(product_code),
     position INTEGER NOT NULL,
     file_stem TEXT NOT NULL,
     original_name TEXT,
     mime_type TEXT NOT NULL,
     width INTEGER, height INTEGER,
     created_at INTEGER NOT NULL
   ) STRICT`,
  `CREATE TABLE categories (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL,
     description TEXT,
     visible INTEGER NOT NULL DEFAULT 1,
     image_json TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT`,
  `CREATE TABLE category_products (
     category_id INTEGER NOT NULL REFERENCES categories(id) ON DELETE CASCADE,
     product_code TEXT NOT NULL REFERENCES products(product_code),
     position INTEGER NOT NULL,
     PRIMARY KEY (category_id, product_code)
   ) STRICT`,
  `CREATE TABLE rates (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT`,
  `CREATE TABLE rate_products (
     rate_id INTEGER NOT NULL REFERENCES rates(id) ON DELETE CASCADE,
     product_code TEXT NOT NULL REFERENCES products(product_code),
     commission_type TEXT NOT NULL CHECK (commission_type IN ('NET_RATE','PERCENT')),
     net_rates_json TEXT,
     percentage_commission REAL,
     percentage_include_extras INTEGER,
     PRIMARY KEY (rate_id, product_code)
   ) STRICT`,
  `CREATE TABLE partner_connect (
     product_code TEXT PRIMARY KEY REFERENCES products(product_code),
     settings_json TEXT NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT`,
  `CREATE TABLE customers (
     id INTEGER PRIMARY KEY,
     first_name TEXT, middle_name TEXT, last_name TEXT,
     title TEXT, gender TEXT, dob TEXT,
     email TEXT, phone TEXT, mobile TEXT, fax TEXT, messenger_alias TEXT,
     company_name TEXT, address_line TEXT, address_line2 TEXT, city TEXT, state TEXT,
     post_code TEXT, country_code TEXT, preferred_language TEXT, about_us TEXT,
     marketing INTEGER, newsletter INTEGER,
     anonymised_at INTEGER,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT`,
  `CREATE INDEX customers_email ON customers(email)`,
  `CREATE INDEX customers_last_name ON customers(last_name)`,
  `CREATE TABLE sessions (
     id INTEGER PRIMARY KEY,
     product_code TEXT NOT NULL REFERENCES products(product_code),
     start_at INTEGER NOT NULL,
     end_at INTEGER NOT NULL,
     all_day INTEGER NOT NULL DEFAULT 0,
     seats INTEGER NOT NULL CHECK (seats >= 0),
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     UNIQUE (product_code, start_at)
   ) STRICT`,
  `CREATE INDEX sessions_start ON sessions(start_at)`,
  `CREATE TABLE session_price_options (
     session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
     price_option_id INTEGER NOT NULL REFERENCES price_options(id) ON DELETE CASCADE,
     price_minor INTEGER,
     price_group_type TEXT,
     min_quantity INTEGER,
     max_quantity INTEGER,
     seats_used INTEGER,
     PRIMARY KEY (session_id, price_option_id)
   ) STRICT`,
  `CREATE TABLE resources (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL,
     resource_type TEXT,
     seats INTEGER,
     created_at INTEGER NOT NULL,
     deleted_at INTEGER
   ) STRICT`,
  `CREATE TABLE session_resources (
     resource_id INTEGER NOT NULL REFERENCES resources(id),
     session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
     resource_order INTEGER,
     PRIMARY KEY (resource_id, session_id)
   ) STRICT`,
  `CREATE TABLE bookings (
     order_number TEXT PRIMARY KEY,
     id INTEGER NOT NULL UNIQUE,
     status TEXT NOT NULL,
     customer_id INTEGER REFERENCES customers(id),
     reseller_id INTEGER REFERENCES resellers(id),
     api_key_id INTEGER,
     currency TEXT NOT NULL,
     total_amount_minor INTEGER NOT NULL,
     reseller_comments TEXT,
     reseller_reference TEXT,
     internal_notes TEXT,
     comments TEXT,
     source TEXT,
     source_channel TEXT,
     fields_json TEXT NOT NULL DEFAULT '[]',
     created_by_json TEXT,
     reseller_user_json TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     confirmed_at INTEGER,
     cancelled_at INTEGER
   ) STRICT`,
  `CREATE INDEX bookings_created ON bookings(created_at)`,
  `CREATE INDEX bookings_updated ON bookings(updated_at)`,
  `CREATE INDEX bookings_reseller_reference ON bookings(reseller_reference)`,
  `CREATE INDEX bookings_customer ON bookings(customer_id)`,
  `CREATE TABLE booking_items (
     id INTEGER PRIMARY KEY,
     order_number TEXT NOT NULL REFERENCES bookings(order_number) ON DELETE CASCADE,
     position INTEGER NOT NULL,
     product_code TEXT NOT NULL REFERENCES products(product_code),
     session_id INTEGER REFERENCES sessions(id),
     start_at INTEGER NOT NULL,
     end_at INTEGER NOT NULL,
     all_day INTEGER NOT NULL DEFAULT 0,
     amount_minor INTEGER NOT NULL,
     subtotal_minor INTEGER NOT NULL,
     amount_overridden INTEGER NOT NULL DEFAULT 0,
     total_quantity INTEGER NOT NULL,
     seats_held INTEGER NOT NULL DEFAULT 0,
     pickup_json TEXT
   ) STRICT`,
  `CREATE INDEX booking_items_order ON booking_items(order_number, position)`,
  `CREATE INDEX booking_items_session ON booking_items(session_id)`,
  `CREATE INDEX booking_items_start ON booking_items(start_at)`,
  `CREATE TABLE booking_item_quantities (
     item_id INTEGER NOT NULL REFERENCES booking_items(id) ON DELETE CASCADE,
     position INTEGER NOT NULL,
     option_id INTEGER NOT NULL,
     option_label TEXT NOT NULL,
     option_price_minor INTEGER NOT NULL,
     price_group_type TEXT,
     seats_used INTEGER NOT NULL DEFAULT 1,
     value INTEGER NOT NULL,
     PRIMARY KEY (item_id, position)
   ) STRICT`,
  `CREATE TABLE booking_item_extras (
     item_id INTEGER NOT NULL REFERENCES booking_items(id) ON DELETE CASCADE,
     position INTEGER NOT NULL,
     extra_id INTEGER NOT NULL,
     name TEXT NOT NULL,
     description TEXT,
     extra_price_type TEXT NOT NULL,
     price_minor INTEGER NOT NULL,
     quantity INTEGER NOT NULL,
     PRIMARY KEY (item_id, position)
   ) STRICT`,
  `CREATE TABLE participants (
     id INTEGER PRIMARY KEY,
     item_id INTEGER NOT NULL REFERENCES booking_items(id) ON DELETE CASCADE,
     position INTEGER NOT NULL,
     fields_json TEXT NOT NULL DEFAULT '[]',
     barcode TEXT UNIQUE
   ) STRICT`,
  `CREATE INDEX participants_item ON participants(item_id, position)`,
  `CREATE TABLE order_barcodes (
     code TEXT PRIMARY KEY,
     order_number TEXT NOT NULL REFERENCES bookings(order_number) ON DELETE CASCADE,
     item_id INTEGER REFERENCES booking_items(id) ON DELETE CASCADE
   ) STRICT`,
  `CREATE TABLE external_codes (
     code TEXT PRIMARY KEY,
     product_code TEXT NOT NULL REFERENCES products(product_code),
     assigned_to TEXT,
     imported_at INTEGER NOT NULL
   ) STRICT`,
  `CREATE INDEX external_codes_free ON external_codes(product_code, assigned_to)`,
  `CREATE TABLE payments (
     id INTEGER PRIMARY KEY,
     order_number TEXT NOT NULL REFERENCES bookings(order_number) ON DELETE CASCADE,
     position INTEGER NOT NULL,
     type TEXT,
     amount_minor INTEGER NOT NULL,
     currency TEXT NOT NULL,
     recipient TEXT,
     label TEXT,
     paid_at INTEGER,
     is_refund INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL
   ) STRICT`,
  `CREATE INDEX payments_order ON payments(order_number)`,
  `CREATE TABLE vouchers (
     code TEXT PRIMARY KEY,
     value_type TEXT NOT NULL,
     value_minor INTEGER,
     value_percent REAL,
     currency TEXT,
     product_code TEXT REFERENCES products(product_code),
     category_id INTEGER REFERENCES categories(id),
     issue_at INTEGER NOT NULL,
     expiry_at INTEGER,
     source_order TEXT,
     internal_notes TEXT,
     internal_reference TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT`,
  `CREATE TABLE voucher_redemptions (
     id INTEGER PRIMARY KEY,
     voucher_code TEXT NOT NULL REFERENCES vouchers(code),
     order_number TEXT NOT NULL REFERENCES bookings(order_number),
     amount_minor INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     reversed_at INTEGER
   ) STRICT`,
  `CREATE INDEX voucher_redemptions_code ON voucher_redemptions(voucher_code)`,
  // Check-in is an append-only event log; state is derived from it (see design/checkin.md).
  `CREATE TABLE checkin_events (
     event_id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     session_id INTEGER,
     order_number TEXT,
     participant_id INTEGER,
     code TEXT,
     undoes_event_id TEXT,
     result TEXT,
     override_json TEXT,
     note TEXT,
     device TEXT,
     api_key_id INTEGER,
     occurred_at INTEGER NOT NULL,
     recorded_at INTEGER NOT NULL
   ) STRICT`,
  `CREATE INDEX checkin_events_session ON checkin_events(session_id)`,
  `CREATE INDEX checkin_events_participant ON checkin_events(participant_id)`,
  `CREATE INDEX checkin_events_order ON checkin_events(order_number)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
