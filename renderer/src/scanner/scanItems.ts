import { newEventId } from '../api/client';
import type { CheckinEventBody, DayBoardSession, EventOverridableRule, ScanBody } from '../api/types';
import type { EventItem, LocalOutcome, ScanItem } from '../outbox/items';
import { localStamp } from './pending';
import type { Verdict } from './verdict';

// The outbox items a scanner's action queues, and the verdicts it shows for them. Each item takes a
// new eventId and this device's clock; `local` is what the device showed, to compare with the answer.

/** Not sent yet; the outbox stamps queuedAt as it takes the item. */
const SCANNED_NOW = { queuedAt: '', attempts: 0 };

/**
 * Serving all of today's departures, a scan is for the day they are on (the engine's today, as the
 * day list it answered says; this device's date when there are none): a ticket for Sunday is not
 * checked in on Friday, the engine answers "Another day". Serving one departure: none (the session says it).
 */
export function servedDay(sessionFilter: number | null, sessions: readonly DayBoardSession[], now: Date): Pick<ScanBody, 'day'> {
  if (sessionFilter !== null) return {};
  const first = sessions[0];
  return { day: first ? first.startTimeLocal.slice(0, 10) : localStamp(now).slice(0, 10) };
}

export function scanItem(body: Omit<ScanBody, 'eventId' | 'occurredAt' | 'device'>, local: LocalOutcome, device: string | undefined): ScanItem {
  const eventId = newEventId();
  return { eventId, kind: 'scan', body: { ...body, eventId, occurredAt: new Date().toISOString(), device }, local, ...SCANNED_NOW };
}

/** One person checked in by name (not by a scanned code): an event of their own, naming the rules a deliberate override passed. */
export function checkInItem(sessionId: number, participantId: number, local: LocalOutcome, device: string | undefined, override?: EventOverridableRule[]): EventItem {
  const eventId = newEventId();
  const body: CheckinEventBody = { eventId, kind: 'CHECK_IN', sessionId, participantId, occurredAt: new Date().toISOString(), device, ...(override?.length ? { override } : {}) };
  return { eventId, kind: 'event', body, local, ...SCANNED_NOW };
}

/** Shown while the engine is asked about a code this device does not hold. */
export const checkingVerdict = (verdict: Verdict): Verdict => ({ ...verdict, tone: 'blue', word: 'CHECKING…', message: 'Not on this device; asking TourDesk' });

/** The verdict once the deliberate second action overrode the rule that refused them. */
export function admittedByOverride(verdict: Verdict & { override: NonNullable<Verdict['override']> }): Verdict {
  return { ...verdict, kind: 'CHECKED_IN', tone: 'green', word: 'CHECKED IN', message: `Admitted by override: ${verdict.override.label.toLowerCase()}`, admit: true, override: null, people: verdict.people.map((p) => ({ ...p, checkedIn: true })) };
}

/** The verdict once some or all of a booking's people were checked in from it: those shown, all of them checked in. */
export function admittedFromBooking(verdict: Verdict, participantIds: readonly number[]): Verdict {
  const people = [...verdict.people, ...verdict.others.map((o) => ({ ...o, checkedIn: false }))].map((p) => ({ ...p, checkedIn: p.checkedIn || participantIds.includes(p.id) }));
  return { ...verdict, kind: 'CHECKED_IN', tone: 'green', word: 'CHECKED IN', message: `${participantIds.length} checked in · ${verdict.booking?.orderNumber ?? ''}`, admit: true, others: [], override: null, people };
}
