import type { PeerStatus } from '../../../main/contract/sync';

/** Below this a clock difference is network noise and rounding: the clocks are in step. */
const IN_STEP_MS = 30_000;
/** From here the status bar warns: ops are stamped with this computer's clock, and sync compares stamps. */
const WARN_MS = 60_000;
/** A peer refuses ops stamped further than this ahead of its own clock (main/sync/hlc.ts, DEFAULT_MAX_FUTURE_MS). */
export const REFUSED_AHEAD_MS = 5 * 60_000;

/** A time span in round words: "40 s", "7 min", "3 h", "4 days". */
export function durationWords(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 90_000) return `${Math.round(abs / 1000)} s`;
  if (abs < 90 * 60_000) return `${Math.round(abs / 60_000)} min`;
  if (abs < 48 * 3_600_000) return `${Math.round(abs / 3_600_000)} h`;
  return `${Math.round(abs / 86_400_000)} days`;
}

/**
 * This computer's clock against a peer's, as measured at the last exchange (`clockSkewMs` is the
 * peer's clock minus ours): "in step", or "7 min behind" / "7 min ahead" (this computer's clock).
 */
export function clockWords(skewMs: number | null): string {
  if (skewMs === null) return 'not measured yet';
  if (Math.abs(skewMs) < IN_STEP_MS) return 'in step';
  return `${durationWords(skewMs)} ${skewMs > 0 ? 'behind' : 'ahead'}`;
}

/**
 * The status bar's clock warning: the peer this computer's clock is furthest off from, when that is
 * a minute or more, with what it means on hover. Sales and check-ins never wait for the clock; what
 * suffers is sync, so the bar says so before the first refusal rather than after it.
 */
export function clockWarning(peers: readonly Pick<PeerStatus, 'url' | 'clockSkewMs'>[]): { text: string; title: string } | null {
  const worst = peers.filter((p) => p.clockSkewMs !== null && Math.abs(p.clockSkewMs) >= WARN_MS).sort((a, b) => Math.abs(b.clockSkewMs!) - Math.abs(a.clockSkewMs!))[0];
  if (!worst) return null;
  const skew = worst.clockSkewMs!;
  const ahead = skew < 0;
  const text = `Clock ${durationWords(skew)} ${ahead ? 'ahead of' : 'behind'} ${worst.url}`;
  const consequence =
    ahead && -skew > REFUSED_AHEAD_MS
      ? 'The peer refuses changes stamped this far in its future, so what is sold or checked in here does not reach it until this computer’s clock is set right.'
      : ahead
        ? 'Changes made here look newer than they are and win ties they should lose; past 5 minutes ahead the peer refuses them.'
        : 'Changes made here look older than they are and lose ties against the same field changed elsewhere.';
  return { text, title: `This computer’s clock is ${durationWords(skew)} ${ahead ? 'ahead of' : 'behind'} ${worst.url}’s. ${consequence} Sales and check-ins still work; set the clock (automatic time) to fix it.` };
}

/**
 * A desk that syncs with this hub exchanges every few seconds (main/sync/background.ts), and every
 * two minutes at the most while it is failing: one not seen for longer is off, offline or stuck.
 */
const QUIET_AFTER_MS = 3 * 60_000;

/** How long an instance that syncs here has been quiet ("2 h"), or null while it keeps exchanging. */
export function quietFor(lastSeenAt: string, now: number): string | null {
  const quiet = now - Date.parse(lastSeenAt);
  return quiet > QUIET_AFTER_MS ? durationWords(quiet) : null;
}
