import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/connection';
import type { Database } from '../../db/schema';
import { inWriteTransaction, type BeforeCommit } from '../../db/transaction';

/**
 * Group commit (db/transaction.ts): writes waiting together share one COMMIT, each in its own
 * savepoint. Writes started in the same tick are waiting together when the group starts, so each
 * test here starts its writes at once and checks what each caller got and what the file kept.
 */
let dir: string;
let handle: DbHandle;
/** A second connection to the file: it sees only what is committed. */
let other: BetterSqlite3.Database;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tourdesk-group-'));
  handle = await openDatabase(join(dir, 'group.sqlite'));
  handle.sqlite.exec(`
    CREATE TABLE parents (id INTEGER PRIMARY KEY) STRICT;
    CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL, parent_id INTEGER REFERENCES parents(id)) STRICT;
    CREATE TABLE folds (note_count INTEGER NOT NULL) STRICT;
    INSERT INTO parents VALUES (1);
  `);
  other = new BetterSqlite3(join(dir, 'group.sqlite'));
  // A group stops taking writes after GROUP_MAX_MS of work: on a loaded machine a cold first write
  // (the statement prepared, the code not yet optimized) can take that long and leave the next
  // write to a group of its own. A rolled-back write warms the path the tests' writes take.
  await inWriteTransaction(handle.db, (conn) => insertNote(conn, 0), { dryRun: true });
});
afterEach(async () => {
  other.close();
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

const insertNote = async (conn: Kysely<Database>, id: number, parentId: number | null = null): Promise<void> => void await sql`INSERT INTO notes (id, text, parent_id) VALUES (${id}, ${`note ${id}`}, ${parentId})`.execute(conn);
const committedNotes = () => (other.prepare('SELECT id FROM notes ORDER BY id').pluck().all() as number[]);
const write = <T>(work: (conn: Kysely<Database>) => Promise<T>, dryRun = false) => inWriteTransaction(handle.db, work, { dryRun });
const settled = (promises: Promise<unknown>[]) => Promise.allSettled(promises);

describe('group commit on SQLite', () => {
  it('commits writes that wait together under one COMMIT, none visible to another connection before it', async () => {
    const seenByOther: number[][] = [];
    const results = await Promise.all([
      write(async (conn) => (await insertNote(conn, 1), 'first')),
      write(async (conn) => {
        await insertNote(conn, 2);
        seenByOther.push(committedNotes());
        return 'second';
      }),
    ]);
    expect(results).toEqual(['first', 'second']);
    // While the second ran, the first was written but not committed: they shared the COMMIT.
    expect(seenByOther).toEqual([[]]);
    expect(committedNotes()).toEqual([1, 2]);
  });

  it('takes into the group a write queued in the next check phase (a request read in the poll after the first one)', async () => {
    const seenByOther: number[][] = [];
    const first = write(async (conn) => (await insertNote(conn, 1), 'first'));
    const second = new Promise<string>((resolve, reject) => {
      // The first write's request was answered its observation in this check phase; the next poll's
      // request reaches its write in the check phase after it.
      setImmediate(() => {
        write(async (conn) => {
          await insertNote(conn, 2);
          seenByOther.push(committedNotes());
          return 'second';
        }).then(resolve, reject);
      });
    });
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
    expect(seenByOther).toEqual([[]]);
    expect(committedNotes()).toEqual([1, 2]);
  });

  it('rolls back only the write that throws; the others of its group commit and are visible', async () => {
    const outcomes = await settled([
      write((conn) => insertNote(conn, 1)),
      write(async (conn) => {
        await insertNote(conn, 2);
        throw new Error('refused');
      }),
      write((conn) => insertNote(conn, 3)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('refused'));
    expect(committedNotes()).toEqual([1, 3]);
  });

  it('rolls back a group\'s first write alone when it throws (it runs without a savepoint), and commits the writes after it', async () => {
    const outcomes = await settled([
      write(async (conn) => {
        await insertNote(conn, 1);
        throw new Error('refused');
      }),
      write((conn) => insertNote(conn, 2)),
      write((conn) => insertNote(conn, 3)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(committedNotes()).toEqual([2, 3]);
  });

  it('rejects every write of a group whose COMMIT fails (a deferred foreign key left dangling) and keeps nothing of it', async () => {
    const outcomes = await settled([
      write((conn) => insertNote(conn, 1)),
      write(async (conn) => {
        await sql`PRAGMA defer_foreign_keys = ON`.execute(conn);
        await insertNote(conn, 2, 99);
      }),
      // Deferring ends the group: this one commits in the next.
      write((conn) => insertNote(conn, 3)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBe((outcomes[0] as PromiseRejectedResult).reason);
    expect(committedNotes()).toEqual([3]);
    expect(handle.sqlite.inTransaction).toBe(false);
  });

  it('rejects the whole group when a write ends the transaction itself (a trigger that rolls back), and goes on with the next', async () => {
    handle.sqlite.exec("CREATE TRIGGER notes_no_13 BEFORE INSERT ON notes WHEN NEW.id = 13 BEGIN SELECT RAISE(ROLLBACK, 'no 13'); END");
    const outcomes = await settled([write((conn) => insertNote(conn, 1)), write((conn) => insertNote(conn, 13))]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/no 13/);
    expect(committedNotes()).toEqual([]);
    await write((conn) => insertNote(conn, 2));
    expect(committedNotes()).toEqual([2]);
  });

  it('rolls back a dry run inside a group and still answers what it saw', async () => {
    const results = await Promise.all([
      write((conn) => insertNote(conn, 1)),
      write(async (conn) => {
        await insertNote(conn, 2);
        return (await sql<{ n: number }>`SELECT count(*) AS n FROM notes`.execute(conn)).rows[0].n;
      }, true),
      write((conn) => insertNote(conn, 3)),
    ]);
    expect(results[1]).toBe(2);
    expect(committedNotes()).toEqual([1, 3]);
  });

  it("runs a write's beforeCommit once inside its savepoint: a write whose beforeCommit throws is rolled back alone", async () => {
    const fold: BeforeCommit = async (conn) => {
      const { n, last } = (await sql<{ n: number; last: number }>`SELECT count(*) AS n, max(id) AS last FROM notes`.execute(conn)).rows[0];
      if (last === 2) throw new Error('fold refused');
      await sql`INSERT INTO folds VALUES (${n})`.execute(conn);
    };
    const folded = (note: number) => inWriteTransaction(handle.db, (conn) => insertNote(conn, note), { beforeCommit: fold });
    const outcomes = await settled([folded(1), folded(2), folded(3)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(committedNotes()).toEqual([1, 3]);
    // Each write's hook saw the rows of the writes before it in the group and its own, and no rolled-back one.
    expect(other.prepare('SELECT note_count FROM folds ORDER BY rowid').pluck().all()).toEqual([1, 2]);
  });

  it('settles a write only after its COMMIT: a caller that reads on another connection once it resolves finds its row', async () => {
    const seen = await Promise.all([1, 2, 3, 4].map((id) => write((conn) => insertNote(conn, id)).then(() => committedNotes().includes(id))));
    expect(seen).toEqual([true, true, true, true]);
  });
});
