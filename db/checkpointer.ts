import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

/** How often the background connection folds the WAL back into the file. */
export const CHECKPOINT_INTERVAL_MS = 200;
/**
 * The WAL size (pages) at which the serving connection checkpoints by itself, inside a commit, as
 * SQLite does by default at 1,000: the bound if the background connection falls behind or is gone.
 */
export const BACKSTOP_CHECKPOINT_PAGES = 10_000;

/**
 * The worker: its own connection to the file, running a PASSIVE checkpoint on a timer. PASSIVE
 * takes no lock a reader or the writer waits for; it copies what it can and the writer starts the
 * WAL over once everything in it is in the file. Plain JavaScript run from a string, so it needs no
 * build step of its own (the Electron bundle and tsx both run it as is).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = FULL');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or closing: the next tick tries again */ }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Stops the timer and closes the background connection; resolves once the worker has exited. */
  stop(): Promise<void>;
}

/**
 * Takes the WAL checkpoint off the request path. With SQLite's default, the commit that takes the
 * WAL past 1,000 pages copies them into the database file and fsyncs it, inside that request (every
 * ~50th scan). Here a worker thread's connection checkpoints every CHECKPOINT_INTERVAL_MS instead,
 * and the serving connection's own automatic checkpoint moves to BACKSTOP_CHECKPOINT_PAGES, so the
 * WAL stays bounded even if the worker stops. If the worker cannot start, the default comes back.
 */
export function startCheckpointer(sqlite: BetterSqlite3.Database, file: string): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, intervalMs: CHECKPOINT_INTERVAL_MS } });
  // The timer alone must not keep a process alive (a CLI command, a test) that has nothing else to do.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('error', () => {
    if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  });
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  return {
    async stop() {
      // Kept alive until it has exited: an unreferenced worker alone would let the process end mid-close.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
