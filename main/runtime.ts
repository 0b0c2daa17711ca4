import { setFlagsFromString } from 'node:v8';

/**
 * V8 options of the processes that serve the engine: `tourdesk serve` and the desktop app's main
 * process (and `npm run bench`, which measures them as they run).
 *
 * `--no-allocation-site-pretenuring`. V8 watches where objects are made and, when most of one
 * place's objects outlive a young-generation collection, makes that place's objects in the old
 * generation from then on. A server's objects live for one request; the ones caught alive by a
 * collection are those of the request in progress and of caches turning over, and a place judged
 * long-lived that way keeps putting short-lived containers in the old generation, where the
 * young objects they point to are kept through every collection until a full one. A scan over
 * HTTP then copied and promoted ~1.1 MB per collection (pauses ~2 ms, on about 2% of scans: the
 * p99); without it ~0.9 MB and ~1.6 ms, and the scan's p99 fell 15-25% (docs/api.md, eighth
 * round). No other bench row moved outside its noise.
 *
 * Set with `v8.setFlagsFromString` at start-up, before the engine runs: V8 consults this one at
 * each collection and each new allocation site, so setting it after start-up takes effect (a test
 * runs a workload V8 would pretenure with and without it). Node starts V8 with
 * `--no-freeze-flags-after-init` so that `v8.setFlagsFromString` may change flags, and Electron's
 * main process does the same (its `JavascriptEnvironment::Initialize`, shell/browser/
 * javascript_environment.cc, puts it before the `--js-flags` it is given); an embedder that froze
 * V8's flags would stop the process at this call instead.
 */
export const SERVING_V8_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];

/** Applies SERVING_V8_FLAGS to this process (idempotent). */
export function tuneV8ForServing(): void {
  for (const flag of SERVING_V8_FLAGS) setFlagsFromString(flag);
}
