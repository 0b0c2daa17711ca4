import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { markRestored } from '../db/queries/syncIncarnation';
import BetterSqlite3 from 'better-sqlite3';
import { backupDatabase, integrityOf, isInUse } from '../db/backup';
import { migrations } from '../db/migrations';

/** How a hub on PostgreSQL is copied while it runs (TourDesk copies SQLite folders only): named wherever a backup is refused there. */
export const PG_DUMP_COMMAND = 'pg_dump --format=custom --file=tourdesk.dump "$TOURDESK_DATABASE_URL"';
import { DATABASE_FILE } from './config';
import type { BackupRecord, BackupsAnswer } from './contract/settings';
import { makeDataFolderPrivate, makeTreePrivate, PRIVATE_DIR, PRIVATE_FILE } from './dataFolder';

/**
 * Backups of a data folder. A backup is ONE SQLite file: the database copied through SQLite's online
 * backup API, plus two tables added to the copy, `tourdesk_backup_media` (every file under media/,
 * by relative path, as a BLOB) and `tourdesk_backup_info` (when, from where, schema version). One
 * file to carry away, checkable with any SQLite tool, no archive format. Restore takes both out again.
 */
export const BACKUP_FOLDER = 'backups';
export const KEEP_DAYS = 7;
const LAST_BACKUP_FILE = 'last.json';
export const AUTO_PREFIX = 'tourdesk-auto-';
const DAY_MS = 24 * 60 * 60 * 1000;

export type { BackupRecord };

export class BackupError extends Error {}

function mediaFiles(dir: string, root = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return mediaFiles(path, root);
    return entry.isFile() ? [relative(root, path).split(sep).join('/')] : [];
  });
}

/** Copies the open database and the media folder into `target` (written beside it, then renamed: never half a file). */
export async function createBackup(options: { sqlite: BetterSqlite3.Database; dataDir: string; target: string; now?: Date; automatic?: boolean }): Promise<BackupRecord> {
  const target = resolve(options.target);
  const time = (options.now ?? new Date()).toISOString();
  if (!existsSync(dirname(target))) throw new BackupError(`The folder ${dirname(target)} does not exist`);
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  try {
    await backupDatabase(options.sqlite, partial);
    const copy = new BetterSqlite3(partial);
    let count = 0;
    try {
      copy.pragma('journal_mode = DELETE'); // a backup is one self-contained file
      copy.exec(`CREATE TABLE tourdesk_backup_media (path TEXT PRIMARY KEY, bytes BLOB NOT NULL) STRICT;
                 CREATE TABLE tourdesk_backup_info (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;`);
      const mediaDir = join(options.dataDir, 'media');
      const insertMedia = copy.prepare('INSERT INTO tourdesk_backup_media (path, bytes) VALUES (?, ?)');
      const insertInfo = copy.prepare('INSERT INTO tourdesk_backup_info (key, value) VALUES (?, ?)');
      copy.transaction(() => {
        for (const path of mediaFiles(mediaDir)) {
          insertMedia.run(path, readFileSync(join(mediaDir, path)));
          count++;
        }
        insertInfo.run('createdAt', time);
        insertInfo.run('dataDir', resolve(options.dataDir));
        insertInfo.run('schemaVersion', String(copy.pragma('user_version', { simple: true })));
      })();
    } finally {
      copy.close();
    }
    if (process.platform !== 'win32') chmodSync(partial, PRIVATE_FILE);
    renameSync(partial, target);
    const record: BackupRecord = { file: target, time, bytes: statSync(target).size, mediaFiles: count, automatic: options.automatic ?? false };
    recordLastBackup(options.dataDir, record);
    return record;
  } finally {
    rmSync(partial, { force: true });
  }
}

export function backupFolder(dataDir: string): string {
  const folder = join(dataDir, BACKUP_FOLDER);
  mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR });
  return folder;
}

function recordLastBackup(dataDir: string, record: BackupRecord): void {
  if (!existsSync(dataDir)) return;
  writeFileSync(join(backupFolder(dataDir), LAST_BACKUP_FILE), `${JSON.stringify(record, null, 2)}\n`, { mode: PRIVATE_FILE });
}

/** The last backup made of this data folder (by hand or automatically), or null. */
export function lastBackup(dataDir: string): BackupRecord | null {
  try {
    return JSON.parse(readFileSync(join(dataDir, BACKUP_FOLDER, LAST_BACKUP_FILE), 'utf8')) as BackupRecord;
  } catch {
    return null;
  }
}

/** The automatic backups kept in the data folder, newest first. */
export function automaticBackups(dataDir: string): BackupsAnswer['automaticBackups'] {
  const folder = join(dataDir, BACKUP_FOLDER);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.startsWith(AUTO_PREFIX) && name.endsWith('.sqlite'))
    .map((name) => {
      const stat = statSync(join(folder, name));
      return { file: join(folder, name), time: stat.mtime.toISOString(), bytes: stat.size };
    })
    .sort((a, b) => b.file.localeCompare(a.file));
}

export const stamp = (date: Date) => date.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

/** Data folders (resolved) this process is backing up now. */
const backupsUnderWay = new Set<string>();

/**
 * Makes one backup of a data folder at a time in this process (the daily one, or one asked for
 * through the API): answers undefined, without calling `make`, while another is under way.
 */
export async function oneBackupAtATime<T>(dataDir: string, make: () => Promise<T>): Promise<T | undefined> {
  const folder = resolve(dataDir);
  if (backupsUnderWay.has(folder)) return undefined;
  backupsUnderWay.add(folder);
  try {
    return await make();
  } finally {
    backupsUnderWay.delete(folder);
  }
}

/**
 * While the server runs: a backup when the newest automatic one is a day old (or missing), checked
 * every hour, into <data folder>/backups; those older than a week are deleted (the newest is always kept).
 */
export function startDailyBackups(options: { sqlite: BetterSqlite3.Database; dataDir: string; now?: () => Date; checkEveryMs?: number; say?: (line: string) => void }): { stop(): Promise<void>; runNow(): Promise<void> } {
  const now = options.now ?? (() => new Date());
  let running: Promise<void> | null = null;
  const due = () => {
    const newest = automaticBackups(options.dataDir)[0];
    return !newest || now().getTime() - new Date(newest.time).getTime() >= DAY_MS;
  };
  const run = async () => {
    const date = now();
    const target = join(backupFolder(options.dataDir), `${AUTO_PREFIX}${stamp(date)}.sqlite`);
    try {
      const made = await oneBackupAtATime(options.dataDir, () => createBackup({ sqlite: options.sqlite, dataDir: options.dataDir, target, now: date, automatic: true }));
      // One asked for through the API is being made: the next check makes the daily one.
      if (!made) return;
      for (const old of automaticBackups(options.dataDir).slice(1)) {
        if (date.getTime() - new Date(old.time).getTime() > KEEP_DAYS * DAY_MS) rmSync(old.file, { force: true });
      }
    } catch (error) {
      options.say?.(`Automatic backup failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const tick = () => {
    if (running || !due()) return running ?? Promise.resolve();
    running = run().finally(() => (running = null));
    return running;
  };
  void tick();
  const timer = setInterval(() => void tick(), options.checkEveryMs ?? 60 * 60 * 1000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
    runNow: async () => {
      await running;
      running = run().finally(() => (running = null));
      await running;
    },
  };
}

/**
 * Puts a backup into a data folder. Refused while any process has that folder's database open
 * (see isInUse); the database and media found there are kept beside it as *.before-restore-<time>.
 */
export async function restoreBackup(options: { file: string; dataDir: string; now?: Date }): Promise<{ movedAside: string[]; mediaFiles: number }> {
  const file = resolve(options.file);
  if (!existsSync(file)) throw new BackupError(`No backup at ${file}`);
  const source = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const isBackup = source.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name IN ('tourdesk_backup_media', 'tourdesk_backup_info')").get() as { n: number };
    if (isBackup.n !== 2) throw new BackupError(`${file} is not a TourDesk backup (made by \`tourdesk backup\`)`);
    const integrity = integrityOf(source);
    if (integrity !== 'ok') throw new BackupError(`The backup ${file} is damaged: ${integrity}`);
    const version = source.pragma('user_version', { simple: true }) as number;
    if (version > migrations.length) throw new BackupError(`The backup was made by a newer TourDesk (schema ${version}); upgrade TourDesk first`);

    const dataDir = resolve(options.dataDir);
    mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR });
    const dbFile = join(dataDir, DATABASE_FILE);
    const suffix = `.before-restore-${stamp(options.now ?? new Date())}`;
    const movedAside: string[] = [];
    if (existsSync(dbFile)) {
      if (isInUse(dbFile)) throw new BackupError(`The data folder ${dataDir} is in use (tourdesk serve, the desktop app or another command has its database open); stop it, then restore`);
      renameSync(dbFile, dbFile + suffix);
      movedAside.push(dbFile + suffix);
      for (const extra of ['-wal', '-shm', '-journal']) rmSync(dbFile + extra, { force: true });
    }
    const mediaDir = join(dataDir, 'media');
    if (existsSync(mediaDir)) {
      renameSync(mediaDir, mediaDir + suffix);
      movedAside.push(mediaDir + suffix);
    }

    const partial = join(dataDir, `.restore-${process.pid}.sqlite`);
    rmSync(partial, { force: true });
    await source.backup(partial, { progress: () => 0x7fffffff });
    const copy = new BetterSqlite3(partial);
    let count = 0;
    try {
      mkdirSync(mediaDir, { recursive: true, mode: PRIVATE_DIR });
      for (const row of copy.prepare('SELECT path, bytes FROM tourdesk_backup_media').iterate() as Iterable<{ path: string; bytes: Buffer }>) {
        const target = resolve(mediaDir, row.path);
        if (!target.startsWith(mediaDir + sep)) throw new BackupError(`The backup names a media file outside the media folder: ${row.path}`);
        mkdirSync(dirname(target), { recursive: true, mode: PRIVATE_DIR });
        writeFileSync(target, row.bytes, { mode: PRIVATE_FILE });
        count++;
      }
      copy.exec('DROP TABLE tourdesk_backup_media; DROP TABLE tourdesk_backup_info;');
      // The next open takes a new incarnation: the peers hold what this instance gave out after the backup (main/sync/incarnation.ts).
      markRestored(copy, (options.now ?? new Date()).getTime());
      copy.exec('VACUUM;');
      copy.pragma('journal_mode = WAL');
    } finally {
      copy.close();
    }
    renameSync(partial, dbFile);
    makeDataFolderPrivate(dataDir);
    makeTreePrivate(mediaDir);
    return { movedAside, mediaFiles: count };
  } finally {
    source.close();
  }
}
