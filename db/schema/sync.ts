import type { Nullable } from './columns';

/** The sync module's tables (docs/sync.md). */
/** 20261124_80_sync: this data folder's origin, op sequence, clock and hub. */
export interface SyncInstanceTable { id: number; origin: string; last_seq: number; last_hlc: Nullable<string>; hub_origin: Nullable<string> }
/** 20261124_80_sync: row changes recorded by triggers, folded into ops before commit. */
export interface SyncCaptureTable { id: number | undefined; tbl: string; pk: string; old_json: Nullable<string>; new_json: Nullable<string> }
export interface SyncOpsTable {
  arrival: number | undefined;
  origin: string;
  seq: number;
  hlc: string;
  entity: string;
  entity_id: string;
  kind: 'insert' | 'update' | 'delete';
  /** The change without its null columns (20261126_92); those are listed by `null_columns`. */
  change_json: Nullable<string>;
  schema: number;
  /** 20261126_92: the sync_shapes id of the columns the change sets to null; NULL when none are left out. */
  null_columns: Nullable<number>;
  /** 20261128_95: 1 when this op (an insert) is its row's whole merge state, which sync_rows then lacks; NULL otherwise. */
  row_state: Nullable<number>;
  /** 20261128_96: 1 when more ops of the same write follow this one (a page never ends there); NULL on a write's last op. */
  write_continues: Nullable<number>;
  /** 20261129_99: the sync_shapes id of the columns whose values `change_json` holds as an array; NULL: `change_json` is an object. */
  change_shape: Nullable<number>;
}
export interface SyncVectorTable { origin: string; seq: number }
/**
 * 20261126_92_sync_row_stamps: a row's merge state. `shape` names its stamped columns (sync_shapes),
 * `stamps` its distinct stamps (space-separated), `marks` one character per shape column (48 + the
 * index of its stamp), NULL when every column has the one stamp. On SQLite, `stamps` is empty when
 * that one stamp is `born` (a row no one has changed since its insert: most rows, after compaction).
 */
export interface SyncRowsTable { entity: string; entity_id: string; shape: number; stamps: string; marks: Nullable<string>; born: Nullable<string>; deleted: Nullable<string>; erased: Nullable<string> }
/**
 * 20261205_11_sync_row_keys: SQLite's sync_rows is keyed by numbers (db/queries/sync/rowKeys.ts;
 * SyncRowsTable above is PostgreSQL's layout, which Kysely queries use); this view gives its states
 * by entity name and key text, with the whole `born` stamp, for readers that are not per op.
 */
export interface SyncRowNamesView { entity: string; entity_id: string; shape: number; stamps: string; marks: Nullable<string>; born: Nullable<string>; deleted: Nullable<string>; erased: Nullable<string> }
/** 20261205_11_sync_row_keys (SQLite): a number per synced entity, and how many integer columns its key has (0: not integers). */
export interface SyncEntitiesTable { no: number | undefined; name: string; key_ints: number }
/** 20261205_11_sync_row_keys (SQLite): a number per origin that stamped an insert this file holds a state of. */
export interface SyncOriginsTable { no: number | undefined; origin: string }
/** 20261126_92_sync_row_stamps: each distinct comma-separated list of stamped columns, once. */
export interface SyncShapesTable { id: number | undefined; columns: string }
export interface SyncHeldTable { origin: string; seq: number; op_json: string; reason: string }
export interface SyncPeersTable {
  url: string;
  /** The peer's API key, sealed with the data folder's secret (main/sync/secret.ts); never printed. */
  key_sealed: string;
  peer_origin: Nullable<string>;
  peer_instance_no: Nullable<number>;
  added_at: number;
  last_success_at: Nullable<number>;
  last_attempt_at: Nullable<number>;
  last_error: Nullable<string>;
  skew_ms: Nullable<number>;
  ops_to_send: Nullable<number>;
  ops_to_receive: Nullable<number>;
  /** 20261130_07: the peer's version vector as last heard (JSON); what waits for it is counted from it. */
  peer_vector: Nullable<string>;
}
export interface SyncInstancesTable {
  origin: string;
  instance_no: number;
  /** 20261130_05: when it last exchanged with this instance (ms). */
  last_seen_at: Nullable<number>;
  /** 20261201_03: when an operator had it forgotten (not listed; its number stays taken); its next exchange clears it. */
  forgotten_at: Nullable<number>;
  /** 20261202_31: the version vector it last said it holds (JSON), what compaction keeps for it. */
  vector_json: Nullable<string>;
}
/** 20261202_31: per origin, the highest seq whose op compaction removed here (a peer below it rejoins by snapshot). */
export interface SyncCompactedTable { origin: string; seq: number }
/** 20261202_43: an earlier origin of an instance and the origin it is now. */
export interface SyncIncarnationsTable { origin: string; successor: string; at: number }
/** 20261201_01: the last refusal this instance gave each caller's exchange (its reason code and message). */
export interface SyncRefusalsTable { origin: string; instance_no: number; refused_at: number; reason: string; message: string }
export interface SyncAcknowledgementsTable { session_id: number; booking_set: string; acknowledged_at: number; acknowledged_by: Nullable<string> }
