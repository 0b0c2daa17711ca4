import type { Nullable } from './columns';

/** The instance's own tables: settings, id sequences, the op log, the company, resellers and API keys. */
export interface SettingsTable { key: string; value: string }
export interface SequencesTable { name: string; value: number }
export interface OpLogTable {
  seq: number | undefined;
  op_id: string;
  at: number;
  actor: Nullable<string>;
  entity: string;
  entity_id: string;
  action: string;
  payload_json: string;
}
export interface CompaniesTable {
  id: number;
  alias: string;
  company_name: string;
  description: Nullable<string>;
  currency: string;
  timezone: string;
  locale: string;
  email: Nullable<string>;
  phone: Nullable<string>;
  website: Nullable<string>;
  address_line: Nullable<string>;
  address_line2: Nullable<string>;
  city: Nullable<string>;
  state: Nullable<string>;
  post_code: Nullable<string>;
  country_code: Nullable<string>;
  latitude: Nullable<number>;
  longitude: Nullable<number>;
  logo_url: Nullable<string>;
  created_at: number;
  updated_at: number;
}
export interface ResellersTable { id: number; name: string; alias: string; rate_id: Nullable<number>; created_at: number }
export interface ApiKeysTable {
  id: number;
  name: string;
  /** 'sync' since 20261124_80: a peer's key. */
  role: 'supplier' | 'agent' | 'checkin' | 'sync';
  key_hash: string;
  key_prefix: string;
  reseller_id: Nullable<number>;
  created_at: number;
  last_used_at: Nullable<number>;
  revoked_at: Nullable<number>;
}
