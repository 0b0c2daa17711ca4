import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimServerLock, DataFolderInUseError, inUseMessage, runningServer, SERVER_INFO_FILE, SERVER_LOCK_FILE, type ServerInfo } from '../../main/serverLock';

// main/serverLock.ts: one server per data folder, decided by a lock the operating system holds for
// the server's process (db/fileLock.ts); server.json only names the holder in the refusal.

const root = resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-serverlock-'));
  dirs.push(dir);
  return dir;
};
const holders: ChildProcess[] = [];
afterEach(() => {
  holders.splice(0).forEach((child) => child.kill('SIGKILL')); // one a failed test left holding
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const refusalOf = (claim: () => unknown): DataFolderInUseError => {
  try {
    claim();
  } catch (error) {
    if (error instanceof DataFolderInUseError) return error;
    throw error;
  }
  throw new Error('the claim was not refused');
};

/** Another process that claims `dir` as a server listening on `address`, and holds it until killed. */
function holderProcess(dir: string, address: string): Promise<{ pid: number; exited: Promise<unknown> }> {
  const script = `
    import { claimServerLock } from './main/serverLock.ts';
    claimServerLock(${JSON.stringify(dir)}, 'serve').listening(${JSON.stringify(address)});
    console.log('HOLDING');
    setInterval(() => {}, 1 << 30);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  holders.push(child);
  const exited = new Promise((res) => child.once('exit', res));
  let out = '';
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((res, rej) => {
    child.stdout.on('data', (c: Buffer) => {
      if (c.toString().includes('HOLDING')) res({ pid: child.pid!, exited });
    });
    void exited.then(() => rej(new Error(`the holder exited:\n${out}`)));
  });
}

describe('one server per data folder', () => {
  it('refuses a second claim on the folder, naming the server that has it; another folder is free; release frees it', () => {
    const dir = dataDir();
    const first = claimServerLock(dir, 'serve', new Date('2030-03-05T08:00:00Z'));
    expect(runningServer(dir)).toEqual({ pid: process.pid, kind: 'serve', since: '2030-03-05T08:00:00.000Z', address: null });
    expect(refusalOf(() => claimServerLock(dir, 'desktop')).message).toContain(`\`tourdesk serve\` (pid ${process.pid}), starting up, since 2030-03-05T08:00:00.000Z`);
    first.listening('http://127.0.0.1:8080');
    const refusal = refusalOf(() => claimServerLock(dir, 'serve'));
    expect(refusal.holder).toEqual({ pid: process.pid, kind: 'serve', since: '2030-03-05T08:00:00.000Z', address: 'http://127.0.0.1:8080' });
    expect(refusal.message).toContain(`The data folder ${dir} is in use by \`tourdesk serve\` (pid ${process.pid}), listening on http://127.0.0.1:8080`);
    expect(refusal.message).toMatch(/stop it first \(Ctrl\+C in its terminal, or end process \d+\), or give this one another data folder \(--data-dir DIR or TOURDESK_DATA_DIR\)/);

    const other = claimServerLock(dataDir(), 'serve');
    other.release();

    first.release();
    expect(existsSync(join(dir, SERVER_INFO_FILE))).toBe(false);
    // The lock file stays (deleting it would let two servers lock two files of one name).
    expect(existsSync(join(dir, SERVER_LOCK_FILE))).toBe(true);
    const next = claimServerLock(dir, 'desktop');
    expect(runningServer(dir)?.kind).toBe('desktop');
    next.release();
  });

  it('is made in a private folder: the folder 0700, the lock and the note 0600', () => {
    if (process.platform === 'win32') return; // the user profile's ACLs apply there (main/dataFolder.ts)
    const dir = join(dataDir(), 'new');
    const lock = claimServerLock(dir, 'serve');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, SERVER_LOCK_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, SERVER_INFO_FILE)).mode & 0o777).toBe(0o600);
    lock.release();
  });

  it('frees the folder when its server is killed outright, and the next server replaces the dead one’s note', async () => {
    const dir = dataDir();
    const holder = await holderProcess(dir, 'http://127.0.0.1:4321');
    const refusal = refusalOf(() => claimServerLock(dir, 'serve'));
    expect(refusal.holder).toMatchObject({ pid: holder.pid, kind: 'serve', address: 'http://127.0.0.1:4321' });
    process.kill(holder.pid, 'SIGKILL');
    await holder.exited;
    // Its note is still there, naming a process that is gone: it says nothing, and blocks nothing.
    expect(JSON.parse(readFileSync(join(dir, SERVER_INFO_FILE), 'utf8')).pid).toBe(holder.pid);
    expect(runningServer(dir)).toBeNull();
    expect(existsSync(join(dir, `${SERVER_LOCK_FILE}-journal`))).toBe(false); // nothing for SQLite to roll back either
    const next = claimServerLock(dir, 'serve');
    expect(runningServer(dir)?.pid).toBe(process.pid);
    next.release();
  }, 60_000);

  it('never takes a note for the lock: a note naming a live process (a reused pid) does not block a start', () => {
    const dir = dataDir();
    const note: ServerInfo = { pid: process.pid, kind: 'serve', since: '2030-03-05T08:00:00.000Z', address: 'http://127.0.0.1:8080' };
    writeFileSync(join(dir, SERVER_INFO_FILE), JSON.stringify(note));
    const lock = claimServerLock(dir, 'serve', new Date('2030-03-06T09:00:00Z'));
    expect(runningServer(dir)).toEqual({ pid: process.pid, kind: 'serve', since: '2030-03-06T09:00:00.000Z', address: null });
    lock.release();
  });
});

describe('what a refused server is told', () => {
  const dir = '/srv/tourdesk';
  const since = '2030-03-05T08:00:00.000Z';

  it('reads only a note whose process is alive and whose fields make sense', () => {
    const folder = dataDir();
    const write = (text: string) => writeFileSync(join(folder, SERVER_INFO_FILE), text);
    const alive = () => true;
    expect(runningServer(folder, alive)).toBeNull(); // no note
    write('{"pid": 12');
    expect(runningServer(folder, alive)).toBeNull(); // half a note
    write(JSON.stringify({ pid: 'twelve', kind: 'serve', since }));
    expect(runningServer(folder, alive)).toBeNull();
    write(JSON.stringify({ pid: 12, kind: 'daemon', since }));
    expect(runningServer(folder, alive)).toBeNull();
    write(JSON.stringify({ pid: 12, kind: 'desktop', since, address: 'http://127.0.0.1:9' }));
    expect(runningServer(folder, alive)).toEqual({ pid: 12, kind: 'desktop', since, address: 'http://127.0.0.1:9' });
    expect(runningServer(folder, () => false)).toBeNull();
  });

  it('names the desktop app and says to quit it', () => {
    const message = inUseMessage(dir, { pid: 12, kind: 'desktop', since, address: 'http://127.0.0.1:9' });
    expect(message).toContain(`in use by the TourDesk desktop app (pid 12), listening on http://127.0.0.1:9, since ${since}`);
    expect(message).toContain('quit the desktop app first');
    expect(message).toContain('`tourdesk backup`, `sync`, `peer`, `keys` and `company` work beside the running server');
  });

  it('says a server is starting when none has written its note yet', () => {
    expect(inUseMessage(dir, null)).toMatch(/^The data folder \/srv\/tourdesk is in use by another TourDesk server \(starting up\)\. One server runs per data folder: use that one, stop it first, or give this one another data folder/);
  });
});
