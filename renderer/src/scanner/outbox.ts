import type { CheckinEventBody, Manifest, QueuedScanBody, ScanAnswer } from '../api/types';
import { disagrees, markCheckedIn } from './verdict';

/**
 * What the scanner has done and the engine has not yet answered, oldest first. Each item keeps
 * the device's eventId and clock, so sending it twice (a lost answer, a reload mid-send) records
 * it once. Pure functions over a plain array; the store keeps the array in IndexedDB.
 */
export type OutboxItem =
  | { eventId: string; kind: 'scan'; body: QueuedScanBody; local: LocalOutcome; queuedAt: string; attempts: number; lastError?: string }
  | { eventId: string; kind: 'event'; body: CheckinEventBody; local: LocalOutcome; queuedAt: string; attempts: number; lastError?: string };

/** What the device showed and did, to compare with the engine's answer. */
interface LocalOutcome {
  admit: boolean;
  result: string;
  label: string;
  sessionId: number | null;
  participantIds: number[];
}

export interface Correction {
  eventId: string;
  label: string;
  /** What the device showed, and what the engine decided. */
  local: string;
  server: string;
  message: string;
  at: string;
}

export function addToOutbox(outbox: readonly OutboxItem[], item: OutboxItem): OutboxItem[] {
  return outbox.some((q) => q.eventId === item.eventId) ? [...outbox] : [...outbox, item];
}

export function removeFromOutbox(outbox: readonly OutboxItem[], eventId: string): OutboxItem[] {
  return outbox.filter((q) => q.eventId !== eventId);
}

export function markAttempt(outbox: readonly OutboxItem[], eventId: string, error: string): OutboxItem[] {
  return outbox.map((q) => (q.eventId === eventId ? { ...q, attempts: q.attempts + 1, lastError: error } : q));
}

/** The engine's answer to a queued scan, when it is not what the device showed. */
export function correctionOf(item: OutboxItem, answer: ScanAnswer, now: Date): Correction | null {
  if (item.kind !== 'scan' || !disagrees(item.local, answer)) return null;
  return {
    eventId: item.eventId,
    label: item.local.label,
    local: item.local.admit ? 'checked in on this device' : `refused on this device (${item.local.result})`,
    server: answer.checkedIn ? `checked in (${answer.result})` : `not checked in: ${answer.result.replaceAll('_', ' ').toLowerCase()}`,
    message: answer.message,
    at: now.toISOString(),
  };
}

/**
 * A fresh copy of a manifest from the engine does not yet hold what waits in the outbox:
 * the device's check-ins are laid over it again, so nobody flips back to "expected".
 */
export function withPending(manifest: Manifest, outbox: readonly OutboxItem[]): Manifest {
  let shown = manifest;
  for (const item of outbox) {
    if (!item.local.admit || item.local.sessionId !== manifest.session.id) continue;
    const at = item.kind === 'scan' ? item.body.occurredAt : item.body.occurredAt;
    const device = item.body.device ?? null;
    const ids = item.local.participantIds.filter((id) => manifest.bookings.some((b) => b.participants.some((p) => p.id === id && p.checkin.state !== 'CHECKED_IN')));
    shown = markCheckedIn(shown, ids, { at, atLocal: localStamp(new Date(at)), device, eventIdOf: (pid) => (item.kind === 'scan' ? `${item.eventId}.${pid}` : item.eventId) });
  }
  return shown;
}

/** yyyy-MM-dd HH:mm:ss on the device's clock, the shape the manifest's *Local times have. */
export function localStamp(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** Which sessions a day summary says have changed since the copies the device holds (counts moved, or never fetched). */
export function changedSessions(
  day: readonly { id: number; booked: number; checkedIn: number; noShow: number; checkinClosed: boolean }[],
  held: ReadonlyMap<number, { signature: string }>,
): number[] {
  return day.filter((s) => held.get(s.id)?.signature !== signatureOf(s)).map((s) => s.id);
}

export const signatureOf = (s: { booked: number; checkedIn: number; noShow: number; checkinClosed: boolean }) => `${s.booked}/${s.checkedIn}/${s.noShow}/${s.checkinClosed ? 'closed' : 'open'}`;

/** A signature after `n` more people were checked in (what the engine's day summary will say). */
export function bumpCheckedIn(signature: string, n: number): string {
  const [booked, checkedIn, ...rest] = signature.split('/');
  return n && /^\d+$/.test(checkedIn ?? '') ? [booked, String(Number(checkedIn) + n), ...rest].join('/') : signature;
}
