import type { Insertable, Kysely } from 'kysely';
import type { Database, RevokedCodesTable } from '../schema';

/** Codes of bookings: order codes, imported external codes, and codes revoked by a reissue. */

/** A random unassigned external code of the product, or undefined when none is left. */
export async function pickFreeExternalCode(db: Kysely<Database>, productCode: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('external_codes')
    .select('code')
    .where('product_code', '=', productCode)
    .where('assigned_to', 'is', null)
    .orderBy((eb) => eb.fn('random', []))
    .limit(1)
    .executeTakeFirst();
  return row?.code;
}

export async function assignExternalCode(db: Kysely<Database>, code: string, orderNumber: string): Promise<void> {
  await db.updateTable('external_codes').set({ assigned_to: orderNumber }).where('code', '=', code).execute();
}

export async function insertOrderBarcode(db: Kysely<Database>, row: { code: string; order_number: string; item_id: number | null }): Promise<void> {
  await db.insertInto('order_barcodes').values(row).execute();
}

export async function deleteOrderBarcode(db: Kysely<Database>, code: string): Promise<void> {
  await db.deleteFrom('order_barcodes').where('code', '=', code).execute();
}

export async function insertRevokedCode(db: Kysely<Database>, row: Insertable<RevokedCodesTable>): Promise<void> {
  await db.insertInto('revoked_codes').values(row).execute();
}

/** The code when a participant of the order carries it. */
export async function findParticipantCodeOfOrder(db: Kysely<Database>, orderNumber: string, code: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('participants')
    .innerJoin('booking_items', 'booking_items.id', 'participants.item_id')
    .select('participants.barcode as code')
    .where('booking_items.order_number', '=', orderNumber)
    .where('participants.barcode', '=', code)
    .executeTakeFirst();
  return row?.code ?? undefined;
}

/** The code when it is one of the order's own codes. */
export async function findOrderCode(db: Kysely<Database>, orderNumber: string, code: string): Promise<string | undefined> {
  const row = await db.selectFrom('order_barcodes').select('code').where('order_number', '=', orderNumber).where('code', '=', code).executeTakeFirst();
  return row?.code;
}

export interface ParticipantCodeRow {
  id: number;
  item_id: number;
  barcode: string | null;
  product_code: string;
  qr_code_type: string | null;
}

/** Every participant of the order with its code and its product's code type, in item then participant order. */
export async function listParticipantCodes(db: Kysely<Database>, orderNumber: string): Promise<ParticipantCodeRow[]> {
  return db
    .selectFrom('participants')
    .innerJoin('booking_items', 'booking_items.id', 'participants.item_id')
    .innerJoin('products', 'products.product_code', 'booking_items.product_code')
    .select(['participants.id', 'participants.item_id', 'participants.barcode', 'products.product_code', 'products.qr_code_type'])
    .where('booking_items.order_number', '=', orderNumber)
    .orderBy('booking_items.position')
    .orderBy('participants.position')
    .execute();
}

export interface OrderCodeRow {
  code: string;
  item_id: number | null;
  product_code: string | null;
  qr_code_type: string | null;
}

/** The order's own codes (an order code may belong to no item), with the item's product code type. */
export async function listOrderCodes(db: Kysely<Database>, orderNumber: string): Promise<OrderCodeRow[]> {
  return db
    .selectFrom('order_barcodes')
    .leftJoin('booking_items', 'booking_items.id', 'order_barcodes.item_id')
    .leftJoin('products', 'products.product_code', 'booking_items.product_code')
    .select(['order_barcodes.code', 'order_barcodes.item_id', 'products.product_code', 'products.qr_code_type'])
    .where('order_barcodes.order_number', '=', orderNumber)
    .orderBy('order_barcodes.code')
    .execute();
}
