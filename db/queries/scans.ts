import type { Kysely } from 'kysely';
import type { Database, OrderBarcodesTable, RevokedCodesTable } from '../schema';

/** The code lookups a scan makes: a participant's code, an order's code, or a code a reissue revoked. */

export interface ParticipantCode {
  id: number;
  item_id: number;
  order_number: string;
}

export async function findParticipantByBarcode(db: Kysely<Database>, code: string): Promise<ParticipantCode | undefined> {
  return db
    .selectFrom('participants')
    .innerJoin('booking_items', 'booking_items.id', 'participants.item_id')
    .select(['participants.id', 'participants.item_id', 'booking_items.order_number'])
    .where('participants.barcode', '=', code)
    .executeTakeFirst();
}

export async function findOrderBarcode(db: Kysely<Database>, code: string): Promise<OrderBarcodesTable | undefined> {
  return db.selectFrom('order_barcodes').selectAll().where('code', '=', code).executeTakeFirst();
}

export async function findRevokedCode(db: Kysely<Database>, code: string): Promise<RevokedCodesTable | undefined> {
  return db.selectFrom('revoked_codes').selectAll().where('code', '=', code).executeTakeFirst();
}
