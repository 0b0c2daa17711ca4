import type { Kysely } from 'kysely';
import type { Database, ParticipantsTable, ProductsTable } from '../../../db/schema';
import { closingEventsOfSession } from '../../../db/queries/checkinEvents';
import { deriveCheckinState } from './state';
import { parseFields, toEvent } from './manifestView';
import { ATTENTION_REASONS, type AttentionReason } from '../../contract/manifest';

/**
 * The check-in rules a scan (and a search) weighs beside the booking's own state, kept pure or
 * read-only so the scan service stays one readable decision.
 */

/** The scan results and the rules a guide may override (each overridden one is stored in override_json) are the contract's. */
export { ATTENTION_REASONS, SCAN_RESULTS, type AttentionReason, type OverridableRule, type ScanResult } from '../../contract/manifest';

const norm = (label: string | undefined) => (label ?? '').trim().toLowerCase();
const filled = (value: unknown) => value !== undefined && value !== null && String(value).trim() !== '';

interface FieldDefinition {
  label?: string;
  requiredPerParticipant?: boolean;
}

/** Labels of the fields the product marks requiredPerParticipant, from its details_json. */
export function requiredParticipantLabels(product: ProductsTable): string[] {
  try {
    const details = JSON.parse(product.details_json) as { bookingFields?: FieldDefinition[] };
    return (details.bookingFields ?? []).filter((f) => f.requiredPerParticipant && f.label).map((f) => f.label!.trim());
  } catch {
    return [];
  }
}

/** The required labels a participant has not filled (labels compared in any case). */
export function missingFieldsOf(participant: ParticipantsTable, required: readonly string[]): string[] {
  const fields = parseFields(participant.fields_json);
  return required.filter((label) => !fields.some((f) => norm(f.label) === norm(label) && filled(f.value)));
}

/** Fields that identify a participant rather than tell the guide something. */
const ROUTINE_LABELS = new Set(['first name', 'last name', 'name', 'full name', 'email', 'phone', 'mobile']);

/** A participant field the guide should see: any filled field but name and contact details (e.g. "Dietary": "Vegan"). */
export function specialFieldsOf(participant: ParticipantsTable): { label: string; value: string }[] {
  return parseFields(participant.fields_json)
    .filter((f) => !ROUTINE_LABELS.has(norm(f.label)) && filled(f.value))
    .map((f) => ({ label: f.label, value: String(f.value).trim() }));
}

/**
 * The answer's `attention` reasons: the booking's (NOTE, UNPAID, SPECIAL_FIELD for its own
 * fields), SPECIAL_FIELD for a participant's, INCOMPLETE when required fields are missing.
 */
export function attentionOf(bookingReasons: readonly AttentionReason[], participants: readonly ParticipantsTable[], required: readonly string[]): { attention: boolean; attentionReasons: AttentionReason[] } {
  const reasons = new Set(bookingReasons);
  if (participants.some((p) => specialFieldsOf(p).length > 0)) reasons.add('SPECIAL_FIELD');
  if (participants.some((p) => missingFieldsOf(p, required).length > 0)) reasons.add('INCOMPLETE');
  const attentionReasons = [...reasons].sort((a, b) => ATTENTION_REASONS.indexOf(a) - ATTENTION_REASONS.indexOf(b));
  return { attention: attentionReasons.length > 0, attentionReasons };
}

/** Whether the session's check-in is closed now (its latest CLOSE/REOPEN not undone is a CLOSE). */
export async function isSessionClosed(db: Kysely<Database>, sessionId: number): Promise<boolean> {
  return deriveCheckinState((await closingEventsOfSession(db, sessionId)).map(toEvent)).closed;
}

/** When a product's check-in opens for a session: start minus checkinOpensMinutesBefore; null = always open. */
export function opensAt(product: ProductsTable, sessionStart: number): number | null {
  const minutes = product.checkin_opens_minutes_before;
  return minutes === null || minutes === undefined ? null : sessionStart - minutes * 60_000;
}
