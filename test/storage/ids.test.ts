import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { base32, sequenceIds } from '../../db/sequences';

function sequences() {
  const db = new BetterSqlite3(':memory:');
  db.exec("CREATE TABLE sequences (name TEXT PRIMARY KEY, value INTEGER NOT NULL); INSERT INTO sequences VALUES ('global', 0), ('order', 0)");
  return db;
}

describe('ids', () => {
  it('puts the instance number in the low three digits, so two instances never collide', () => {
    const a = sequenceIds(sequences(), 1);
    const b = sequenceIds(sequences(), 2);
    const fromA = [a.nextId(), a.nextId(), a.nextId()];
    const fromB = [b.nextId(), b.nextId(), b.nextId()];
    expect(fromA).toEqual([1001, 2001, 3001]);
    expect(fromB).toEqual([1002, 2002, 3002]);
    expect(fromA.filter((id) => fromB.includes(id))).toEqual([]);
  });

  it('counts a write\'s ids in memory and advances the sequence row once, at the end of the write', async () => {
    const db = sequences();
    const ids = sequenceIds(db, 1);
    const stored = () => db.prepare("SELECT value FROM sequences WHERE name = 'global'").pluck().get();
    const taken = await ids.inWrite!(async () => {
      const three = [ids.nextId(), ids.nextId(), ids.nextId()];
      expect(stored()).toBe(0);
      return three;
    });
    expect(taken).toEqual([1001, 2001, 3001]);
    expect(stored()).toBe(3);
    // Outside a write, and in the next write, numbering goes on from the stored value.
    expect(ids.nextId()).toBe(4001);
    expect(await ids.inWrite!(async () => ids.nextId())).toBe(5001);
    expect(stored()).toBe(5);
  });

  it('stores nothing for a write that throws (its transaction rolls back the rows that used the ids)', async () => {
    const db = sequences();
    const ids = sequenceIds(db, 1);
    await expect(
      ids.inWrite!(async () => {
        ids.nextId();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(db.prepare("SELECT value FROM sequences WHERE name = 'global'").pluck().get()).toBe(0);
    expect(await ids.inWrite!(async () => ids.nextId())).toBe(1001);
  });

  it('refuses an instance number outside 1..999', () => {
    expect(() => sequenceIds(sequences(), 0)).toThrow();
    expect(() => sequenceIds(sequences(), 1000)).toThrow();
  });

  it('makes tokens from injected randomness in Crockford base-32', () => {
    const ids = sequenceIds(sequences(), 1, (n) => new Uint8Array(n).fill(255));
    expect(ids.token(5)).toBe('ZZZZZZZZ');
    expect(base32(new Uint8Array([0, 0, 0, 0, 0]))).toBe('00000000');
    expect(sequenceIds(sequences(), 1).token(10)).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
  });
});
