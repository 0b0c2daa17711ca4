/**
 * Kysely's view of the SQLite schema (db/migrations). Column names are snake_case as stored;
 * domain code maps rows to the API's camelCase shapes. Booleans are INTEGER 0/1, times epoch ms,
 * money integer minor units.
 */
type Bool = number;
type Nullable<T> = T | null;

export interface SettingsTable { key: string; value: string }
export interface SequencesTable { name: string; value: number }
export interface OpLogTable {
  seq: number | undefined;
  op_id: string;
  at: number;
  actor: Nullable<string>;
  entity: string;
  entity_id: string;
  action: string;
  payload_json: string;
}
export interface CompaniesTable {
  id: number;
  alias: string;
  company_name: string;
  description: Nullable<string>;
  currency: string;
  timezone: string;
  locale: string;
  email: Nullable<string>;
  phone: Nullable<string>;
  website: Nullable<string>;
  address_line: Nullable<string>;
  address_line2: Nullable<string>;
  city: Nullable<string>;
  state: Nullable<string>;
  post_code: Nullable<string>;
  country_code: Nullable<string>;
  latitude: Nullable<number>;
  longitude: Nullable<number>;
  logo_url: Nullable<string>;
  created_at: number;
  updated_at: number;
}
export interface ResellersTable { id: number; name: string; alias: string; rate_id: Nullable<number>; created_at: number }
export interface ApiKeysTable {
  id: number;
  name: string;
  /** 'sync' since 20261124_80: a peer's key. */
  role: 'supplier' | 'agent' | 'checkin' | 'sync';
  key_hash: string;
  key_prefix: string;
  reseller_id: Nullable<number>;
  created_at: number;
  last_used_at: Nullable<number>;
  revoked_at: Nullable<number>;
}
export interface PickupListsTable {
  id: number;
  name: string;
  additional_notes: Nullable<string>;
  other_location_instructions: Nullable<string>;
  created_at: number;
  updated_at: number;
}
export interface PickupLocationsTable {
  id: number;
  pickup_list_id: number;
  position: number;
  location_name: string;
  address: Nullable<string>;
  latitude: Nullable<number>;
  longitude: Nullable<number>;
  minutes_prior: Nullable<number>;
  additional_instructions: Nullable<string>;
}
export interface ProductsTable {
  product_code: string;
  name: string;
  internal_code: Nullable<string>;
  product_type: string;
  short_description: Nullable<string>;
  description: Nullable<string>;
  additional_information: Nullable<string>;
  general_terms: Nullable<string>;
  terms: Nullable<string>;
  advertised_price_minor: Nullable<number>;
  currency: string;
  booking_mode: string;
  confirm_mode: string;
  confirm_mode_min_participants: Nullable<number>;
  agent_payment_type: Nullable<string>;
  cancellation_policy_days: Nullable<number>;
  barcode_output_type: Nullable<string>;
  qr_code_type: Nullable<string>;
  charter: Bool;
  quantity_required: Bool;
  quantity_required_min: Nullable<number>;
  quantity_required_max: Nullable<number>;
  duration_minutes: Nullable<number>;
  minimum_notice_minutes: Nullable<number>;
  wait_listing_enabled: Nullable<Bool>;
  api_booking_supported: Nullable<Bool>;
  commission_includes_extras: Nullable<Bool>;
  max_commission_net_rate_minor: Nullable<number>;
  max_commission_percent: Nullable<number>;
  timezone: Nullable<string>;
  unit_label: Nullable<string>;
  unit_label_plural: Nullable<string>;
  accounting_account: Nullable<string>;
  pickup_id: Nullable<number>;
  details_json: string;
  checkin_requires_payment: Bool;
  created_at: number;
  updated_at: number;
  deleted_at: Nullable<number>;
  /** 20261123_40: refuse bookings missing required booking fields (TourDesk extension). */
  enforce_required_fields?: Nullable<Bool>;
  /** 20261123_70: minutes before start a scan may check in; NULL = always open (TourDesk extension). */
  checkin_opens_minutes_before?: Nullable<number>;
}
export interface PriceOptionsTable {
  id: number;
  product_code: string;
  position: number;
  label: string;
  price_minor: number;
  price_group_type: Nullable<string>;
  min_quantity: Nullable<number>;
  max_quantity: Nullable<number>;
  seats_used: number;
}
export interface ExtrasTable {
  id: number;
  name: string;
  description: Nullable<string>;
  extra_price_type: string;
  price_minor: number;
  currency: string;
  unit_label: Nullable<string>;
  image_json: Nullable<string>;
  created_at: number;
  updated_at: number;
}
export interface ProductExtrasTable { product_code: string; extra_id: number; position: number }
export interface ProductImagesTable {
  id: number;
  product_code: string;
  position: number;
  file_stem: string;
  original_name: Nullable<string>;
  mime_type: string;
  width: Nullable<number>;
  height: Nullable<number>;
  created_at: number;
}
export interface CategoriesTable {
  id: number;
  name: string;
  description: Nullable<string>;
  visible: Bool;
  image_json: Nullable<string>;
  created_at: number;
  updated_at: number;
}
export interface CategoryProductsTable { category_id: number; product_code: string; position: number }
export interface RatesTable { id: number; name: string; created_at: number; updated_at: number }
export interface RateProductsTable {
  rate_id: number;
  product_code: string;
  commission_type: 'NET_RATE' | 'PERCENT';
  net_rates_json: Nullable<string>;
  percentage_commission: Nullable<number>;
  percentage_include_extras: Nullable<Bool>;
}
export interface PartnerConnectTable { product_code: string; settings_json: string; updated_at: number }
export interface CustomersTable {
  id: number;
  first_name: Nullable<string>;
  middle_name: Nullable<string>;
  last_name: Nullable<string>;
  title: Nullable<string>;
  gender: Nullable<string>;
  dob: Nullable<string>;
  email: Nullable<string>;
  phone: Nullable<string>;
  mobile: Nullable<string>;
  fax: Nullable<string>;
  messenger_alias: Nullable<string>;
  company_name: Nullable<string>;
  address_line: Nullable<string>;
  address_line2: Nullable<string>;
  city: Nullable<string>;
  state: Nullable<string>;
  post_code: Nullable<string>;
  country_code: Nullable<string>;
  preferred_language: Nullable<string>;
  about_us: Nullable<string>;
  marketing: Nullable<Bool>;
  newsletter: Nullable<Bool>;
  anonymised_at: Nullable<number>;
  created_at: number;
  updated_at: number;
}
export interface SessionsTable {
  id: number;
  product_code: string;
  start_at: number;
  end_at: number;
  all_day: Bool;
  seats: number;
  created_at: number;
  updated_at: number;
}
export interface SessionPriceOptionsTable {
  session_id: number;
  price_option_id: number;
  price_minor: Nullable<number>;
  price_group_type: Nullable<string>;
  min_quantity: Nullable<number>;
  max_quantity: Nullable<number>;
  seats_used: Nullable<number>;
}
export interface ResourcesTable {
  id: number;
  name: string;
  resource_type: Nullable<string>;
  seats: Nullable<number>;
  created_at: number;
  deleted_at: Nullable<number>;
}
export interface SessionResourcesTable { resource_id: number; session_id: number; resource_order: Nullable<number> }
export interface BookingsTable {
  order_number: string;
  id: number;
  status: string;
  customer_id: Nullable<number>;
  reseller_id: Nullable<number>;
  api_key_id: Nullable<number>;
  currency: string;
  total_amount_minor: number;
  reseller_comments: Nullable<string>;
  reseller_reference: Nullable<string>;
  internal_notes: Nullable<string>;
  comments: Nullable<string>;
  source: Nullable<string>;
  source_channel: Nullable<string>;
  fields_json: string;
  created_by_json: Nullable<string>;
  reseller_user_json: Nullable<string>;
  created_at: number;
  updated_at: number;
  confirmed_at: Nullable<number>;
  cancelled_at: Nullable<number>;
}
export interface BookingItemsTable {
  /** 20261123_40: JSON array of the item's tax lines as priced. */
  taxes_json?: Nullable<string>;
  /** 20261123_40: the agent's commission on the item (minor units), when its rate covers the product. */
  commission_minor?: Nullable<number>;
  id: number;
  order_number: string;
  position: number;
  product_code: string;
  session_id: Nullable<number>;
  start_at: number;
  end_at: number;
  all_day: Bool;
  amount_minor: number;
  subtotal_minor: number;
  amount_overridden: Bool;
  total_quantity: number;
  /** Seats this item takes from its session while the booking is live (sum of value × seatsUsed). */
  seats_held: number;
  pickup_json: Nullable<string>;
}
export interface BookingItemQuantitiesTable {
  item_id: number;
  position: number;
  option_id: number;
  option_label: string;
  option_price_minor: number;
  price_group_type: Nullable<string>;
  seats_used: number;
  value: number;
}
export interface BookingItemExtrasTable {
  item_id: number;
  position: number;
  extra_id: number;
  name: string;
  description: Nullable<string>;
  extra_price_type: string;
  price_minor: number;
  quantity: number;
}
export interface ParticipantsTable { id: number; item_id: number; position: number; fields_json: string; barcode: Nullable<string> }
export interface OrderBarcodesTable { code: string; order_number: string; item_id: Nullable<number> }
export interface ExternalCodesTable { code: string; product_code: string; assigned_to: Nullable<string>; imported_at: number }
export interface PaymentsTable {
  id: number;
  order_number: string;
  position: number;
  type: Nullable<string>;
  amount_minor: number;
  currency: string;
  recipient: Nullable<string>;
  label: Nullable<string>;
  paid_at: Nullable<number>;
  is_refund: Bool;
  created_at: number;
  /** 20261125_90: the reseller whose agent key recorded it; NULL for the supplier's own. */
  recorded_by_reseller_id?: Nullable<number>;
}
export interface VouchersTable {
  code: string;
  value_type: string;
  value_minor: Nullable<number>;
  value_percent: Nullable<number>;
  currency: Nullable<string>;
  product_code: Nullable<string>;
  category_id: Nullable<number>;
  issue_at: number;
  expiry_at: Nullable<number>;
  source_order: Nullable<string>;
  internal_notes: Nullable<string>;
  internal_reference: Nullable<string>;
  created_at: number;
  updated_at: number;
  /** 20261123_40: the booking item that issued this voucher (gift cards). */
  source_item_id?: Nullable<number>;
}
export interface VoucherRedemptionsTable {
  id: number;
  voucher_code: string;
  order_number: string;
  amount_minor: number;
  created_at: number;
  reversed_at: Nullable<number>;
}
export interface CheckinEventsTable {
  event_id: string;
  kind: string;
  session_id: Nullable<number>;
  order_number: Nullable<string>;
  participant_id: Nullable<number>;
  code: Nullable<string>;
  undoes_event_id: Nullable<string>;
  result: Nullable<string>;
  override_json: Nullable<string>;
  note: Nullable<string>;
  device: Nullable<string>;
  api_key_id: Nullable<number>;
  occurred_at: number;
  recorded_at: number;
  /** 20261123_50_manifest: the first answer for this eventId, and the scan a check-in belongs to. */
  answer_json: Nullable<string>;
  parent_event_id: Nullable<string>;
}

/** Σ seats_held of a session's items of live bookings, kept by triggers (migration 20261130_03; SQLite only). */
export interface SessionSeatsHeldTable {
  session_id: number;
  held: number;
}

export interface Database {
  settings: SettingsTable;
  sequences: SequencesTable;
  op_log: OpLogTable;
  companies: CompaniesTable;
  resellers: ResellersTable;
  api_keys: ApiKeysTable;
  pickup_lists: PickupListsTable;
  pickup_locations: PickupLocationsTable;
  products: ProductsTable;
  price_options: PriceOptionsTable;
  extras: ExtrasTable;
  product_extras: ProductExtrasTable;
  product_images: ProductImagesTable;
  categories: CategoriesTable;
  category_products: CategoryProductsTable;
  rates: RatesTable;
  rate_products: RateProductsTable;
  partner_connect: PartnerConnectTable;
  customers: CustomersTable;
  sessions: SessionsTable;
  session_price_options: SessionPriceOptionsTable;
  resources: ResourcesTable;
  session_resources: SessionResourcesTable;
  bookings: BookingsTable;
  booking_items: BookingItemsTable;
  session_seats_held: SessionSeatsHeldTable;
  booking_item_quantities: BookingItemQuantitiesTable;
  booking_item_extras: BookingItemExtrasTable;
  participants: ParticipantsTable;
  order_barcodes: OrderBarcodesTable;
  external_codes: ExternalCodesTable;
  payments: PaymentsTable;
  vouchers: VouchersTable;
  voucher_redemptions: VoucherRedemptionsTable;
  checkin_events: CheckinEventsTable;
  revoked_codes: RevokedCodesTable;
  sync_instance: SyncInstanceTable;
  sync_capture: SyncCaptureTable;
  sync_ops: SyncOpsTable;
  sync_vector: SyncVectorTable;
  sync_rows: SyncRowsTable;
  sync_shapes: SyncShapesTable;
  sync_held: SyncHeldTable;
  sync_peers: SyncPeersTable;
  sync_instances: SyncInstancesTable;
  sync_acknowledgements: SyncAcknowledgementsTable;
}

/** 20261124_80_sync: this data folder's origin, op sequence, clock and hub. */
export interface SyncInstanceTable { id: number; origin: string; last_seq: number; last_hlc: Nullable<string>; hub_origin: Nullable<string> }
/** 20261124_80_sync: row changes recorded by triggers, folded into ops before commit. */
export interface SyncCaptureTable { id: number | undefined; tbl: string; pk: string; old_json: Nullable<string>; new_json: Nullable<string> }
export interface SyncOpsTable {
  arrival: number | undefined;
  origin: string;
  seq: number;
  hlc: string;
  entity: string;
  entity_id: string;
  kind: 'insert' | 'update' | 'delete';
  /** The change without its null columns (20261126_92); those are listed by `null_columns`. */
  change_json: Nullable<string>;
  schema: number;
  /** 20261126_92: the sync_shapes id of the columns the change sets to null; NULL when none are left out. */
  null_columns: Nullable<number>;
  /** 20261128_95: 1 when this op (an insert) is its row's whole merge state, which sync_rows then lacks; NULL otherwise. */
  row_state: Nullable<number>;
  /** 20261128_96: 1 when more ops of the same write follow this one (a page never ends there); NULL on a write's last op. */
  write_continues: Nullable<number>;
  /** 20261129_99: the sync_shapes id of the columns whose values `change_json` holds as an array; NULL: `change_json` is an object. */
  change_shape: Nullable<number>;
}
export interface SyncVectorTable { origin: string; seq: number }
/**
 * 20261126_92_sync_row_stamps: a row's merge state. `shape` names its stamped columns (sync_shapes),
 * `stamps` its distinct stamps (space-separated), `marks` one character per shape column (48 + the
 * index of its stamp), NULL when every column has the one stamp.
 */
export interface SyncRowsTable { entity: string; entity_id: string; shape: number; stamps: string; marks: Nullable<string>; born: Nullable<string>; deleted: Nullable<string>; erased: Nullable<string> }
/** 20261126_92_sync_row_stamps: each distinct comma-separated list of stamped columns, once. */
export interface SyncShapesTable { id: number | undefined; columns: string }
export interface SyncHeldTable { origin: string; seq: number; op_json: string; reason: string }
export interface SyncPeersTable {
  url: string;
  /** The peer's API key, sealed with the data folder's secret (main/sync/secret.ts); never printed. */
  key_sealed: string;
  peer_origin: Nullable<string>;
  peer_instance_no: Nullable<number>;
  added_at: number;
  last_success_at: Nullable<number>;
  last_attempt_at: Nullable<number>;
  last_error: Nullable<string>;
  skew_ms: Nullable<number>;
  ops_to_send: Nullable<number>;
  ops_to_receive: Nullable<number>;
  /** 20261130_07: the peer's version vector as last heard (JSON); what waits for it is counted from it. */
  peer_vector: Nullable<string>;
}
export interface SyncInstancesTable { origin: string; instance_no: number; /** 20261130_05: when it last exchanged with this instance (ms). */ last_seen_at: Nullable<number> }
export interface SyncAcknowledgementsTable { session_id: number; booking_set: string; acknowledged_at: number; acknowledged_by: Nullable<string> }

/** 20261123_70: a code replaced by a reissue; scanning it answers CODE_REVOKED. */
export interface RevokedCodesTable {
  code: string;
  order_number: string;
  participant_id: Nullable<number>;
  item_id: Nullable<number>;
  replaced_by: string;
  revoked_at: number;
  api_key_id: Nullable<number>;
}
