import { deviceFormats, formats } from '../lib/formats';

/**
 * One clock on the scanner screen: every time a guide reads is the company's, worded by the one
 * format module in the company's locale as the engine words its own answers ("Already checked in at
 * 7:13 am" for en-AU, "07:13" for de-DE), so a verdict from the engine and one from this device read alike. The company's zone comes with the manifests: each session carries its
 * start as an instant and as company-local time, and their difference is the company's offset then.
 * The device's own clock appears only labelled so, when no session has told the offset yet.
 */
interface SessionTimes {
  startTime: string;
  startTimeLocal: string;
}

const DAY_MS = 86_400_000;
const offsetOf = (s: SessionTimes) => Date.parse(`${s.startTimeLocal.replace(' ', 'T')}Z`) - Date.parse(s.startTime);

/** The company's offset from UTC at `at`, from the held session nearest to it (so a DST change between days is honoured), or null. */
export function companyOffsetMs(sessions: Iterable<SessionTimes>, at: number): number | null {
  let best: { offset: number; distance: number } | null = null;
  for (const s of sessions) {
    const offset = offsetOf(s);
    const distance = Math.abs(Date.parse(s.startTime) - at);
    // A whole-minute offset under a day is a real one; anything else is a session without its instant.
    if (!Number.isFinite(offset) || Math.abs(offset) >= DAY_MS || offset % 60_000 !== 0) continue;
    if (!best || distance < best.distance) best = { offset, distance };
  }
  return best?.offset ?? null;
}

/** An instant as a company-local stamp (yyyy-MM-dd HH:mm:ss), the shape the manifest's *Local times have; null without an offset. */
export function companyStamp(at: string | number | Date, sessions: Iterable<SessionTimes>): string | null {
  const ms = new Date(at).getTime();
  if (!Number.isFinite(ms)) return null;
  const offset = companyOffsetMs(sessions, ms);
  return offset === null ? null : new Date(ms + offset).toISOString().replace('T', ' ').slice(0, 19);
}

/** A company-local stamp's time as the company's locale reads it (7:13 am, or 07:13; with seconds for a clock the guide watches move). */
export const clockOf = (local: string, seconds = false) => (seconds ? formats().timeWithSeconds(local) : formats().time(local));

/** An instant read on the company's clock, or on this device's, labelled so, when no session has told the company's offset. */
export function companyClock(at: string | number | Date, sessions: Iterable<SessionTimes>, seconds = false): string {
  const local = companyStamp(at, sessions);
  if (local) return clockOf(local, seconds);
  const device = deviceFormats();
  return `${seconds ? device.timeWithSeconds(at) : device.time(at)} (this device’s clock)`;
}
