import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { DATABASE_FILE, defaultDataDir } from '../config';
import { BackupError, createBackup, PG_DUMP_COMMAND, restoreBackup } from '../backups';
import BetterSqlite3 from 'better-sqlite3';
import { UsageError, databaseOf, type Out } from './usage';

/* Backups of a SQLite data folder from the command line (a hub on PostgreSQL uses PostgreSQL's tools). */

/** `tourdesk backup <file>`: its own connection to the database, so it works beside a running server. */
export async function backup(args: string[], out: Out): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { 'data-dir': { type: 'string' }, database: { type: 'string' } } });
  if (databaseOf(values)) throw new PostgresBackupError('backup');
  if (positionals.length !== 1) throw new UsageError('backup needs the file to write: tourdesk backup <file> [--data-dir DIR]');
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  const dbFile = join(dataDir, DATABASE_FILE);
  if (!existsSync(dbFile)) throw new UsageError(`No TourDesk database in ${dataDir}`);
  const target = resolve(positionals[0]);
  if (existsSync(target)) throw new UsageError(`${target} exists already; choose a new file name`);
  const sqlite = new BetterSqlite3(dbFile, { fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 5000');
    const record = await createBackup({ sqlite, dataDir, target });
    out(`Backed up ${dataDir} to ${record.file} (${record.bytes} bytes, ${record.mediaFiles} media files) at ${record.time}.`);
  } catch (error) {
    if (error instanceof BackupError) throw new UsageError(error.message);
    throw error;
  } finally {
    sqlite.close();
  }
  return 0;
}

export async function restore(args: string[], out: Out): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { 'data-dir': { type: 'string' }, database: { type: 'string' } } });
  if (databaseOf(values)) throw new PostgresBackupError('restore');
  if (positionals.length !== 1) throw new UsageError('restore needs the backup file: tourdesk restore <file> [--data-dir DIR]');
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  try {
    const result = await restoreBackup({ file: positionals[0], dataDir });
    out(`Restored ${resolve(positionals[0])} into ${dataDir} (${result.mediaFiles} media files).`);
    for (const path of result.movedAside) out(`Kept what was there as ${path}`);
  } catch (error) {
    if (error instanceof BackupError) throw new UsageError(error.message);
    throw error;
  }
  return 0;
}

/**
 * `tourdesk backup`/`restore` copy a SQLite data folder. A hub on PostgreSQL is backed up with
 * PostgreSQL's own tools, which do it properly (consistent while every hub process writes,
 * point-in-time with WAL archiving); a copy made here would only pretend.
 */
class PostgresBackupError extends Error {
  constructor(command: 'backup' | 'restore') {
    super(
      command === 'backup'
        ? 'this hub keeps its data in PostgreSQL, and `tourdesk backup` only copies a SQLite data folder. Back PostgreSQL up with its own tools: ' +
            `\`${PG_DUMP_COMMAND}\` for a consistent logical copy while the hub runs, or base backups ` +
            '(pg_basebackup) with WAL archiving for point-in-time recovery; copy the data folder (keys file, TLS certificate, media) beside it. See docs/hub.md.'
        : 'this hub keeps its data in PostgreSQL, and `tourdesk restore` only restores a SQLite data folder. Restore with PostgreSQL\'s own tools: ' +
            '`pg_restore --clean --if-exists --dbname="$TOURDESK_DATABASE_URL" tourdesk.dump` with every hub process stopped, or recover a base backup ' +
            '(with its WAL) into a new cluster. See docs/hub.md.',
    );
  }
}
