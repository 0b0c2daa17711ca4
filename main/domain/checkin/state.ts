/**
 * Check-in state is derived from the append-only event log, never stored. This module is pure
 * (no I/O) so that the same events, merged from several offline devices in any arrival order,
 * always give the same state:
 * - an UNDO cancels exactly the event it names (and, when it names a scan, every check-in that
 *   scan made); an UNDO naming another UNDO is ignored (check in again instead);
 * - a participant with at least one check-in that is not undone is CHECKED_IN (the earliest such
 *   check-in by occurredAt, then eventId, is the one reported), whatever no-shows say: a
 *   check-in beats a no-show;
 * - otherwise a no-show that is not undone makes them NO_SHOW, and so does a closed session;
 * - a session is closed when its latest (by occurredAt, then eventId) CLOSE/REOPEN that is not
 *   undone is a CLOSE.
 * Every rule is a function of the event set, never of its order.
 */

import type { EventKind } from '../../contract/enums';

export { EVENT_KINDS, type EventKind } from '../../contract/enums';
/** A SCAN row records a scan and its answer; it changes no state by itself. */
export type StoredKind = EventKind | 'SCAN';

export interface CheckinEvent {
  eventId: string;
  kind: StoredKind;
  participantId: number | null;
  sessionId: number | null;
  undoesEventId: string | null;
  parentEventId: string | null;
  occurredAt: number;
  device: string | null;
  apiKeyId: number | null;
  /** The recording key's name, carried with the event (null on events older than it). */
  keyName?: string | null;
}

export type ParticipantStatus = 'CHECKED_IN' | 'NO_SHOW' | 'EXPECTED';

export interface ParticipantState {
  status: ParticipantStatus;
  /** The check-in (or no-show) event the state comes from; absent for EXPECTED and for a no-show implied by closing. */
  event?: CheckinEvent;
}

export interface DerivedState {
  closed: boolean;
  closeEvent: CheckinEvent | null;
  checkIns: Map<number, CheckinEvent>;
  noShows: Map<number, CheckinEvent>;
}

/** Total order used for every tie: occurredAt, then eventId. */
export function compareEvents(a: CheckinEvent, b: CheckinEvent): number {
  if (a.occurredAt !== b.occurredAt) return a.occurredAt - b.occurredAt;
  return a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0;
}

export function deriveCheckinState(events: readonly CheckinEvent[]): DerivedState {
  const undone = new Set<string>();
  for (const event of events) if (event.kind === 'UNDO' && event.undoesEventId) undone.add(event.undoesEventId);
  const isUndone = (event: CheckinEvent) => undone.has(event.eventId) || (event.parentEventId !== null && undone.has(event.parentEventId));

  const checkIns = new Map<number, CheckinEvent>();
  const noShows = new Map<number, CheckinEvent>();
  let closeEvent: CheckinEvent | null = null;
  for (const event of events) {
    if (event.kind === 'UNDO' || event.kind === 'SCAN' || isUndone(event)) continue;
    if (event.kind === 'CHECK_IN' || event.kind === 'NO_SHOW') {
      if (event.participantId === null) continue;
      const map = event.kind === 'CHECK_IN' ? checkIns : noShows;
      const current = map.get(event.participantId);
      if (!current || compareEvents(event, current) < 0) map.set(event.participantId, event);
    } else if (!closeEvent || compareEvents(event, closeEvent) > 0) {
      closeEvent = event;
    }
  }
  const closed = closeEvent?.kind === 'CLOSE';
  return { closed, closeEvent: closed ? closeEvent : null, checkIns, noShows };
}

export function stateOf(derived: DerivedState, participantId: number): ParticipantState {
  const checkIn = derived.checkIns.get(participantId);
  if (checkIn) return { status: 'CHECKED_IN', event: checkIn };
  const noShow = derived.noShows.get(participantId);
  if (noShow) return { status: 'NO_SHOW', event: noShow };
  if (derived.closed) return { status: 'NO_SHOW' };
  return { status: 'EXPECTED' };
}

export interface Counts {
  booked: number;
  checkedIn: number;
  noShow: number;
  remaining: number;
}

export function countStates(derived: DerivedState, participantIds: readonly number[]): Counts {
  let checkedIn = 0;
  let noShow = 0;
  for (const id of participantIds) {
    const { status } = stateOf(derived, id);
    if (status === 'CHECKED_IN') checkedIn++;
    else if (status === 'NO_SHOW') noShow++;
  }
  return { booked: participantIds.length, checkedIn, noShow, remaining: participantIds.length - checkedIn - noShow };
}
