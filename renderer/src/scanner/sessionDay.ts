import { api, type ApiConfig } from '../api/client';
import type { DayBoardSession } from '../api/types';
import type { WindowCopy } from './copies';

/** The local day of the departure served alone: from what the device holds, else asked of the engine once. */
const askedDays = new Map<number, string>();
export async function dayOfSession(config: ApiConfig | null, id: number, held: WindowCopy | null, day: readonly DayBoardSession[]): Promise<string | null> {
  const known = held?.sessions[id]?.startTimeLocal ?? day.find((s) => s.id === id)?.startTimeLocal ?? askedDays.get(id);
  if (known) return known.slice(0, 10);
  if (!config) return null;
  const { manifest } = await api(config, 'GET /v1/manifest', { query: { sessionId: id }, timeoutMs: 10_000 }).catch(() => ({ manifest: null }));
  if (manifest) askedDays.set(id, manifest.session.startTimeLocal);
  return manifest?.session.startTimeLocal.slice(0, 10) ?? null;
}
