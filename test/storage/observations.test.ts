import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/connection';
import { observationsFor, type Observed } from '../../main/api/observations';
import type { ChangeObservation, EngineContext } from '../../main/domain/context';

/**
 * The requests read in one pass of the poll phase share one observation of other processes'
 * commits (main/api/observations.ts), made after the last of them arrived: each is still answered
 * as of an instant inside it.
 */
let dir: string;
let handle: DbHandle;
let other: BetterSqlite3.Database;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tourdesk-observations-'));
  handle = await openDatabase(join(dir, 'o.sqlite'), { migrate: true });
  handle.sqlite.prepare("INSERT INTO sequences (name, value) VALUES ('observed', 1)").run();
  other = new BetterSqlite3(join(dir, 'o.sqlite'));
});
afterEach(async () => {
  other.close();
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

const contextOf = (h: unknown) => ({ handle: h }) as unknown as EngineContext;
/** What the connection's PRAGMA says now: the observation a request made now would hold. */
const versionNow = () => handle.sqlite.pragma('data_version', { simple: true }) as number;

describe('one observation for the requests of one poll phase', () => {
  it('is made after the last of them asked, so a commit between two of them is seen by both', async () => {
    const observe = observationsFor(contextOf(handle));
    const before = versionNow();
    const seen: ChangeObservation[] = [];
    await new Promise<void>((resolve) => {
      observe((failure, s) => {
        expect(failure).toBeUndefined();
        seen.push(s!);
      });
      // Another process commits after the first request arrived, before the second did.
      other.prepare("UPDATE sequences SET value = value + 1 WHERE name = 'observed'").run();
      observe((failure, s) => {
        expect(failure).toBeUndefined();
        seen.push(s!);
        resolve();
      });
    });
    const after = versionNow();
    expect(after).not.toBe(before);
    expect(seen.map((s) => s.dataVersion)).toEqual([after, after]);
    expect(seen[0]).toBe(seen[1]); // one PRAGMA for both
  });

  it('observes again for a request that asks in a later pass', async () => {
    const observe = observationsFor(contextOf(handle));
    const next = () => new Promise<ChangeObservation>((resolve) => observe((_failure, s) => resolve(s!)));
    const first = await next();
    other.prepare("UPDATE sequences SET value = value + 1 WHERE name = 'observed'").run();
    const second = await next();
    expect(second).not.toBe(first);
    expect(second.dataVersion).not.toBe(first.dataVersion);
    expect(second.dataVersion).toBe(versionNow());
  });

  it('hands every waiting request the failure when no observation can be made, and one that throws keeps none waiting', async () => {
    const broken = contextOf({
      dialect: 'sqlite',
      get sqlite(): never {
        throw new Error('The database connection is not open');
      },
    });
    const observe = observationsFor(broken);
    const answers: unknown[] = [];
    await new Promise<void>((resolve) => {
      observe(() => {
        throw new Error('a request that fails on its own');
      });
      observe((failure, s) => {
        answers.push(failure, s);
        resolve();
      });
    });
    expect(String(answers[0])).toMatch(/not open/);
    expect(answers[1]).toBeUndefined();
  });

  it('answers at once on PostgreSQL, whose caches need no observation', () => {
    const observe = observationsFor(contextOf({ dialect: 'postgres' }));
    const calls: Parameters<Observed>[] = [];
    observe((...args) => calls.push(args));
    expect(calls).toEqual([[undefined, undefined]]);
  });
});
