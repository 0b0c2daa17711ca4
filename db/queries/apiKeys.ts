import type { Insertable, Kysely } from 'kysely';
import type { ApiKeysTable, Database, ResellersTable } from '../schema';
import { fixedQuery } from './compiled';

type Db = Kysely<Database>;
type Role = ApiKeysTable['role'];

/** Every API request verifies its key: compiled once. */
const keyByHash = fixedQuery((db, keyHash: string) => db.selectFrom('api_keys').select(['id', 'role', 'reseller_id', 'name', 'revoked_at']).where('key_hash', '=', keyHash));

/** The key with this hash (revoked or not), or undefined. */
export async function findApiKeyByHash(db: Db, keyHash: string): Promise<Pick<ApiKeysTable, 'id' | 'role' | 'reseller_id' | 'name' | 'revoked_at'> | undefined> {
  const [row] = await keyByHash(db, keyHash);
  return row;
}

export async function insertApiKey(db: Db, row: Insertable<ApiKeysTable>): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

/** The reseller an agent key is made for. */
export async function insertReseller(db: Db, row: Insertable<ResellersTable>): Promise<void> {
  await db.insertInto('resellers').values(row).execute();
}

export interface ApiKeyRow {
  id: number;
  name: string;
  role: Role;
  key_prefix: string;
  reseller_id: number | null;
  reseller_name: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** Every key with its reseller's name, oldest first. */
export async function listApiKeysWithResellers(db: Db): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .leftJoin('resellers', 'resellers.id', 'api_keys.reseller_id')
    .select(['api_keys.id', 'api_keys.name', 'role', 'key_prefix', 'reseller_id', 'resellers.name as reseller_name', 'api_keys.created_at', 'last_used_at', 'revoked_at'])
    .orderBy('api_keys.created_at')
    .orderBy('api_keys.id')
    .execute();
}

/** Ids of the active keys whose prefix, or id, is this text. */
export async function findActiveKeyIdsMatching(db: Db, idOrPrefix: string, keyHash: string): Promise<number[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select('id')
    .where((eb) => eb.or([eb('key_prefix', '=', idOrPrefix), eb(eb.cast('id', 'text'), '=', idOrPrefix), eb('key_hash', '=', keyHash)]))
    .where('revoked_at', 'is', null)
    .execute();
  return rows.map((row) => row.id);
}

export async function revokeApiKey(db: Db, keyId: number, now: number): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', keyId).execute();
}

/** Active keys, of one role or of all. */
export async function countActiveApiKeys(db: Db, role?: Role): Promise<number> {
  let query = db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).where('revoked_at', 'is', null);
  if (role) query = query.where('role', '=', role);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** When a key was last used (kept coarse by the caller: at most one write a minute per key). */
export async function recordApiKeyUse(db: Db, keyId: number, at: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', keyId).execute();
}
