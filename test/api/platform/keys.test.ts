import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../../db/migrations';
import { hashKey } from '../../../main/domain/platform/apiKeys';
import { startTestApp, type TestApp } from '../../fixtures/app';

/** Issue 19: a key's stored prefix tells nothing of the key (TOURDESK_API_KEY may be short and chosen by a person). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
const storedPrefix = (id: number) => (t.sql.prepare('SELECT key_prefix AS p FROM api_keys WHERE id = ?').get(id) as { p: string }).p;

describe('API key prefixes', () => {
  it('stores a prefix of the hash of a TOURDESK_API_KEY key, never its first characters, and lists and revokes by it', async () => {
    const chosen = 'desk-password-2030';
    const id = await t.engine.apiKeys.ensure(chosen, 'supplier', 'From TOURDESK_API_KEY');
    expect(storedPrefix(id)).toBe(`sha256:${hashKey(chosen).slice(0, 8)}`);
    expect(storedPrefix(id)).not.toContain(chosen.slice(0, 4));
    const listed = (await t.engine.apiKeys.list()).find((k) => k.id === id)!;
    expect(listed.prefix).toBe(storedPrefix(id));
    expect((await t.call('GET', '/v1/products', { key: chosen })).status).toBe(200);
    await t.engine.apiKeys.revoke(listed.prefix);
    expect((await t.call('GET', '/v1/products', { key: chosen })).status).toBe(401);
  });

  it('stores hash prefixes for generated keys too, and revokes a key named by itself', async () => {
    const { id, key } = await t.engine.apiKeys.create({ role: 'checkin', name: 'Pier tablet' });
    expect(storedPrefix(id)).toMatch(/^sha256:[0-9a-f]{8}$/);
    expect(storedPrefix(id)).not.toContain(key.slice(3, 7));
    await t.engine.apiKeys.revoke(key);
    expect((await t.engine.apiKeys.list()).find((k) => k.id === id)!.revoked).toBe(true);
  });

  it('rewrites the plaintext prefixes a data folder already holds (migration 20261125_91)', async () => {
    const { id, key } = await t.engine.apiKeys.create({ role: 'checkin', name: 'Old key' });
    t.sql.prepare('UPDATE api_keys SET key_prefix = ? WHERE id = ?').run(key.slice(0, 7), id);
    await migrations.find((m) => m.name === '20261125_91_key_prefix_hash')!.up(t.engine.ctx.db as never);
    expect(storedPrefix(id)).toBe(`sha256:${hashKey(key).slice(0, 8)}`);
    const plaintextLeft = t.sql.prepare("SELECT count(*) AS n FROM api_keys WHERE key_prefix NOT LIKE 'sha256:%'").get() as { n: number };
    expect(plaintextLeft.n).toBe(0);
  });
});
