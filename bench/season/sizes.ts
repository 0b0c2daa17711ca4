import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';

/** An instance's database as an operator would find it on a quiet day: checkpointed and vacuumed (a copy, the live file untouched). */
export function vacuumedCopy(sqlite: BetterSqlite3.Database, to: string): number {
  sqlite.prepare('VACUUM INTO ?').run(to);
  return statSync(to).size;
}

/**
 * The same rows without any sync data: a copy with every sync table (`sync_*`: ops, merge states,
 * vectors, captures, peers) and the capture triggers dropped, vacuumed. The journal (`op_log`, who
 * did what, never sent to peers) stays: an instance without sync keeps it too. `copy` loses them
 * (it is a scratch copy); the answer is the size of `to`.
 */
export function withoutSyncData(copy: string, to: string): number {
  return withSyncTablesOnly(copy, to, []);
}

/**
 * A floor: the same rows with only `keep` of the sync tables beside them (e.g. `sync_rows`, the merge
 * states), the rest dropped as `withoutSyncData` drops them, vacuumed. Against the bare file it shows
 * what that one part of sync costs on its own.
 */
export function withSyncTablesOnly(copy: string, to: string, keep: readonly string[]): number {
  const db = new Database(copy);
  try {
    const drop = db.prepare("SELECT type, name FROM sqlite_master WHERE (type = 'table' AND name LIKE 'sync\\_%' ESCAPE '\\') OR (type = 'trigger' AND sql LIKE '%sync\\_%' ESCAPE '\\') OR (type = 'view' AND name LIKE 'sync\\_%' ESCAPE '\\')").all() as { type: string; name: string }[];
    db.pragma('foreign_keys = OFF');
    for (const { name } of drop.filter((d) => d.type === 'trigger')) db.exec(`DROP TRIGGER IF EXISTS "${name}"`);
    // A view of sync tables (sync_row_names) goes with them: it would name tables no longer there.
    for (const { name } of drop.filter((d) => d.type === 'view')) db.exec(`DROP VIEW IF EXISTS "${name}"`);
    for (const { name } of drop.filter((d) => d.type === 'table' && !keep.includes(d.name))) db.exec(`DROP TABLE IF EXISTS "${name}"`);
    db.prepare('VACUUM INTO ?').run(to);
  } finally {
    db.close();
  }
  return statSync(to).size;
}

/** How many rows `table` holds in a (copied) database file. */
export function rowsIn(file: string, table: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

export interface OpLogShare {
  ops: number;
  /** Ops that inserted a row whose row has not changed since: their change is the row's content, a second time. */
  unchangedInserts: number;
  /** Bytes of those inserts' changes (value arrays as stored), the most storing an insert by reference could save. */
  insertChangeBytes: number;
  /** Bytes of every op row's change. */
  changeBytes: number;
}

/**
 * What the op log holds, and how much of it is insert content a row still holds: an insert op
 * whose entity has no later op and no merge state of its own (its state is still the insert).
 */
/** A later op of the same row (sync_op_rows keys rows by numbers, migration 20261206_31). */
const SAME_ROW = 'later.entity = o.entity AND later.k1 = o.k1 AND later.k2 = o.k2 AND later.key = o.key AND later.arrival > o.arrival';

export function opLogShare(sqlite: BetterSqlite3.Database): OpLogShare {
  const row = sqlite
    .prepare(
      `SELECT count(*) AS ops,
              coalesce(sum(length(change_json)), 0) AS changeBytes,
              coalesce(sum(CASE WHEN kind = 'insert' AND NOT EXISTS (SELECT 1 FROM sync_op_rows later WHERE ${SAME_ROW}) THEN 1 ELSE 0 END), 0) AS unchangedInserts,
              coalesce(sum(CASE WHEN kind = 'insert' AND NOT EXISTS (SELECT 1 FROM sync_op_rows later WHERE ${SAME_ROW}) THEN length(change_json) ELSE 0 END), 0) AS insertChangeBytes
         FROM sync_op_rows o`,
    )
    .get() as OpLogShare;
  return row;
}

/** The sync tables (with their indexes) of a vacuumed copy, largest first, in bytes: where the distance from the bare file is. */
export function syncTableSizes(copy: string): { table: string; bytes: number }[] {
  const db = new Database(copy, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT coalesce(m.tbl_name, s.name) AS "table", sum(s.pgsize) AS bytes FROM dbstat s LEFT JOIN sqlite_master m ON m.name = s.name
          WHERE substr(coalesce(m.tbl_name, s.name), 1, 5) = 'sync_' GROUP BY 1 ORDER BY 2 DESC`,
      )
      .all() as { table: string; bytes: number }[];
  } finally {
    db.close();
  }
}

/** "12.3 MB" */
export const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
