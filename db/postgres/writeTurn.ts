import { renameSync, writeFileSync } from 'node:fs';

/**
 * How long this process's writes held a section every hub write takes in turn (the write turn, the
 * tourdesk_write_turn table's EXCLUSIVE lock: db/postgres/transaction.ts): the hub's ceiling is 1 /
 * (that time per write), whatever the number of processes, since no two writes of any process are
 * inside it at once. Side-by-side writes (a booking's create) do not take it: they are only counted.
 */
export interface TurnStats {
  /** Turns taken (a retried write takes one per attempt). */
  turns: number;
  /** Milliseconds held, summed over every turn. */
  heldMs: number;
  /** Write attempts run side by side (outside the turn; quotes, which write nothing, not counted). */
  beside: number;
}

const stats: TurnStats = { turns: 0, heldMs: 0, beside: 0 };

export function turnStats(): TurnStats {
  return { ...stats };
}

/** Counts one turn from `since` (performance.now() when the lock was granted) to now. */
export function turnHeld(since: number): void {
  stats.turns++;
  stats.heldMs += performance.now() - since;
}

/** Counts one side-by-side write attempt. */
export function wroteBeside(): void {
  stats.beside++;
}

/**
 * The bench reads a `tourdesk serve` process's counts through a file: with TOURDESK_TURN_STATS_FILE
 * set, SIGUSR2 writes them there (with a running number of dumps, so the reader knows a dump is new).
 * Without it nothing listens.
 */
const statsFile = process.env.TOURDESK_TURN_STATS_FILE;
if (statsFile) {
  let dumps = 0;
  // Written beside it and renamed, so a reader never sees half a file.
  process.on('SIGUSR2', () => {
    writeFileSync(`${statsFile}.part`, JSON.stringify({ ...stats, dumps: ++dumps }));
    renameSync(`${statsFile}.part`, statsFile);
  });
}
