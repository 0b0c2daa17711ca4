import type BetterSqlite3 from 'better-sqlite3';
import { JOIN_PROGRESS_KEY, type SqliteSyncStore } from '../../syncStore';

type SqliteSnapshotJoin = Pick<SqliteSyncStore, 'rowsAfter' | 'joinProgress' | 'saveJoinProgress'>;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A snapshot's pages by key on SQLite (serving side) and the join's progress (joining side). */
export function sqliteSnapshotJoin(sqlite: BetterSqlite3.Database): SqliteSnapshotJoin {
  const statements = new Map<string, BetterSqlite3.Statement>();
  const statement = (key: string, build: () => string) => {
    let s = statements.get(key);
    if (!s) statements.set(key, (s = sqlite.prepare(build())));
    return s;
  };
  const read = sqlite.prepare<[string], string>('SELECT value FROM settings WHERE key = ?').pluck();
  const save = sqlite.prepare<[string, string]>('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const clear = sqlite.prepare<[string]>('DELETE FROM settings WHERE key = ?');
  return {
    rowsAfter(table, pk, limit, after) {
      const order = pk.map(ident).join(', ');
      if (!after) return statement(`${table}:first`, () => `SELECT * FROM ${ident(table)} ORDER BY ${order} LIMIT ?`).all(limit) as Record<string, unknown>[];
      // A row value comparison: (a, b) > (?, ?) is the key order ORDER BY a, b walks.
      const text = () => `SELECT * FROM ${ident(table)} WHERE (${order}) > (${pk.map(() => '?').join(', ')}) ORDER BY ${order} LIMIT ?`;
      return statement(`${table}:after`, text).all(...after, limit) as Record<string, unknown>[];
    },
    joinProgress: () => read.get(JOIN_PROGRESS_KEY) ?? null,
    saveJoinProgress: (json) => void (json === null ? clear.run(JOIN_PROGRESS_KEY) : save.run(JOIN_PROGRESS_KEY, json)),
  };
}
