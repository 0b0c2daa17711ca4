import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/connection';
import { fixedQuery } from '../../db/queries/compiled';
import { inWriteTransaction } from '../../db/transaction';

/**
 * Compiled queries of a write group run their prepared statement on the connection the group holds
 * (db/heldConnection.ts), without Kysely's executor; everywhere else they go through Kysely, which
 * waits for the connection, so nothing outside a write reads what it has not committed.
 */
let dir: string;
let handle: DbHandle;

const valueOf = fixedQuery((db, name: string) => db.selectFrom('sequences').select('value').where('name', '=', name));
const bump = fixedQuery((db, name: string) => db.updateTable('sequences').set((eb) => ({ value: eb('value', '+', 1) })).where('name', '=', name));

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tourdesk-held-'));
  handle = await openDatabase(join(dir, 'held.sqlite'), { migrate: true });
  handle.sqlite.prepare("INSERT INTO sequences (name, value) VALUES ('held-test', 10)").run();
});
afterEach(async () => {
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('compiled queries and the connection a write group holds', () => {
  it('run on the held connection inside a write without Kysely, and through Kysely outside one', async () => {
    const inside = await inWriteTransaction(handle.db, async (conn) => {
      const executor = vi.spyOn(conn, 'executeQuery');
      await bump(conn, 'held-test');
      const rows = await valueOf(conn, 'held-test');
      expect(executor).not.toHaveBeenCalled();
      return rows;
    });
    // The write's own statements saw its update before it committed.
    expect(inside).toEqual([{ value: 11 }]);
    const executor = vi.spyOn(handle.db, 'executeQuery');
    expect(await valueOf(handle.db, 'held-test')).toEqual([{ value: 11 }]);
    expect(executor).toHaveBeenCalledTimes(1);
  });

  it('make a read outside the write wait for its commit, never answering from the open transaction', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let updated!: () => void;
    const wrote = new Promise<void>((resolve) => (updated = resolve));
    const writing = inWriteTransaction(handle.db, async (conn) => {
      await bump(conn, 'held-test');
      updated();
      await gate; // held open on purpose: a write in the field never awaits anything but its statements
    });
    await wrote;
    let seen: { value: number }[] | undefined;
    const reading = valueOf(handle.db, 'held-test').then((rows) => (seen = rows));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(seen).toBeUndefined();
    release();
    await writing;
    await reading;
    expect(seen).toEqual([{ value: 11 }]);
  });
});
