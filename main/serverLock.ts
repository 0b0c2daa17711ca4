import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tryLockFile } from '../db/fileLock';
import { PRIVATE_DIR, PRIVATE_FILE } from './dataFolder';

/**
 * One server per data folder: `tourdesk serve` and the desktop app each run the daily backup and
 * the sync loop, so a second one on a folder in use is refused at start, naming the one running.
 * The other commands (backup, sync, peer, keys, …) take no lock and work beside it.
 *
 * The lock is one the operating system holds for the server's lifetime (db/fileLock.ts): a server
 * that died leaves nothing that blocks the next start, and a reused process id cannot fool it.
 * Beside it, `server.json` says who holds it, for the refusal's message only; it is never what
 * decides whether the folder is in use.
 */
export const SERVER_LOCK_FILE = 'server.lock';
export const SERVER_INFO_FILE = 'server.json';

export type ServerKind = 'serve' | 'desktop';

export interface ServerInfo {
  pid: number;
  kind: ServerKind;
  /** ISO time the server claimed the folder. */
  since: string;
  /** Where it listens (http://127.0.0.1:8080); null while it starts. */
  address: string | null;
}

export interface ServerLock {
  /** Records the address the server listens on, for the message a second server gets. */
  listening(address: string): void;
  /** Frees the folder for the next server (ending the process frees it too). */
  release(): void;
}

export class DataFolderInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: ServerInfo | null,
  ) {
    super(inUseMessage(dataDir, holder));
  }
}

/** Claims `dataDir` for this process's server, or throws DataFolderInUseError naming the server that has it. */
export function claimServerLock(dataDir: string, kind: ServerKind, now: Date = new Date()): ServerLock {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR });
  const lockFile = join(dataDir, SERVER_LOCK_FILE);
  const held = tryLockFile(lockFile);
  if (!held) throw new DataFolderInUseError(dataDir, runningServer(dataDir));
  if (process.platform !== 'win32') chmodSync(lockFile, PRIVATE_FILE); // as the rest of the folder (main/dataFolder.ts)
  const info: ServerInfo = { pid: process.pid, kind, since: now.toISOString(), address: null };
  writeInfo(dataDir, info);
  return {
    listening: (address) => writeInfo(dataDir, { ...info, address }),
    release: () => {
      // The note goes first, while the folder is still ours: it never describes a server that has gone.
      rmSync(join(dataDir, SERVER_INFO_FILE), { force: true });
      held.release();
    },
  };
}

/**
 * What `server.json` says of the server holding the folder, or null when it says nothing
 * trustworthy: absent, unreadable, or written by a process that is gone (the holder has only just
 * claimed the folder and not yet written its own note over a dead server's).
 */
export function runningServer(dataDir: string, isAlive: (pid: number) => boolean = processIsAlive): ServerInfo | null {
  let info: Partial<ServerInfo>;
  try {
    info = JSON.parse(readFileSync(join(dataDir, SERVER_INFO_FILE), 'utf8')) as Partial<ServerInfo>;
  } catch {
    return null;
  }
  if (!Number.isInteger(info.pid) || (info.kind !== 'serve' && info.kind !== 'desktop') || typeof info.since !== 'string') return null;
  if (!isAlive(info.pid!)) return null;
  return { pid: info.pid!, kind: info.kind, since: info.since, address: typeof info.address === 'string' ? info.address : null };
}

/** The refusal: who has the folder, where and since when, and what to do. */
export function inUseMessage(dataDir: string, holder: ServerInfo | null): string {
  const alternatives =
    'or give this one another data folder (--data-dir DIR or TOURDESK_DATA_DIR). ' +
    '`tourdesk backup`, `sync`, `peer`, `keys` and `company` work beside the running server.';
  if (!holder) return `The data folder ${dataDir} is in use by another TourDesk server (starting up). One server runs per data folder: use that one, stop it first, ${alternatives}`;
  const who = holder.kind === 'serve' ? '`tourdesk serve`' : 'the TourDesk desktop app';
  const where = holder.address ? `listening on ${holder.address}` : 'starting up';
  const stop = holder.kind === 'serve' ? `stop it first (Ctrl+C in its terminal, or end process ${holder.pid})` : 'quit the desktop app first';
  return `The data folder ${dataDir} is in use by ${who} (pid ${holder.pid}), ${where}, since ${holder.since}. One server runs per data folder: use that one, ${stop}, ${alternatives}`;
}

/** Written whole then renamed into place, so a reader never sees half a note. */
function writeInfo(dataDir: string, info: ServerInfo): void {
  const partial = join(dataDir, `${SERVER_INFO_FILE}.${process.pid}.tmp`);
  writeFileSync(partial, `${JSON.stringify(info)}\n`, { mode: PRIVATE_FILE });
  renameSync(partial, join(dataDir, SERVER_INFO_FILE));
}

/** Signal 0 checks without signalling: ESRCH means no such process; EPERM means it exists under another user. */
function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}
