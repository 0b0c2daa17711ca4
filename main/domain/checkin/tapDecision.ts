import { loadBookingRows } from '../../../db/queries/manifest';
import type { EventOverridableRule, ScanResult } from '../../contract/manifest';
import type { Tx } from '../context';
import { bookingView, parseFields, participantName, toEvent } from './manifestView';
import type { ManifestsService } from './manifests';
import { decideScan } from './scanDecision';
import { isSessionClosed, opensAt, requiredParticipantLabels } from './scanRules';
import { deriveCheckinState } from './state';

/**
 * A check-in by hand (a tap on a manifest row, from any client) weighed with the scan's rules, so a
 * tap never admits someone a scan would refuse: a cancelled booking, a closed session, check-in not
 * yet open, an unpaid balance where the product requires payment, required fields it enforces. A
 * refusal names the person, the booking and the rule; the person may resend naming the rule in
 * `override`, which is recorded. Tapping someone already in is not refused (it changes nothing).
 */
export type TapDecision =
  | { admit: true; overrides: EventOverridableRule[] }
  | { admit: false; rule: ScanResult; overridable: boolean; message: string };

export async function decideTap(
  tx: Tx,
  manifests: ManifestsService,
  input: { participantId: number; sessionId: number; orderNumber: string; occurredAt: number; override: readonly EventOverridableRule[]; locale: string | null },
): Promise<TapDecision> {
  const own = await manifests.resolveSession(tx.db, { sessionId: input.sessionId });
  const rows = await loadBookingRows(tx.db, input.orderNumber, input.sessionId, [input.participantId]);
  const booking = rows.bookings.get(input.orderNumber)!;
  const participant = [...rows.participantsByItem.values()].flat().find((p) => p.id === input.participantId)!;
  const context = bookingView(input.orderNumber, rows, rows.items.map((i) => i.id));
  const decision = await decideScan({
    override: input.override,
    scannedSessionId: undefined,
    own,
    booking,
    revoked: null,
    occurredAt: input.occurredAt,
    opens: opensAt(own.product, own.session.start_at),
    targets: [participant],
    // As if not yet in: a second tap on someone already in is harmless, not a re-admission to refuse.
    fresh: [participant],
    before: deriveCheckinState(rows.events.map(toEvent)),
    // The names kept from a read before the write lock while no key changed (a read here is not kept).
    keyNames: await manifests.keyNames(tx.db),
    payment: context.payment,
    required: requiredParticipantLabels(own.product),
    locale: input.locale,
    isClosed: () => isSessionClosed(tx.db, own.session.id),
  });
  if (!decision.refusal) return { admit: true, overrides: decision.overrides as EventOverridableRule[] };
  const name = participantName(parseFields(participant.fields_json)) ?? `Participant ${participant.position + 1}`;
  const overridable = decision.result !== 'CODE_REVOKED';
  return {
    admit: false,
    rule: decision.result,
    overridable,
    message: `${name} (booking ${input.orderNumber}) was not checked in: ${decision.refusal}${overridable ? `. To admit anyway, send the check-in again with override ["${decision.result}"]` : ''}`,
  };
}
