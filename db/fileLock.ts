import BetterSqlite3 from 'better-sqlite3';

/**
 * An exclusive lock on a file, held by the operating system for this process: SQLite's own file
 * locks (fcntl on Unix, LockFileEx on Windows), taken by an EXCLUSIVE transaction on an empty
 * database that is never committed. The operating system drops the lock when the process ends,
 * however it ends (SIGKILL, a crash, a power cut), so a lock whose holder died never blocks anyone
 * and no process id is ever trusted. Node has no flock of its own; this is the one it ships with.
 *
 * The file is never deleted: a process that opened it just before a delete would lock the removed
 * file while the next one locks a new file of the same name, and both would believe they hold it.
 */
export interface HeldFileLock {
  release(): void;
}

/** Connections holding a lock: referenced here so that no garbage collection closes one (which would drop its lock). */
const holding = new Set<BetterSqlite3.Database>();

/** The lock, or null at once when another connection (any process, this one included) holds it. */
export function tryLockFile(file: string): HeldFileLock | null {
  const sqlite = new BetterSqlite3(file);
  try {
    sqlite.pragma('busy_timeout = 0');
    // Nothing is ever written: a journal in memory leaves no `-journal` file beside it, even after a SIGKILL.
    sqlite.pragma('journal_mode = MEMORY');
    sqlite.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    sqlite.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return null;
    throw error;
  }
  holding.add(sqlite);
  return {
    release: () => {
      if (!holding.delete(sqlite)) return;
      sqlite.close(); // the open transaction ends with the connection, and the lock with it
    },
  };
}
