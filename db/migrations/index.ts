import type { Kysely } from 'kysely';
import * as m20261123_01 from './20261123_01_initial';
import * as m20261123_30 from './20261123_30_commerce';
import * as m20261123_40 from './20261123_40_bookings';
import * as m20261123_50 from './20261123_50_manifest';
import * as m20261123_60 from './20261123_60_perf';
import * as m20261123_70 from './20261123_70_checkin';
import * as m20261124_80 from './20261124_80_sync';
import * as m20261125_90 from './20261125_90_agent_payments';
import * as m20261125_91 from './20261125_91_key_prefix_hash';
import * as m20261126_92 from './20261126_92_sync_row_stamps';
import * as m20261126_93 from './20261126_93_perf_indexes';
import * as m20261127_94 from './20261127_94_sync_capture_postgres';
import * as m20261128_95 from './20261128_95_sync_state_in_op';
import * as m20261128_96 from './20261128_96_sync_write_boundary';
import * as m20261129_97 from './20261129_97_sync_booking_customers';
import * as m20261129_99 from './20261129_99_sync_ops_compact';
import * as m20261130_01 from './20261130_01_booking_status_index';
import * as m20261130_03 from './20261130_03_session_seats_held';
import * as m20261130_05 from './20261130_05_sync_seen';
import * as m20261130_07 from './20261130_07_sync_peer_vector';
import * as m20261201_01 from './20261201_01_sync_refusals';
import * as m20261201_03 from './20261201_03_sync_forget';
import * as m20261202_31 from './20261202_31_sync_compaction';
import * as m20261202_37 from './20261202_37_product_image_hash';
import * as m20261202_41 from './20261202_41_checkin_signed_by';
import * as m20261202_43 from './20261202_43_sync_incarnations';
import * as m20261202_45 from './20261202_45_payment_taken_by';
import * as m20261203_41 from './20261203_41_notified_tables';
import * as m20261203_43 from './20261203_43_write_turn';
import * as m20261205_11 from './20261205_11_sync_row_keys';
import * as m20261205_21 from './20261205_21_arrival_floor';
import * as m20261206_21 from './20261206_21_hub_origins';
import * as m20261206_31 from './20261206_31_sync_op_keys';
import * as m20261207_21 from './20261207_21_write_origins';
import * as pg from '../postgres/migrations';

export interface Migration {
  name: string;
  /** The migration as written (SQLite DDL); on PostgreSQL its raw statements are translated (db/postgres/ddl.ts). */
  up(db: Kysely<unknown>): Promise<void>;
  /** PostgreSQL's own version, where translating `up` cannot express it (db/postgres/migrations.ts). */
  postgres?(db: Kysely<unknown>): Promise<void>;
}

/**
 * Every migration, in order. A landed migration is frozen: change the schema by appending a new one.
 * The database's `user_version` is the number of migrations applied.
 */
export const migrations: Migration[] = [
  { name: '20261123_01_initial', up: m20261123_01.up, postgres: pg.initial },
  { name: '20261123_30_commerce', up: m20261123_30.up },
  { name: '20261123_40_bookings', up: m20261123_40.up },
  { name: '20261123_50_manifest', up: m20261123_50.up },
  { name: '20261123_60_perf', up: m20261123_60.up },
  { name: '20261123_70_checkin', up: m20261123_70.up },
  { name: '20261124_80_sync', up: m20261124_80.up, postgres: pg.sync },
  { name: '20261125_90_agent_payments', up: m20261125_90.up, postgres: pg.agentPayments },
  { name: '20261125_91_key_prefix_hash', up: m20261125_91.up },
  { name: '20261126_92_sync_row_stamps', up: m20261126_92.up, postgres: pg.syncRowStamps },
  { name: '20261126_93_perf_indexes', up: m20261126_93.up },
  { name: '20261127_94_sync_capture_postgres', up: m20261127_94.up, postgres: pg.syncCapture },
  { name: '20261128_95_sync_state_in_op', up: m20261128_95.up },
  { name: '20261128_96_sync_write_boundary', up: m20261128_96.up },
  { name: '20261129_97_sync_booking_customers', up: m20261129_97.up },
  { name: '20261129_99_sync_ops_compact', up: m20261129_99.up, postgres: m20261129_99.postgres },
  // Landed after 99 (which main had first), so it comes after it and is named to sort after it.
  { name: '20261130_01_booking_status_index', up: m20261130_01.up },
  { name: '20261130_03_session_seats_held', up: m20261130_03.up, postgres: m20261130_03.postgres },
  { name: '20261130_05_sync_seen', up: m20261130_05.up, postgres: m20261130_05.postgres },
  { name: '20261130_07_sync_peer_vector', up: m20261130_07.up, postgres: m20261130_07.postgres },
  { name: '20261201_01_sync_refusals', up: m20261201_01.up },
  { name: '20261201_03_sync_forget', up: m20261201_03.up },
  { name: '20261202_31_sync_compaction', up: m20261202_31.up },
  { name: '20261202_37_product_image_hash', up: m20261202_37.up, postgres: m20261202_37.postgres },
  { name: '20261202_41_checkin_signed_by', up: m20261202_41.up, postgres: m20261202_41.postgres },
  { name: '20261202_43_sync_incarnations', up: m20261202_43.up },
  { name: '20261202_45_payment_taken_by', up: m20261202_45.up, postgres: m20261202_45.postgres },
  { name: '20261203_41_notified_tables', up: m20261203_41.up, postgres: m20261203_41.postgres },
  { name: '20261203_43_write_turn', up: m20261203_43.up, postgres: m20261203_43.postgres },
  { name: '20261205_11_sync_row_keys', up: m20261205_11.up, postgres: m20261205_11.postgres },
  { name: '20261205_21_arrival_floor', up: m20261205_21.up, postgres: m20261205_21.postgres },
  { name: '20261206_21_hub_origins', up: m20261206_21.up, postgres: m20261206_21.postgres },
  { name: '20261206_31_sync_op_keys', up: m20261206_31.up, postgres: m20261206_31.postgres },
  { name: '20261207_21_write_origins', up: m20261207_21.up, postgres: m20261207_21.postgres },
];
