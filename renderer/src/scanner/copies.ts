import type { DayBoardSession, Manifest } from '../api/types';
import { idbAll, idbDelete, idbGet, idbPut } from '../lib/deviceDb';
import { changedSessions } from './pending';

/** A manifest as the engine last sent it, with the day-summary counts it matched (to tell whether it changed). */
export interface Held {
  manifest: Manifest;
  signature: string;
  fetchedAt: number;
}

/** The scanner's copies on this device: what it works from before (or without) the engine answering. */
export async function loadCopies(): Promise<{ held: Record<number, Held>; sessions: DayBoardSession[]; lastHeard: string | null }> {
  const [stored, day, lastHeard] = await Promise.all([idbAll<Held>('manifests'), idbGet<DayBoardSession[]>('meta', 'day'), idbGet<string>('meta', 'lastHeard')]);
  const held: Record<number, Held> = {};
  for (const h of stored) held[h.manifest.session.id] = h;
  return { held, sessions: day ?? [], lastHeard: lastHeard ?? null };
}

export const saveCopy = (sessionId: number, held: Held) => idbPut('manifests', sessionId, held);
export const dropCopy = (sessionId: number) => idbDelete('manifests', sessionId);
export const saveDay = (sessions: DayBoardSession[]) => idbPut('meta', 'day', sessions);
export const saveLastHeard = (at: string) => idbPut('meta', 'lastHeard', at);

/** A copy older than this is fetched again even when the day summary says nothing moved. */
const MAX_AGE_MS = 5 * 60_000;

/**
 * Only what changed: the sessions whose copies the day summary says moved (or never fetched), the
 * copies grown old, and the served session when it is not among the day's and not held.
 */
export function copiesToFetch(sessions: readonly DayBoardSession[], held: Readonly<Record<number, Held>>, served: number | null, now: number): number[] {
  const stale = sessions.filter((s) => held[s.id] && now - held[s.id].fetchedAt > MAX_AGE_MS).map((s) => s.id);
  const wanted = new Set([...changedSessions(sessions, new Map(Object.entries(held).map(([k, v]) => [Number(k), v]))), ...stale]);
  if (served !== null && !sessions.some((s) => s.id === served) && !held[served]) wanted.add(served);
  return [...wanted];
}

/** Yesterday's copies go; the served session stays even when it is not today's. */
export function copiesToDrop(sessions: readonly DayBoardSession[], held: Readonly<Record<number, Held>>, served: number | null): number[] {
  const keep = new Set([...sessions.map((s) => s.id), ...(served !== null ? [served] : [])]);
  return Object.keys(held).map(Number).filter((id) => !keep.has(id));
}
