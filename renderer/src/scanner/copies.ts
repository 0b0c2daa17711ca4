import type { DayBoardSession, Manifest } from '../api/types';
import { idbAll, idbDelete, idbGet, idbPut } from '../lib/deviceDb';

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
