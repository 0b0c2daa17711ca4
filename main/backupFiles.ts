import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { AUTO_PREFIX, BACKUP_FOLDER, backupFolder, createBackup, oneBackupAtATime, stamp } from './backups';
import type { BackupFile, CreatedBackup } from './contract/settings';

/**
 * The backup folder's files as the API offers them: listed, made on request, downloaded. Only files
 * named like a backup TourDesk writes there are offered, by their name alone, so no request can name
 * a path (no folder, no `..`) or any other file of the data folder.
 */
const BACKUP_NAME = /^tourdesk-[A-Za-z0-9-]+\.sqlite$/;

export const downloadPathOf = (name: string) => `/v1/system/backups/${encodeURIComponent(name)}`;

function fileEntry(folder: string, name: string): BackupFile {
  const stat = statSync(join(folder, name));
  return { name, time: stat.mtime.toISOString(), bytes: stat.size, automatic: name.startsWith(AUTO_PREFIX), downloadPath: downloadPathOf(name) };
}

/** Every backup in the data folder's backup folder, newest first. */
export function backupFiles(dataDir: string): BackupFile[] {
  const folder = join(dataDir, BACKUP_FOLDER);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => BACKUP_NAME.test(name))
    .map((name) => fileEntry(folder, name))
    .sort((a, b) => b.time.localeCompare(a.time) || b.name.localeCompare(a.name));
}

/** A new backup's name: its time, and a number when one of that second exists already. */
function freshName(folder: string, now: Date): string {
  const base = `tourdesk-${stamp(now)}`;
  let name = `${base}.sqlite`;
  for (let n = 2; existsSync(join(folder, name)); n++) name = `${base}-${n}.sqlite`;
  return name;
}

/**
 * Backs the data folder up now into its backup folder: the same consistent copy `tourdesk backup`
 * and the daily one make. Undefined while another backup of the folder is being made.
 */
export async function backUpNow(sqlite: BetterSqlite3.Database, dataDir: string): Promise<CreatedBackup | undefined> {
  return oneBackupAtATime(dataDir, async () => {
    const folder = backupFolder(dataDir);
    const record = await createBackup({ sqlite, dataDir, target: join(folder, freshName(folder, new Date())) });
    const name = basename(record.file);
    return { name, time: record.time, bytes: record.bytes, automatic: false, downloadPath: downloadPathOf(name), mediaFiles: record.mediaFiles };
  });
}

/** The bytes of the backup of that name in the backup folder; undefined for any name not listed there. */
export function backupFileBytes(dataDir: string, name: string): Buffer | undefined {
  if (!BACKUP_NAME.test(name)) return undefined;
  const folder = join(dataDir, BACKUP_FOLDER);
  if (!existsSync(folder) || !readdirSync(folder).includes(name)) return undefined;
  return readFileSync(join(folder, name));
}
