import type { Kysely } from 'kysely';
import type { BookingItemsTable, Database, ParticipantsTable, RevokedCodesTable } from '../../../db/schema';
import type { SessionRows } from '../../../db/queries/manifest';
import { findOrderBarcode, findParticipantByBarcode, findRevokedCode } from '../../../db/queries/scans';
import { DomainError } from '../errors';
import { codeCandidates } from './scanOutcome';

/** What a scanned code names: an order, and within it a participant or an item when the code is theirs. */
export interface ResolvedCode {
  orderNumber: string;
  participantId: number | null;
  itemId: number | null;
  /** Set when the code was replaced by a reissue: the scan answers CODE_REVOKED. */
  revoked: RevokedCodesTable | null;
}

/**
 * A participant's code first, then an order's, then a code a reissue revoked. A code typed by hand
 * from a ticket in lower case finds the upper-case code it spells (TourDesk's codes are upper case;
 * an imported code that differs from another only in case is still found exactly).
 */
export async function resolveCode(db: Kysely<Database>, code: string): Promise<ResolvedCode | null> {
  for (const candidate of codeCandidates(code)) {
    const resolved = await resolveExactCode(db, candidate);
    if (resolved) return resolved;
  }
  return null;
}

async function resolveExactCode(db: Kysely<Database>, code: string): Promise<ResolvedCode | null> {
  const participant = await findParticipantByBarcode(db, code);
  if (participant) return { orderNumber: participant.order_number, participantId: participant.id, itemId: participant.item_id, revoked: null };
  const order = await findOrderBarcode(db, code);
  if (order) return { orderNumber: order.order_number, participantId: null, itemId: order.item_id, revoked: null };
  const revoked = await findRevokedCode(db, code);
  if (revoked) return { orderNumber: revoked.order_number, participantId: revoked.participant_id, itemId: revoked.item_id, revoked };
  return null;
}

/** For an order code: the item in the scanned session, else the one the code names, else the one starting nearest the scan. */
export function pickItem(items: BookingItemsTable[], resolved: ResolvedCode, sessionId: number | undefined, at: number): BookingItemsTable | undefined {
  // A participant's code belongs to its own item, scheduled or not.
  if (resolved.participantId !== null) return items.find((i) => i.id === resolved.itemId);
  const scheduled = items.filter((i) => i.session_id !== null);
  return (
    scheduled.find((i) => sessionId !== undefined && i.session_id === sessionId) ??
    scheduled.find((i) => i.id === resolved.itemId) ??
    [...scheduled].sort((a, b) => Math.abs(a.start_at - at) - Math.abs(b.start_at - at))[0]
  );
}

/** Whom the scan is about, by id: the code's participant, or those the guide picked of the order's; undefined: all of the order's. */
export function targetIds(resolved: ResolvedCode, picked: number[] | undefined): number[] | undefined {
  if (resolved.participantId !== null) return [resolved.participantId];
  return picked?.length ? picked : undefined;
}

/** Whom the scan is about: the code's participant, or the order's (all, or those the guide picked). */
export function scanTargets(rows: SessionRows, resolved: ResolvedCode, picked: number[] | undefined): ParticipantsTable[] {
  const all = rows.items.flatMap((i) => rows.participantsByItem.get(i.id) ?? []);
  const ids = targetIds(resolved, picked);
  if (ids === undefined) return all;
  const unknown = ids.filter((id) => !all.some((p) => p.id === id));
  if (resolved.participantId === null && unknown.length) throw new DomainError('VALIDATION_ERROR', `participantIds ${unknown.join(', ')} are not participants of ${resolved.orderNumber} in this session`);
  return all.filter((p) => ids.includes(p.id));
}
