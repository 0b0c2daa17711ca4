import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { cachingStatements } from '../../db/connection';

let sqlite: BetterSqlite3.Database;
afterEach(() => sqlite?.close());

describe("Kysely's statement cache (cachingStatements)", () => {
  it('prepares each SQL text once and hands back the same statement', () => {
    sqlite = new BetterSqlite3(':memory:');
    const db = cachingStatements(sqlite);
    const first = db.prepare('SELECT 1 AS one');
    expect(db.prepare('SELECT 1 AS one')).toBe(first);
    expect(db.prepare('SELECT 2 AS two')).not.toBe(first);
  });

  it('drops the least recently used text when full', () => {
    sqlite = new BetterSqlite3(':memory:');
    const db = cachingStatements(sqlite, 2);
    const a = db.prepare('SELECT 1');
    const b = db.prepare('SELECT 2');
    expect(db.prepare('SELECT 1')).toBe(a); // now SELECT 2 is the oldest
    db.prepare('SELECT 3');
    expect(db.prepare('SELECT 1')).toBe(a);
    expect(db.prepare('SELECT 2')).not.toBe(b);
  });

  it('keeps answering current data after the schema changes under a cached statement', () => {
    sqlite = new BetterSqlite3(':memory:');
    const db = cachingStatements(sqlite);
    sqlite.exec('CREATE TABLE t (a INTEGER)');
    sqlite.exec('INSERT INTO t VALUES (1)');
    expect(db.prepare('SELECT * FROM t').all([])).toEqual([{ a: 1 }]);
    sqlite.exec('ALTER TABLE t ADD COLUMN b TEXT');
    sqlite.exec("INSERT INTO t VALUES (2, 'x')");
    expect(db.prepare('SELECT * FROM t').all([])).toEqual([{ a: 1, b: null }, { a: 2, b: 'x' }]);
  });

  it('reuses a statement that failed (a constraint error does not poison the cache)', () => {
    sqlite = new BetterSqlite3(':memory:');
    const db = cachingStatements(sqlite);
    sqlite.exec('CREATE TABLE t (a INTEGER PRIMARY KEY)');
    const insert = db.prepare('INSERT INTO t (a) VALUES (?)');
    insert.run([1]);
    expect(() => db.prepare('INSERT INTO t (a) VALUES (?)').run([1])).toThrow(/UNIQUE/);
    db.prepare('INSERT INTO t (a) VALUES (?)').run([2]);
    expect(sqlite.prepare('SELECT a FROM t ORDER BY a').all()).toEqual([{ a: 1 }, { a: 2 }]);
  });
});
