import type { Kysely } from 'kysely';
import type { Database, OrderBarcodesTable, RevokedCodesTable } from '../schema';
import { fixedQuery } from './compiled';

/** The code lookups a scan makes: a participant's code, an order's code, or a code a reissue revoked. */

export interface ParticipantCode {
  id: number;
  item_id: number;
  order_number: string;
}

// Every scan makes these lookups inside its write lock: compiled once.
const participantByBarcode = fixedQuery((db, code: string) =>
  db
    .selectFrom('participants')
    .innerJoin('booking_items', 'booking_items.id', 'participants.item_id')
    .select(['participants.id', 'participants.item_id', 'booking_items.order_number'])
    .where('participants.barcode', '=', code),
);
const orderBarcode = fixedQuery((db, code: string) => db.selectFrom('order_barcodes').selectAll().where('code', '=', code));
const revokedCode = fixedQuery((db, code: string) => db.selectFrom('revoked_codes').selectAll().where('code', '=', code));

export async function findParticipantByBarcode(db: Kysely<Database>, code: string): Promise<ParticipantCode | undefined> {
  return (await participantByBarcode(db, code))[0];
}

export async function findOrderBarcode(db: Kysely<Database>, code: string): Promise<OrderBarcodesTable | undefined> {
  return (await orderBarcode(db, code))[0];
}

export async function findRevokedCode(db: Kysely<Database>, code: string): Promise<RevokedCodesTable | undefined> {
  return (await revokedCode(db, code))[0];
}
