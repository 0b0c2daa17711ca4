import type { EventItem, ScanItem } from '../outbox/items';
import type { ScanAnswer } from '../api/types';
import type { WindowCopy } from './copies';
import { companyStampIn, correctionOf, type Correction } from './pending';
import type { ShownVerdict } from './recent';
import { fromAnswer, markCheckedIn, notYetIn, type Verdict } from './verdict';

/** Check-ins the engine recorded for one of this device's items, to lay into the device's copy. */
export interface Recorded {
  sessionId: number | null;
  participantIds: number[];
  eventIdOf(participantId: number): string;
  at: string;
  device: string | undefined;
}

/** Only a scan of a session's code checks anyone in (an unknown or unscheduled code names no session). */
export function recordedByScan(item: ScanItem, scan: ScanAnswer): Recorded {
  const sessionScan = 'booking' in scan ? scan : null;
  return {
    sessionId: item.local?.sessionId ?? sessionScan?.belongsTo?.sessionId ?? null,
    participantIds: sessionScan?.checkedInParticipantIds ?? [],
    eventIdOf: (pid) => `${item.eventId}.${pid}`,
    at: item.body.occurredAt,
    device: item.body.device,
  };
}

export function recordedByEvent(item: EventItem & { local: NonNullable<EventItem['local']> }): Recorded {
  return { sessionId: item.local.sessionId, participantIds: item.local.participantIds, eventIdOf: () => item.eventId, at: item.body.occurredAt, device: item.body.device };
}

/** The copy with what the engine recorded in it, until the next refresh brings the engine's own. */
export function withRecorded(copy: WindowCopy, recorded: Recorded): WindowCopy {
  if (recorded.sessionId === null) return copy;
  const fresh = notYetIn(copy, recorded.sessionId, recorded.participantIds);
  return markCheckedIn(copy, recorded.sessionId, fresh, { at: recorded.at, atLocal: companyStampIn(copy, recorded.sessionId, recorded.at), device: recorded.device ?? null, eventIdOf: recorded.eventIdOf });
}

/** What a scan's answer changes on screen: the verdict itself, a correction of one already shown, or only that it was sent. */
export type ScanAnswerShown = { kind: 'verdict'; verdict: Verdict } | { kind: 'correction'; correction: Correction } | { kind: 'sent' };

export function scanAnswerShown(item: ScanItem, scan: ScanAnswer, current: ShownVerdict | null, now: Date): ScanAnswerShown {
  // The answer came in time: it is the verdict (no correction, the device had not decided).
  if (current?.eventId === item.eventId && current.checking) return { kind: 'verdict', verdict: fromAnswer(item.body.code, scan) };
  const correction = correctionOf(item, scan, now);
  return correction ? { kind: 'correction', correction } : { kind: 'sent' };
}
