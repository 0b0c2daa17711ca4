import type { CustomersTable, ParticipantsTable } from '../../../db/schema';
import type { EventRow, SessionRows } from '../../../db/queries/manifest';
import type { StateEventRow } from '../../../db/queries/checkinEvents';
import type { CheckinEvent, DerivedState, ParticipantState, StoredKind } from './state';
import { stateOf } from './state';
import type { AttentionReason, BookingContext, BookingFieldAnswer, CustomerAnswer, HistoryEntry, ParticipantCheckin, ParticipantRow, PaymentAnswer, PickupAnswer } from '../../contract/manifest';
import { fromMinor } from '../money';
import { toIso, toLocal } from '../time';
import { signedKeyName } from '../signature';

/** Pure shaping of stored rows into the manifest's API objects (shared by the manifest, scans and exports). */

export function toEvent(row: StateEventRow): CheckinEvent {
  return {
    eventId: row.event_id,
    kind: row.kind as StoredKind,
    participantId: row.participant_id,
    sessionId: row.session_id,
    undoesEventId: row.undoes_event_id,
    parentEventId: row.parent_event_id,
    occurredAt: row.occurred_at,
    device: row.device,
    apiKeyId: row.api_key_id,
    keyName: row.key_name,
  };
}

/** A booking or participant field as stored (a JSON array the client sent). */
export type Field = BookingFieldAnswer;

export function parseFields(json: string | null): Field[] {
  if (!json) return [];
  try {
    const parsed = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((f) => f && typeof f.label === 'string') : [];
  } catch {
    return [];
  }
}

const fieldValue = (fields: Field[], ...labels: string[]) => {
  const wanted = labels.map((l) => l.toLowerCase());
  const field = fields.find((f) => wanted.includes(f.label.trim().toLowerCase()) && f.value !== undefined && f.value !== null && String(f.value).trim() !== '');
  return field ? String(field.value).trim() : null;
};

/** A participant's name from the fields clients send ("First Name"/"Last Name", or "Name"/"Full Name"). */
export function participantName(fields: Field[]): string | null {
  const full = fieldValue(fields, 'Full Name', 'Name');
  if (full) return full;
  const name = [fieldValue(fields, 'First Name'), fieldValue(fields, 'Last Name')].filter(Boolean).join(' ');
  return name || null;
}

export function customerView(customer: CustomersTable | undefined): CustomerAnswer {
  if (!customer) return { name: null, firstName: null, lastName: null, phone: null };
  const name = [customer.first_name, customer.last_name].filter(Boolean).join(' ') || null;
  return { name, firstName: customer.first_name, lastName: customer.last_name, phone: customer.phone ?? customer.mobile };
}

/** The item's pickup as stored by bookings (pickup_json); its name keys the per-pickup totals. */
export function pickupView(json: string | null): PickupAnswer | null {
  if (!json) return null;
  try {
    const parsed = JSON.parse(json);
    if (!parsed || typeof parsed !== 'object') return null;
    const locationName = parsed.locationName ?? parsed.name ?? parsed.pickupLocation?.locationName;
    return typeof locationName === 'string' ? { ...parsed, locationName } : null;
  } catch {
    return null;
  }
}

/** The booking's balance; `paidToAgent` (only when there is some) is what agent keys recorded as paid. */
export function paymentView(totalMinor: number, paidMinor: number, currency: string, agentPaidMinor = 0): PaymentAnswer {
  const dueMinor = Math.max(0, totalMinor - paidMinor);
  return {
    totalAmount: fromMinor(totalMinor, currency),
    totalPaid: fromMinor(paidMinor, currency),
    totalDue: fromMinor(dueMinor, currency),
    totalCurrency: currency,
    paid: dueMinor === 0,
    ...(agentPaidMinor > 0 ? { paidToAgent: fromMinor(agentPaidMinor, currency) } : {}),
  };
}

export interface ViewContext {
  timezone: string;
  keyNames: Map<number, string>;
  /** The company's locale ('en_AU'), for sentences that word a time (12- or 24-hour as it reads them). */
  locale?: string | null;
}

/** The key's name an event reads as (its own, else this instance's for a local key: main/domain/signature.ts). */
const keyNameOf = (event: CheckinEvent, keyNames: ReadonlyMap<number, string>) => signedKeyName({ api_key_id: event.apiKeyId, key_name: event.keyName ?? null }, keyNames);

/**
 * Who did it, as a guide reads it: the device if known, else the API key's name. An older event
 * signed by another instance's key carries no name, and its id means nothing here: "another device",
 * as the scanner's own copy words it.
 */
export const actorLabel = (event: CheckinEvent, keyNames: Map<number, string>) =>
  event.device ?? keyNameOf(event, keyNames) ?? (event.apiKeyId !== null ? 'another device' : 'TourDesk');

export function checkinView(state: ParticipantState, view: ViewContext): ParticipantCheckin {
  const event = state.event;
  if (!event) return { state: state.status };
  return {
    state: state.status,
    at: toIso(event.occurredAt),
    atLocal: toLocal(event.occurredAt, view.timezone),
    by: keyNameOf(event, view.keyNames),
    device: event.device,
    eventId: event.eventId,
  };
}

const byTime = (a: EventRow, b: EventRow) => a.occurred_at - b.occurred_at || a.recorded_at - b.recorded_at;

/**
 * Oldest first, and an event's children (the check-ins a scan made: parent_event_id) right after
 * it. A scan and its check-ins are one write with the same times, so the order among them must not
 * hang on the order rows come back in: SQLite returns them by rowid, PostgreSQL in heap order, where
 * a new row may take the space deleted rows left (no insertion order). A child with other times
 * than its parent's stays in time order.
 */
function historyOrder(rows: readonly EventRow[]): EventRow[] {
  const sorted = [...rows].sort(byTime);
  if (!sorted.some((row) => row.parent_event_id !== null)) return sorted;
  const byId = new Map(sorted.map((row) => [row.event_id, row]));
  const roots: EventRow[] = [];
  const children = new Map<string, EventRow[]>();
  for (const row of sorted) {
    const parent = row.parent_event_id === null ? undefined : byId.get(row.parent_event_id);
    if (!parent || byTime(parent, row) !== 0) roots.push(row);
    else if (children.has(parent.event_id)) children.get(parent.event_id)!.push(row);
    else children.set(parent.event_id, [row]);
  }
  const ordered: EventRow[] = [];
  const emit = (row: EventRow) => {
    ordered.push(row);
    for (const child of children.get(row.event_id) ?? []) emit(child);
  };
  for (const row of roots) emit(row);
  return ordered;
}

export function historyView(rows: readonly EventRow[], view: ViewContext): HistoryEntry[] {
  return historyOrder(rows).map((row) => ({
    eventId: row.event_id,
    kind: row.kind,
    result: row.result,
    occurredAt: toIso(row.occurred_at),
    occurredAtLocal: toLocal(row.occurred_at, view.timezone),
    recordedAt: toIso(row.recorded_at),
    device: row.device,
    by: signedKeyName(row, view.keyNames),
    undoesEventId: row.undoes_event_id,
    override: row.override_json ? JSON.parse(row.override_json) : null,
  }));
}

export function participantView(p: ParticipantsTable, derived: DerivedState, view: ViewContext): ParticipantRow {
  const fields = parseFields(p.fields_json);
  return { id: p.id, position: p.position, name: participantName(fields), fields, barcode: p.barcode, checkin: checkinView(stateOf(derived, p.id), view) };
}

/** The booking context a guide sees next to a participant (manifest rows and scan answers). */
export function bookingView(orderNumber: string, rows: SessionRows, itemIds: number[]): BookingContext {
  const booking = rows.bookings.get(orderNumber)!;
  const items = rows.items.filter((i) => itemIds.includes(i.id));
  const quantities = items.flatMap((i) => (rows.quantitiesByItem.get(i.id) ?? []).map((q) => ({ optionId: q.option_id, optionLabel: q.option_label, value: q.value })));
  const extras = items.flatMap((i) => (rows.extrasByItem.get(i.id) ?? []).map((e) => ({ name: e.name, quantity: e.quantity })));
  const pickup = items.map((i) => pickupView(i.pickup_json)).find(Boolean) ?? null;
  const payment = paymentView(booking.total_amount_minor, rows.paidByOrder.get(orderNumber) ?? 0, booking.currency, rows.agentPaidByOrder.get(orderNumber) ?? 0);
  const notes = { internalNotes: booking.internal_notes, comments: booking.comments, resellerComments: booking.reseller_comments };
  const attentionReasons: AttentionReason[] = [];
  if (booking.internal_notes || booking.comments || booking.reseller_comments) attentionReasons.push('NOTE');
  if (!payment.paid) attentionReasons.push('UNPAID');
  if (parseFields(booking.fields_json).some((f) => f.value !== undefined && f.value !== null && String(f.value).trim() !== '')) attentionReasons.push('SPECIAL_FIELD');
  return {
    orderNumber,
    status: booking.status,
    customer: customerView(booking.customer_id !== null ? rows.customers.get(booking.customer_id) : undefined),
    quantities,
    extras,
    pickup,
    payment,
    resellerName: booking.reseller_id !== null ? (rows.resellerNames.get(booking.reseller_id) ?? null) : null,
    resellerReference: booking.reseller_reference,
    notes,
    fields: parseFields(booking.fields_json),
    attention: attentionReasons.length > 0,
    attentionReasons,
  };
}
