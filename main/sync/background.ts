/** What one exchange with every peer answers: per peer, its error (null when it went through) and what moved. */
export interface PeerRun {
  url: string;
  error: string | null;
  report?: { received: number; sent: number };
}

export interface BackgroundSync {
  stop(): void;
}

export const SYNC_EVERY_MS = 5_000;
export const SYNC_BACKOFF_MAX_MS = 120_000;

/**
 * The background sync of `tourdesk serve` and the desktop app: one exchange with every peer every
 * few seconds, the wait doubling (up to two minutes) while a peer fails and back to the start after
 * an exchange that went through. `syncAll` is the sync service's, which runs one exchange at a time,
 * so an on-demand sync (POST /v1/sync/run, `tourdesk sync`) never overlaps this one.
 */
export function startBackgroundSync(
  syncAll: () => Promise<PeerRun[]>,
  log: (line: string) => void,
  options: { everyMs?: number; maxMs?: number; setTimer?: (run: () => void, ms: number) => unknown; clearTimer?: (timer: unknown) => void } = {},
): BackgroundSync {
  const everyMs = options.everyMs ?? SYNC_EVERY_MS;
  const maxMs = options.maxMs ?? SYNC_BACKOFF_MAX_MS;
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms).unref());
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as NodeJS.Timeout));
  let timer: unknown = null;
  let stopped = false;
  let delay = everyMs;
  const run = async () => {
    if (stopped) return;
    const results = await syncAll().catch((error: unknown) => [{ url: '*', error: error instanceof Error ? error.message : String(error) }]);
    const failed = results.filter((r) => r.error !== null);
    for (const f of failed) log(`sync with ${f.url} failed: ${f.error}`);
    delay = failed.length > 0 ? Math.min(delay * 2, maxMs) : everyMs;
    if (!stopped) timer = setTimer(() => void run(), delay);
  };
  timer = setTimer(() => void run(), everyMs);
  return {
    stop() {
      stopped = true;
      if (timer !== null) clearTimer(timer);
    },
  };
}
