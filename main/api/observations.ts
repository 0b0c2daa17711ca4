import { observeChanges, type ChangeObservation, type EngineContext } from '../domain/context';

/** Hands a request the observation it is answered as of, or why none could be made. */
export type Observed = (failure: unknown, seen: ChangeObservation | undefined) => void;

/**
 * One observation of other processes' commits (`PRAGMA data_version`, db/queries/changes.ts) for
 * every request read in one pass of the event loop's poll phase, instead of one each.
 *
 * A request is answered as of an instant after it arrived: a commit another process had made
 * (and acknowledged) before a client sent its request must be in the answer. A request asks
 * here from its key check, which runs as its bytes are read; the observation is made in the
 * check phase that follows the poll phase (`setImmediate`), so after every request read in that
 * pass has arrived, however many times libuv polled in it. Each of those requests is then
 * answered as of an instant inside it, as when each made its own. Under load the PRAGMA (a lock
 * and an unlock of the shared-memory file, ~3 µs alone and 10-17 µs with the sockets busy) is
 * made once per batch; a lone request pays one `setImmediate` more.
 *
 * PostgreSQL needs no observation (its caches follow notifications): answered at once.
 */
export function observationsFor(ctx: EngineContext): (then: Observed) => void {
  if (ctx.handle.dialect === 'postgres') return (then) => then(undefined, undefined);
  let waiting: Observed[] = [];
  const observeForAll = () => {
    const batch = waiting;
    waiting = [];
    let seen: ChangeObservation | undefined;
    let failure: unknown;
    try {
      seen = observeChanges(ctx);
    } catch (error) {
      failure = error ?? new Error('could not observe the database');
    }
    for (const then of batch) {
      try {
        then(failure, seen);
      } catch {
        // Each request answers its own failures (admission.ts); one cannot keep the others waiting.
      }
    }
  };
  return (then) => {
    if (waiting.push(then) === 1) setImmediate(observeForAll);
  };
}
