import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/connection';
import { BACKSTOP_CHECKPOINT_PAGES } from '../../db/checkpointer';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const aFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-checkpoint-'));
  dirs.push(dir);
  return join(dir, 'db.sqlite');
};

/** Waits for `done` by polling (the background thread's timer decides when), failing after a generous bound. */
async function eventually(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(done()).toBe(true);
}

describe('WAL checkpoints off the request path', () => {
  it('folds committed pages into the database file from a background connection, the serving one checkpointing only past its backstop', async () => {
    const file = aFile();
    const handle = await openDatabase(file, { checkpointInBackground: true });
    expect(handle.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_CHECKPOINT_PAGES);
    handle.sqlite.exec('CREATE TABLE pages (body BLOB NOT NULL)');
    const before = statSync(file).size;
    const insert = handle.sqlite.prepare('INSERT INTO pages VALUES (randomblob(4000))');
    for (let i = 0; i < 50; i++) insert.run();
    // Only a checkpoint writes the database file itself: the serving connection never ran one.
    await eventually(() => statSync(file).size >= before + 50 * 4000);
    await handle.close();
    expect(statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
  });

  it('keeps SQLite\'s own checkpoint for a connection that does not serve (a CLI command, a test)', async () => {
    const handle = await openDatabase(aFile());
    expect(handle.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await handle.close();
  });
});
