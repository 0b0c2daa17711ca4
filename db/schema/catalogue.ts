import type { Bool, Nullable } from './columns';

/** What is sold: products and their parts (prices, extras, images, pickups, categories, rates). */
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
  /** 20261202_37: SHA-256 (hex) of the original file, by which a peer fetches it; NULL for older uploads until hashed. */
  content_hash?: Nullable<string>;
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
