import type { Verdict } from './verdict';
import type { CancelledAdmit } from './cancelledAdmit';
import { shownCode } from './codeInput';

/** The verdict on screen, and the scan it sent (null when nothing was sent). */
export interface ShownVerdict extends Verdict {
  eventId: string | null;
  shownAt: number;
  /** The device does not hold this code and asked the engine; the answer is on its way. */
  checking?: boolean;
  /** A cancelled booking found by search: the one override the rules allow it (cancelledAdmit.ts). */
  cancelledAdmit?: CancelledAdmit;
}

/** One line of the strip of recent scans. */
export interface RecentScan {
  key: string;
  eventId: string | null;
  tone: Verdict['tone'];
  word: string;
  label: string;
  /** When it was read (an instant: the screen shows it on the company's clock). */
  at: string;
  status: 'waiting' | 'sent' | 'corrected' | 'not sent';
}

const KEPT = 12;

/** The strip with a verdict added at its top. */
export function withRecent(recent: readonly RecentScan[], verdict: Verdict, eventId: string | null, status: RecentScan['status'], now: Date): RecentScan[] {
  const label = verdict.people.length ? verdict.people.map((p) => p.name).join(', ') : shownCode(verdict.code);
  const entry: RecentScan = { key: eventId ?? `${verdict.code}-${now.getTime()}`, eventId, tone: verdict.tone, word: verdict.word, label, at: now.toISOString(), status };
  return [entry, ...recent].slice(0, KEPT);
}

/** The strip with a sent scan's status changed; a corrected scan turns red (what the device showed no longer stands). */
export function withStatus(recent: readonly RecentScan[], eventId: string, status: RecentScan['status']): RecentScan[] {
  return recent.map((r) => (r.eventId === eventId ? { ...r, status, ...(status === 'corrected' ? { tone: 'red' as const, word: 'CORRECTED' } : {}) } : r));
}
