import type { Actor, EngineContext, Tx } from '../context';
import type { BookingsService } from './bookings';
import { visibleBooking } from './bookings';
import { takeExternalCode } from './create';
import { DomainError } from '../errors';
import { isLive } from '../statuses';
import { toIso } from '../time';

/** One code replaced by a reissue. */
export interface ReissuedCode {
  participantId: number | null;
  itemId: number | null;
  code: string;
  revokedCode: string;
}

interface OldCode {
  participantId: number | null;
  itemId: number | null;
  code: string;
  productCode: string | null;
  qrCodeType: string | null;
}

/**
 * Reissuing codes (a lost or shared ticket): the participant's code, or every code of the order,
 * is replaced by a new one and the old one kept in revoked_codes, so scanning it answers
 * CODE_REVOKED naming the booking instead of UNKNOWN_CODE. A product with EXTERNAL codes takes the
 * new one from its imported list, as a booking does.
 */
export function createBarcodes(ctx: EngineContext, deps: { bookings: BookingsService }) {
  async function oldCodes(tx: Tx, orderNumber: string, participantId: number | undefined): Promise<OldCode[]> {
    const participants = await tx.db
      .selectFrom('participants')
      .innerJoin('booking_items', 'booking_items.id', 'participants.item_id')
      .innerJoin('products', 'products.product_code', 'booking_items.product_code')
      .select(['participants.id', 'participants.item_id', 'participants.barcode', 'products.product_code', 'products.qr_code_type'])
      .where('booking_items.order_number', '=', orderNumber)
      .orderBy('booking_items.position')
      .orderBy('participants.position')
      .execute();
    if (participantId !== undefined) {
      const participant = participants.find((p) => p.id === participantId);
      if (!participant) throw new DomainError('NOT_FOUND', `Participant ${participantId} is not part of booking ${orderNumber}`);
      if (!participant.barcode) throw new DomainError('INVALID_STATE', `Participant ${participantId} has no code of their own (booking ${orderNumber} uses an order code); reissue without participantId`);
      return [{ participantId, itemId: participant.item_id, code: participant.barcode, productCode: participant.product_code, qrCodeType: participant.qr_code_type }];
    }
    const orderCodes = await tx.db
      .selectFrom('order_barcodes')
      .leftJoin('booking_items', 'booking_items.id', 'order_barcodes.item_id')
      .leftJoin('products', 'products.product_code', 'booking_items.product_code')
      .select(['order_barcodes.code', 'order_barcodes.item_id', 'products.product_code', 'products.qr_code_type'])
      .where('order_barcodes.order_number', '=', orderNumber)
      .orderBy('order_barcodes.code')
      .execute();
    return [
      ...participants.filter((p) => p.barcode).map((p) => ({ participantId: p.id, itemId: p.item_id, code: p.barcode!, productCode: p.product_code, qrCodeType: p.qr_code_type })),
      ...orderCodes.map((o) => ({ participantId: null, itemId: o.item_id, code: o.code, productCode: o.product_code, qrCodeType: o.qr_code_type })),
    ];
  }

  return {
    async reissue(actor: Actor, orderNumber: string, participantId?: number) {
      if (actor.role !== 'supplier' && actor.role !== 'system') throw new DomainError('FORBIDDEN', `This API key (${actor.role}) may not reissue codes; use a supplier key`);
      const reissued = await ctx.write(actor, async (tx) => {
        const booking = await visibleBooking(tx.db, orderNumber, actor);
        if (!isLive(booking.status)) throw new DomainError('INVALID_STATE', `Booking ${orderNumber} is ${booking.status.toLowerCase()}; its codes cannot be reissued`);
        const old = await oldCodes(tx, orderNumber, participantId);
        if (old.length === 0) throw new DomainError('INVALID_STATE', `Booking ${orderNumber} has no codes to reissue`);
        const out: ReissuedCode[] = [];
        for (const entry of old) {
          const code = entry.qrCodeType === 'EXTERNAL' && entry.productCode ? await takeExternalCode(tx, entry.productCode, orderNumber) : ctx.ids.token(10);
          if (entry.participantId !== null) {
            await tx.db.updateTable('participants').set({ barcode: code }).where('id', '=', entry.participantId).execute();
            await tx.log('participant', entry.participantId, 'reissue_code', { barcode: code });
          } else {
            await tx.db.deleteFrom('order_barcodes').where('code', '=', entry.code).execute();
            await tx.db.insertInto('order_barcodes').values({ code, order_number: orderNumber, item_id: entry.itemId }).execute();
            await tx.log('order_barcode', code, 'create', { code, orderNumber, itemId: entry.itemId });
          }
          const revoked = { code: entry.code, order_number: orderNumber, participant_id: entry.participantId, item_id: entry.itemId, replaced_by: code, revoked_at: tx.now, api_key_id: tx.actor.keyId };
          await tx.db.insertInto('revoked_codes').values(revoked).execute();
          await tx.log('revoked_code', entry.code, 'create', revoked);
          out.push({ participantId: entry.participantId, itemId: entry.itemId, code, revokedCode: entry.code });
        }
        return { codes: out, at: tx.now };
      });
      return { booking: await deps.bookings.get(orderNumber, actor), reissued: reissued.codes, reissuedAt: toIso(reissued.at) };
    },
  };
}

export type BarcodesService = ReturnType<typeof createBarcodes>;
