/**
 * What each cache is made from: the tables (and, for api_keys, the columns: `last_used_at` is
 * written once a minute per key and changes no answer) whose writes make it stale. A cache whose
 * answer also reads another table (a voucher search narrowed by the bookings of a reseller) does
 * not cache that answer. Both dialects' change tokens watch these (db/queries/changes.ts on SQLite,
 * db/postgres/changes.ts on PostgreSQL).
 */
export const CHANGE_AREAS = {
  keys: { api_keys: ['name', 'role', 'key_hash', 'key_prefix', 'reseller_id', 'revoked_at'] },
  company: { companies: null },
  products: { products: null, price_options: null, product_extras: null, product_images: null, companies: null },
  vouchers: { vouchers: null, voucher_redemptions: null },
} satisfies Record<string, Record<string, readonly string[] | null>>;

export type ChangeArea = keyof typeof CHANGE_AREAS;

/** The tables each area watches, for the PostgreSQL hub's notifications (db/postgres/changes.ts). */
export const CHANGE_AREA_TABLES: Record<ChangeArea, string[]> = Object.fromEntries(Object.entries(CHANGE_AREAS).map(([area, of]) => [area, Object.keys(of)])) as Record<ChangeArea, string[]>;
