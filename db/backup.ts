import BetterSqlite3 from 'better-sqlite3';

/**
 * A consistent copy of an open database through SQLite's online backup API. The whole file is
 * copied in one step under one read transaction, so the copy is the database as it was at one
 * commit: writers go on meanwhile (WAL), and nothing they commit after that point is in the copy.
 * A step in small slices would restart each time another connection writes.
 */
export async function backupDatabase(sqlite: BetterSqlite3.Database, target: string): Promise<void> {
  await sqlite.backup(target, { progress: () => 0x7fffffff });
}

/** `ok`, or what SQLite's integrity check found wrong. */
export function integrityOf(sqlite: BetterSqlite3.Database): string {
  const rows = sqlite.pragma('integrity_check') as { integrity_check: string }[];
  return rows.map((r) => r.integrity_check).join('; ');
}

/**
 * Whether another connection (any process: `tourdesk serve`, the desktop app, a CLI command) has the
 * database open. Leaving WAL mode needs every other connection gone, and SQLite learns that from the
 * operating system's file locks, so a process that crashed holds nothing. On success the file is left
 * in rollback-journal mode with its WAL folded in, ready to be moved aside.
 */
export function isInUse(file: string): boolean {
  const sqlite = new BetterSqlite3(file, { fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 0');
    try {
      const mode = sqlite.pragma('journal_mode = DELETE', { simple: true });
      return mode !== 'delete';
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
      throw error;
    }
  } finally {
    sqlite.close();
  }
}
