import { sql, type Kysely } from 'kysely';

/**
 * Bookings: a product can opt in to enforcing its required booking fields (the spec only
 * announces enforcement), and a gift-card voucher remembers the booking item that issued it, and an item keeps its tax lines.
 */
const statements = [
  `ALTER TABLE products ADD COLUMN enforce_required_fields INTEGER`,
  `ALTER TABLE vouchers ADD COLUMN source_item_id INTEGER`,
  // The item's tax lines as priced (inclusive ones are reported, not added), kept as booked.
  `ALTER TABLE booking_items ADD COLUMN taxes_json TEXT`,
  // The agent's commission on the item, from its reseller's rate when it has one.
  `ALTER TABLE booking_items ADD COLUMN commission_minor INTEGER`,
  `CREATE INDEX vouchers_source_order ON vouchers(source_order)`,
  `CREATE INDEX voucher_redemptions_order ON voucher_redemptions(order_number)`,
  `CREATE INDEX order_barcodes_order ON order_barcodes(order_number)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
