import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteSyncStore, SyncStores } from '../../syncStore';
import { sqliteErasure } from './erasure';
import { sqliteFold } from './fold';
import { sqliteInstance } from './instance';
import { sqliteHeld, sqliteOps } from './ops';
import { sqliteRowKeys } from './rowKeys';
import { sqliteRowState } from './rowState';
import { sqliteRows } from './rows';
import { sqliteShapes } from './shapes';
import { sqliteSnapshotJoin } from './snapshotJoin';

/**
 * The sync store on SQLite: its statements prepared once on the shared connection, because sync
 * runs them per op (100,000 ops catching up) inside the caller's IMMEDIATE transaction. Table and
 * column names in the dynamic row statements come only from SQLite's own table_info, never from an op.
 */
export function sqliteSyncStore(sqlite: BetterSqlite3.Database): SqliteSyncStore {
  const shapes = sqliteShapes(sqlite);
  const keys = sqliteRowKeys(sqlite);
  const { plans, rows } = sqliteRows(sqlite);
  const store = {
    ...sqliteInstance(sqlite),
    beginWork() {
      shapes.forgetShapesAddedHere();
      keys.forgetAddedHere();
    },
    ...sqliteOps(sqlite, shapes, plans, keys),
    ...sqliteHeld(sqlite),
    ...sqliteRowState(sqlite, shapes, keys),
    ...sqliteErasure(sqlite),
    ...rows,
    ...sqliteSnapshotJoin(sqlite),
  };
  return { ...store, ...sqliteFold(store) };
}

/** SQLite: one connection, so one store, its statements prepared once. */
export function sqliteSyncStores(sqlite: BetterSqlite3.Database): SyncStores {
  const store = sqliteSyncStore(sqlite);
  return { origin: store.instance().origin, at: () => store, outside: store };
}
