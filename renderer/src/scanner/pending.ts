import type { DeviceBooking, DeviceParticipant, ScanAnswer } from '../api/types';
import type { WindowCopy } from './copies';
import type { EventItem, OutboxItem, ScanItem } from '../outbox/items';
import { disagrees } from './verdict';
import { companyStamp } from './clock';

/**
 * The scanner's view of its outbox: what waits is laid over the engine's copies, and the engine's
 * answers are compared with what the device showed.
 */
export interface Correction {
  eventId: string;
  label: string;
  /** What the device showed, and what the engine decided. */
  local: string;
  server: string;
  message: string;
  at: string;
}

/** The engine's answer to a queued scan, when it is not what the device showed. */
export function correctionOf(item: OutboxItem, answer: ScanAnswer, now: Date): Correction | null {
  if (item.kind !== 'scan' || !item.local || !disagrees(item.local, answer)) return null;
  return {
    eventId: item.eventId,
    label: item.local.label,
    local: item.local.admit ? 'checked in on this device' : `refused on this device (${item.local.result})`,
    server: answer.checkedIn ? `checked in (${answer.result})` : `not checked in: ${answer.result.replaceAll('_', ' ').toLowerCase()}`,
    message: answer.message,
    at: now.toISOString(),
  };
}

/** A check-in the device made that the engine refused (a race with another device, check-in closed meanwhile). */
export function rejectionOf(eventId: string, label: string, message: string | undefined, now: Date): Correction {
  return { eventId, label, local: 'checked in on this device', server: 'not recorded', message: message ?? 'Refused', at: now.toISOString() };
}

/**
 * A fresh copy from the engine does not yet hold what waits in the outbox: the device's check-ins
 * are laid over it again, so nobody flips back to "expected". One pass over the copy whatever the
 * outbox holds (it runs on every scan, over 6,000 people): the first waiting item naming someone stamps them.
 */
export function withPending(copy: WindowCopy, outbox: readonly OutboxItem[]): WindowCopy {
  const stamps = new Map<string, { item: ScanItem | EventItem; participantId: number }>();
  for (const item of outbox) {
    // The desk's own events carry no local outcome: the desk lays them over its copy itself.
    if (item.kind === 'payment' || !item.local?.admit || item.local.sessionId === null) continue;
    for (const participantId of item.local.participantIds) {
      const key = `${item.local.sessionId}:${participantId}`;
      if (!stamps.has(key)) stamps.set(key, { item, participantId });
    }
  }
  if (!stamps.size) return copy;
  const waiting = (b: DeviceBooking, p: DeviceParticipant) => (p.checkin.state === 'CHECKED_IN' ? undefined : stamps.get(`${b.sessionId}:${p.id}`));
  let bookings: Record<string, DeviceBooking> | null = null;
  for (const [key, b] of Object.entries(copy.bookings)) {
    if (!b.participants.some((p) => waiting(b, p))) continue;
    bookings ??= { ...copy.bookings };
    bookings[key] = {
      ...b,
      participants: b.participants.map((p) => {
        const stamp = waiting(b, p);
        if (!stamp) return p;
        const { item } = stamp;
        const at = item.body.occurredAt;
        const eventId = item.kind === 'scan' ? `${item.eventId}.${p.id}` : item.eventId;
        return { ...p, checkin: { state: 'CHECKED_IN' as const, at, atLocal: companyStampIn(copy, b.sessionId, at), by: null, device: item.body.device ?? null, eventId } };
      }),
    };
  }
  return bookings ? { ...copy, bookings } : copy;
}

/**
 * An instant as the engine will stamp it (company-local), from the offset its departure's times tell,
 * or any held departure's; the device's own clock only when the copy holds none.
 */
export function companyStampIn(copy: WindowCopy, sessionId: number, at: string): string {
  const session = copy.sessions[sessionId];
  return companyStamp(at, session ? [session] : Object.values(copy.sessions)) ?? localStamp(new Date(at));
}

/** yyyy-MM-dd HH:mm:ss on the device's clock, the shape the manifest's *Local times have. */
export function localStamp(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}
