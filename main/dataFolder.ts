import { chmodSync, existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE, KEY_FILE } from './config';

/**
 * The data folder holds bookings, customers' names and phone numbers, and a supplier key: only its
 * owner may read it. Applied on every start, so a folder made by an older build, a restore or a
 * copy with looser modes is tightened whatever existed before.
 */
export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

/** Every directory under `dir` 0700 and every file 0600 (symbolic links are left alone, not followed). */
export function makeTreePrivate(dir: string): void {
  if (!existsSync(dir)) return;
  chmodSync(dir, PRIVATE_DIR);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) makeTreePrivate(path);
    else if (entry.isFile()) chmodSync(path, PRIVATE_FILE);
  }
}

/** The folder 0700; the database, its WAL and shared-memory files, the key file 0600; media and backups 0700/0600. */
export function makeDataFolderPrivate(dataDir: string): void {
  if (process.platform === 'win32' || !existsSync(dataDir)) return; // Windows: the user profile's ACLs apply
  chmodSync(dataDir, PRIVATE_DIR);
  for (const name of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, `${DATABASE_FILE}-journal`, KEY_FILE]) {
    const path = join(dataDir, name);
    if (existsSync(path) && lstatSync(path).isFile()) chmodSync(path, PRIVATE_FILE);
  }
  makeTreePrivate(join(dataDir, 'media'));
  makeTreePrivate(join(dataDir, 'backups'));
}
