import { deleteOrderBarcode, insertOrderBarcode, insertRevokedCode, listOrderCodes, listParticipantCodes } from '../../../db/queries/barcodes';
import { setParticipantBarcode } from '../../../db/queries/participants';
import type { ReissueAnswer, ReissuedCode } from '../../contract/barcodes';
import type { Actor, EngineContext, Tx } from '../context';
import type { BookingsService } from './bookings';
import { visibleBooking } from './bookings';
import { takeExternalCode } from './create';
import { DomainError } from '../errors';
import { isLive } from '../statuses';
import { toIso } from '../time';

export type { ReissuedCode } from '../../contract/barcodes';

interface OldCode {
  participantId: number | null;
  itemId: number | null;
  code: string;
  productCode: string | null;
  qrCodeType: string | null;
}

/** The codes a reissue replaces: the participant's own code, or every participant and order code of the booking. */
async function oldCodes(tx: Tx, orderNumber: string, participantId: number | undefined): Promise<OldCode[]> {
  const participants = await listParticipantCodes(tx.db, orderNumber);
  if (participantId !== undefined) {
    const participant = participants.find((p) => p.id === participantId);
    if (!participant) throw new DomainError('NOT_FOUND', `Participant ${participantId} is not part of booking ${orderNumber}`);
    if (!participant.barcode) throw new DomainError('INVALID_STATE', `Participant ${participantId} has no code of their own (booking ${orderNumber} uses an order code); reissue without participantId`);
    return [{ participantId, itemId: participant.item_id, code: participant.barcode, productCode: participant.product_code, qrCodeType: participant.qr_code_type }];
  }
  const orderCodes = await listOrderCodes(tx.db, orderNumber);
  return [
    ...participants.filter((p) => p.barcode).map((p) => ({ participantId: p.id, itemId: p.item_id, code: p.barcode!, productCode: p.product_code, qrCodeType: p.qr_code_type })),
    ...orderCodes.map((o) => ({ participantId: null, itemId: o.item_id, code: o.code, productCode: o.product_code, qrCodeType: o.qr_code_type })),
  ];
}

/** Gives one old code's holder a new code and keeps the old one as revoked, in the caller's transaction. */
async function replaceCode(tx: Tx, orderNumber: string, entry: OldCode, newToken: () => string): Promise<ReissuedCode> {
  const code = entry.qrCodeType === 'EXTERNAL' && entry.productCode ? await takeExternalCode(tx, entry.productCode, orderNumber) : newToken();
  if (entry.participantId !== null) {
    await setParticipantBarcode(tx.db, entry.participantId, code);
    await tx.journal('participant', entry.participantId, 'reissue_code', { barcode: code });
  } else {
    await deleteOrderBarcode(tx.db, entry.code);
    await insertOrderBarcode(tx.db, { code, order_number: orderNumber, item_id: entry.itemId });
    await tx.journal('order_barcode', code, 'create', { code, orderNumber, itemId: entry.itemId });
  }
  const revoked = { code: entry.code, order_number: orderNumber, participant_id: entry.participantId, item_id: entry.itemId, replaced_by: code, revoked_at: tx.now, api_key_id: tx.actor.keyId };
  await insertRevokedCode(tx.db, revoked);
  await tx.journal('revoked_code', entry.code, 'create', revoked);
  return { participantId: entry.participantId, itemId: entry.itemId, code, revokedCode: entry.code };
}

/**
 * Reissuing codes (a lost or shared ticket): the participant's code, or every code of the order,
 * is replaced by a new one and the old one kept in revoked_codes, so scanning it answers
 * CODE_REVOKED naming the booking instead of UNKNOWN_CODE. A product with EXTERNAL codes takes the
 * new one from its imported list, as a booking does.
 */
export function createBarcodes(ctx: EngineContext, deps: { bookings: BookingsService }) {
  return {
    async reissue(actor: Actor, orderNumber: string, participantId?: number): Promise<ReissueAnswer> {
      if (actor.role !== 'supplier' && actor.role !== 'system') throw new DomainError('FORBIDDEN', `This API key (${actor.role}) may not reissue codes; use a supplier key`);
      const reissued = await ctx.write(actor, async (tx) => {
        const booking = await visibleBooking(tx.db, orderNumber, actor);
        if (!isLive(booking.status)) throw new DomainError('INVALID_STATE', `Booking ${orderNumber} is ${booking.status.toLowerCase()}; its codes cannot be reissued`);
        const old = await oldCodes(tx, orderNumber, participantId);
        if (old.length === 0) throw new DomainError('INVALID_STATE', `Booking ${orderNumber} has no codes to reissue`);
        const out: ReissuedCode[] = [];
        for (const entry of old) out.push(await replaceCode(tx, orderNumber, entry, () => ctx.ids.token(10)));
        return { codes: out, at: tx.now };
      });
      return { booking: await deps.bookings.get(orderNumber, actor), reissued: reissued.codes, reissuedAt: toIso(reissued.at) };
    },
  };
}

export type BarcodesService = ReturnType<typeof createBarcodes>;
