import type { Bool, Nullable } from './columns';

/** Who booked what: customers, sessions and resources, bookings and their items, payments, vouchers, check-in. */
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
  /** 20261202_45: the key's name and the device that took it at the desk; the device's id for the payment. */
  taken_by?: Nullable<string>;
  taken_device?: Nullable<string>;
  payment_ref?: Nullable<string>;
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
  /** 20261202_41_checkin_signed_by: the recording key's name as it was then (synced; api_key_id is a key of the recording instance only). */
  key_name: Nullable<string>;
}

/** Σ seats_held of a session's items of live bookings, kept by triggers (migration 20261130_03; SQLite only). */
export interface SessionSeatsHeldTable {
  session_id: number;
  held: number;
}

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
