/**
 * Which tables sync, and by which merge rule (docs/sync.md, "What merges how").
 * - catalogue: authored by the hub only; other instances apply the hub's ops and author none;
 * - booking: created anywhere, never deleted, status by precedence, other fields last-writer-wins;
 * - lww: last-writer-wins per field, deletes are tombstones (a booking's lines, payments, ...);
 * - event: grow-only (check-in events, acknowledgements): deletes are ignored;
 * - customer: last-writer-wins per field; erasure wins, is final, and leaves no personal data.
 * Tables not listed never sync: settings, sequences, API keys (secrets of one instance), the op
 * log and sync's own bookkeeping.
 */
export type MergeRule = 'catalogue' | 'booking' | 'lww' | 'event' | 'customer';

export interface SyncedEntity {
  rule: MergeRule;
  pk: readonly string[];
}

const entity = (rule: MergeRule, ...pk: string[]): SyncedEntity => ({ rule, pk });

/** In parent-before-child order: a snapshot applied in this order satisfies foreign keys. */
export const SYNCED_ENTITIES: Readonly<Record<string, SyncedEntity>> = {
  companies: entity('catalogue', 'id'),
  rates: entity('catalogue', 'id'),
  resellers: entity('lww', 'id'),
  pickup_lists: entity('catalogue', 'id'),
  pickup_locations: entity('catalogue', 'id'),
  products: entity('catalogue', 'product_code'),
  price_options: entity('catalogue', 'id'),
  extras: entity('catalogue', 'id'),
  product_extras: entity('catalogue', 'product_code', 'extra_id'),
  product_images: entity('catalogue', 'id'),
  categories: entity('catalogue', 'id'),
  category_products: entity('catalogue', 'category_id', 'product_code'),
  rate_products: entity('catalogue', 'rate_id', 'product_code'),
  partner_connect: entity('catalogue', 'product_code'),
  sessions: entity('catalogue', 'id'),
  session_price_options: entity('catalogue', 'session_id', 'price_option_id'),
  resources: entity('catalogue', 'id'),
  session_resources: entity('catalogue', 'resource_id', 'session_id'),
  customers: entity('customer', 'id'),
  vouchers: entity('lww', 'code'),
  external_codes: entity('lww', 'code'),
  bookings: entity('booking', 'order_number'),
  booking_items: entity('lww', 'id'),
  booking_item_quantities: entity('lww', 'item_id', 'position'),
  booking_item_extras: entity('lww', 'item_id', 'position'),
  participants: entity('lww', 'id'),
  order_barcodes: entity('lww', 'code'),
  payments: entity('lww', 'id'),
  voucher_redemptions: entity('lww', 'id'),
  revoked_codes: entity('lww', 'code'),
  checkin_events: entity('event', 'event_id'),
  sync_acknowledgements: entity('event', 'session_id', 'booking_set'),
};

export const SYNCED_TABLES = Object.keys(SYNCED_ENTITIES);

/** A customer's personal columns: blanked by erasure, and purged from every op that carried them. */
export const CUSTOMER_PERSONAL_FIELDS = [
  'first_name', 'middle_name', 'last_name', 'title', 'gender', 'dob', 'email', 'phone', 'mobile', 'fax',
  'messenger_alias', 'company_name', 'address_line', 'address_line2', 'city', 'state', 'post_code',
  'country_code', 'preferred_language', 'about_us', 'marketing', 'newsletter',
] as const;

/**
 * What an erased customer's bookings and participants may still hold: their personal columns take
 * these values, in the rows and in every stored op (a participant's fields are names, dates of
 * birth, passport numbers; a booking's fields and comments are the guest's own words).
 */
export const ERASED_BOOKING_VALUES: Readonly<Record<string, unknown>> = { fields_json: '[]', comments: null };
export const ERASED_PARTICIPANT_VALUES: Readonly<Record<string, unknown>> = { fields_json: '[]' };

/**
 * Booking status precedence (higher wins a concurrent change, and a status never goes back below
 * one another instance already set): CANCELLED > CONFIRMED > ABANDONED_CART > PENDING_SUPPLIER >
 * PENDING_CUSTOMER > ON_HOLD > NEW > PROCESSING. A confirmed sale beats an abandoned cart (a sale
 * is never lost); any waiting state beats the plain "in progress" ones; a cancellation beats all.
 */
export const STATUS_PRECEDENCE = ['PROCESSING', 'NEW', 'ON_HOLD', 'PENDING_CUSTOMER', 'PENDING_SUPPLIER', 'ABANDONED_CART', 'CONFIRMED', 'CANCELLED'] as const;

export function statusRank(status: unknown): number {
  return STATUS_PRECEDENCE.indexOf(status as (typeof STATUS_PRECEDENCE)[number]);
}
