import { sql, type Kysely } from 'kysely';

/**
 * Issue 19: api_keys.key_prefix held the key's own first 7 characters, a visible part of a secret
 * (all of a short TOURDESK_API_KEY's start). Every key's prefix becomes the first 8 hex digits of its
 * hash, `sha256:1a2b3c4d`, which names the key in `keys list`/`keys revoke` and tells nothing of it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`UPDATE api_keys SET key_prefix = 'sha256:' || substr(key_hash, 1, 8)`).execute(db);
}
