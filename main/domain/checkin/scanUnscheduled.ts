import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { netPaid } from '../../../db/queries/manifest';
import { eventsOfParticipants } from '../../../db/queries/checkinEvents';
import { getBooking, itemIdsOfOrder, participantsOfItems, productCodeOfItem } from '../../../db/queries/checkinBookings';
import type { AttentionReason, UnscheduledScan } from '../../contract/manifest';
import type { Tx } from '../context';
import { historyView, parseFields, participantName, type ViewContext } from './manifestView';
import { attentionOf } from './scanRules';
import type { ManifestsService } from './manifests';
import type { ResolvedCode } from './scanCodes';
import type { ScanRecord } from './scanRecord';

/** The booking's own attention reasons, for an item without a session (no manifest rows to read them from). */
async function unscheduledAttention(db: Kysely<Database>, orderNumber: string) {
  const booking = await getBooking(db, orderNumber);
  const reasons: AttentionReason[] = [];
  if (booking.internal_notes || booking.comments || booking.reseller_comments) reasons.push('NOTE');
  if ((await netPaid(db, booking.order_number)) < booking.total_amount_minor) reasons.push('UNPAID');
  if (parseFields(booking.fields_json).some((f) => f.value !== undefined && f.value !== null && String(f.value).trim() !== '')) reasons.push('SPECIAL_FIELD');
  return reasons;
}

/** A code whose item has no session (a NO_DATE or enquiry product), or a revoked one: the booking's context without a session. */
export async function scanUnscheduled(tx: Tx, manifests: ManifestsService, scan: ScanRecord, resolved: ResolvedCode): Promise<UnscheduledScan> {
  scan.row.order_number = resolved.orderNumber;
  scan.row.participant_id = resolved.participantId;
  const result = resolved.revoked ? 'CODE_REVOKED' : 'WRONG_SESSION';
  const message = resolved.revoked ? `Code revoked: booking ${resolved.orderNumber} has a new code` : `Booking ${resolved.orderNumber} is not for a scheduled session`;
  const reasons = await unscheduledAttention(tx.db, resolved.orderNumber);
  const itemIds = resolved.itemId !== null ? [resolved.itemId] : await itemIdsOfOrder(tx.db, resolved.orderNumber);
  let participants = await participantsOfItems(tx.db, itemIds);
  if (resolved.participantId !== null) participants = participants.filter((p) => p.id === resolved.participantId);
  const stored = await eventsOfParticipants(tx.db, participants.map((p) => p.id));
  // This scan is part of the history it answers (as in a scheduled scan's answer).
  const events = [...stored, scan.stored(result)];
  const productCode = itemIds.length ? await productCodeOfItem(tx.db, itemIds[0]) : undefined;
  const view: ViewContext = { timezone: productCode !== undefined ? await manifests.timezoneOf(tx.db, productCode) : 'UTC', keyNames: await manifests.keyNames(tx.db) };
  return scan.store({
    eventId: scan.eventId,
    result,
    checkedIn: false,
    code: scan.input.code,
    orderNumber: resolved.orderNumber,
    belongsTo: null,
    overrides: [],
    message,
    ...attentionOf(reasons, participants, []),
    participants: participants.map((p) => ({
      id: p.id,
      position: p.position,
      name: participantName(parseFields(p.fields_json)),
      fields: parseFields(p.fields_json),
      barcode: p.barcode,
      history: historyView(events.filter((e) => e.participant_id === p.id || e.event_id === scan.eventId), view),
    })),
  });
}
