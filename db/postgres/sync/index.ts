import type { Kysely } from 'kysely';
import type { DbHandle } from '../../connection';
import type { SyncStore, SyncStores } from '../../syncStore';
import { postgresErasure } from './erasure';
import { postgresFold } from './fold';
import { postgresInstance } from './instance';
import { postgresNewRows } from './newRows';
import { postgresOps } from './ops';
import { postgresQuery, type SharedSyncState } from './query';
import { postgresRowState, type FoldRowStates } from './rowState';
import { postgresRows } from './rows';
import { postgresShapes } from './shapes';
import { postgresSnapshotJoin } from './snapshotJoin';

/**
 * The sync store on the PostgreSQL hub: the same calls as SQLite's (db/syncStore.ts), answering with
 * promises. Every statement runs on the write transaction's connection (`at(conn)`), or on the pool
 * for reads outside one (`outside`).
 */
export function postgresSyncStores(handle: DbHandle): SyncStores {
  const instance = handle.postgres?.syncInstance;
  if (!instance) throw new Error('The PostgreSQL database has no sync_instance yet: open it with migrate first');
  const shared: SharedSyncState = { hubOrigin: instance.hubOrigin, shapeIds: new Map(), shapeColumns: new Map(), tableColumns: new Map() };
  const byConnection = new WeakMap<object, SyncStore>();
  const outside = postgresSyncStore(handle.db, shared);
  return {
    origin: instance.origin,
    at(conn) {
      // One store per transaction's connection: the fold (before commit) sees the shapes its work added.
      let store = byConnection.get(conn as object);
      if (!store) byConnection.set(conn as object, (store = postgresSyncStore(conn as Kysely<any>, shared)));
      return store;
    },
    outside,
  };
}

function postgresSyncStore(conn: Kysely<any>, shared: SharedSyncState): SyncStore {
  const query = postgresQuery(conn);
  const shapes = postgresShapes(query, shared);
  const states: FoldRowStates = { known: null, folding: false };
  const store: SyncStore = {
    ...postgresInstance(query, shared),
    ...postgresFold(query, shared, conn, states),
    ...postgresOps(query, shapes),
    ...postgresRowState(query, shapes, states),
    ...postgresErasure(query),
    ...postgresRows(query, shared),
    ...postgresNewRows(query, shapes, states),
    ...postgresSnapshotJoin(query),
    /** The ops and their states in one statement; the rows one at a time (the hub rarely catches up). */
    async insertNewRows(rows) {
      await store.insertOwnNewRows(rows.map((r) => r.op));
      for (const { op, table, pk } of rows) await store.upsertRow(table, pk, op.change, op.nulls);
    },
  };
  return store;
}
