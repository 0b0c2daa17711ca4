import type { ApiKeyAnswer } from '../../contract/apiKeys';
import { createHash } from 'node:crypto';
import type { EngineContext, Actor } from '../context';
import { SYSTEM_ACTOR } from '../context';
import { DomainError } from '../errors';
import { findResellerById } from '../../../db/queries/resellers';
import { areaChangeTokenOf, type ChangeObservation } from '../../../db/queries/changes';
import {
  countActiveApiKeys,
  findActiveKeyIdsMatching,
  findApiKeyByHash,
  insertApiKey,
  insertReseller,
  listApiKeysWithResellers,
  revokeApiKey,
} from '../../../db/queries/apiKeys';

/** `sync`: a peer's key (issue 16); it may only exchange ops and read sync status. */
export type Role = 'supplier' | 'agent' | 'checkin' | 'sync';
export const ROLES: Role[] = ['supplier', 'agent', 'checkin', 'sync'];

/** A key as lists show it: the contract's answer shape (never the key itself). */
export type ApiKeyInfo = ApiKeyAnswer;

/** Keys are random and long, so a fast hash is enough; only the hash and a short prefix are stored. */
export const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/**
 * What names a key in `keys list` and `keys revoke`: the start of its hash, never of the key (a
 * TOURDESK_API_KEY chosen by a person may be short enough that 7 characters give most of it away).
 */
export const keyPrefix = (plaintext: string) => `sha256:${hashKey(plaintext).slice(0, 8)}`;

function slug(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'agent';
}

/** How many verified keys the cache holds (a desk has a handful; a flood of distinct keys only misses). */
const VERIFIED_KEYS_CACHED = 1000;

export function createApiKeys(ctx: EngineContext) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  // Every call checks its key, so valid keys are remembered by hash while no key changed: a key
  // created, renamed or revoked here, by `tourdesk keys revoke` in another process or by sync
  // moves the keys' change token and empties the cache. Wrong keys are never remembered.
  const changes = areaChangeTokenOf(ctx.handle);
  let verified: { token: string; actors: Map<string, Actor> } = { token: '', actors: new Map() };

  async function insertKey(role: Role, name: string, plaintext: string, resellerId: number | null, actor: Actor): Promise<number> {
    return ctx.write(actor, async (tx) => {
      const id = ctx.ids.nextId();
      await insertApiKey(tx.db, { id, name, role, key_hash: hashKey(plaintext), key_prefix: keyPrefix(plaintext), reseller_id: resellerId, created_at: tx.now, last_used_at: null, revoked_at: null });
      await tx.journal('api_key', id, 'create', { name, role, resellerId });
      return id;
    });
  }

  return {
    /** Creates a key and returns its only plaintext copy. Agent keys belong to a reseller (made from the name if not given). */
    async create(input: { role: Role; name: string; resellerId?: number | null }, actor: Actor = SYSTEM_ACTOR): Promise<{ id: number; key: string }> {
      if (!ROLES.includes(input.role)) throw new DomainError('VALIDATION_ERROR', `role must be one of ${ROLES.join(', ')}`);
      if (!input.name.trim()) throw new DomainError('VALIDATION_ERROR', 'A key needs a name');
      let resellerId = input.resellerId ?? null;
      if (resellerId !== null) {
        // Only an agent key belongs to a reseller, and only to one that exists (the row is a foreign key).
        if (input.role !== 'agent') throw new DomainError('VALIDATION_ERROR', `resellerId is for agent keys only, not ${input.role} keys`);
        if (!(await findResellerById(ctx.db, resellerId))) throw new DomainError('VALIDATION_ERROR', `No reseller with id ${resellerId}`);
      }
      if (input.role === 'agent' && resellerId === null) {
        resellerId = await ctx.write(actor, async (tx) => {
          const id = ctx.ids.nextId();
          const alias = `${slug(input.name)}-${id}`;
          await insertReseller(tx.db, { id, name: input.name.trim(), alias, rate_id: null, created_at: tx.now });
          await tx.journal('reseller', id, 'create', { name: input.name, alias });
          return id;
        });
      }
      const key = `td_${ctx.ids.token(24).toLowerCase()}`;
      const id = await insertKey(input.role, input.name.trim(), key, resellerId, actor);
      return { id, key };
    },

    /** Registers a key chosen outside (TOURDESK_API_KEY); idempotent. */
    async ensure(plaintext: string, role: Role, name: string): Promise<number> {
      if (plaintext.length < 16) throw new DomainError('VALIDATION_ERROR', 'An API key must be at least 16 characters long');
      const existing = await findApiKeyByHash(ctx.db, hashKey(plaintext));
      if (existing) return existing.id;
      return insertKey(role, name, plaintext, null, SYSTEM_ACTOR);
    },

    /**
     * The actor of a key verified before and still valid, answered at once (no promise: every API
     * call checks a key, almost always a remembered one); undefined when it must be read (verify).
     */
    verifyKnown(plaintext: string, seen?: ChangeObservation): Actor | undefined {
      const token = changes('keys', seen);
      return verified.token === token ? verified.actors.get(hashKey(plaintext)) : undefined;
    },

    /** `seen`: the caller's observation of other processes' commits (a request's, taken as it starts). */
    async verify(plaintext: string, seen?: ChangeObservation): Promise<Actor | null> {
      const hash = hashKey(plaintext);
      const token = changes('keys', seen);
      if (verified.token !== token) verified = { token, actors: new Map() };
      const known = verified.actors.get(hash);
      if (known) return known;
      const row = await findApiKeyByHash(ctx.db, hash);
      if (!row || row.revoked_at !== null) return null;
      const actor: Actor = Object.freeze({ keyId: row.id, role: row.role, resellerId: row.reseller_id, name: row.name });
      // Kept under the token read before the row: a change made while it was read empties the cache.
      if (verified.token === token && verified.actors.size < VERIFIED_KEYS_CACHED) verified.actors.set(hash, actor);
      return actor;
    },

    async list(): Promise<ApiKeyInfo[]> {
      const rows = await listApiKeysWithResellers(ctx.db);
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        role: r.role,
        prefix: r.key_prefix,
        resellerId: r.reseller_id,
        resellerName: r.reseller_name,
        createdAt: iso(r.created_at)!,
        lastUsedAt: iso(r.last_used_at),
        revoked: r.revoked_at !== null,
      }));
    },

    /** Revokes one active key named by its id, its listed prefix (sha256:…) or the key itself; answers its id. */
    async revoke(idOrPrefix: string, actor: Actor = SYSTEM_ACTOR): Promise<number> {
      return ctx.write(actor, async (tx) => {
        // A key id, a prefix as listed, or the key itself (matched by its hash), which no message repeats.
        const ids = await findActiveKeyIdsMatching(tx.db, idOrPrefix, hashKey(idOrPrefix));
        const named = /^\d+$/.test(idOrPrefix) || idOrPrefix.startsWith('sha256:') ? idOrPrefix : 'the key given';
        if (ids.length === 0) throw new DomainError('NOT_FOUND', `No active key matches ${named}`);
        if (ids.length > 1) throw new DomainError('CONFLICT', `${named} matches ${ids.length} keys; use the key id`);
        await revokeApiKey(tx.db, ids[0], tx.now);
        await tx.journal('api_key', ids[0], 'revoke', {});
        return ids[0];
      });
    },

    async count(role?: Role): Promise<number> {
      return countActiveApiKeys(ctx.db, role);
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeys>;
