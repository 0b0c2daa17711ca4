import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../../main/domain/platform/apiKeys';
import { startTestApp, type TestApp } from '../../fixtures/app';

/**
 * Issue 19: every operation × every role, allowed or refused exactly as the table in docs/api.md
 * ("Roles: who may call what") says. The operations come from the route registry (as compat.test.ts
 * takes them), so a new route without a row in the table fails here.
 */
const ROLES = ['supplier', 'agent', 'checkin', 'sync'] as const;
type KeyRole = (typeof ROLES)[number];

interface Row {
  method: string;
  path: string;
  allowed: Record<KeyRole, boolean>;
}

function documentedTable(): Row[] {
  const doc = readFileSync(resolve(__dirname, '../../../docs/api.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Roles: who may call what'));
  const rows: Row[] = [];
  for (const line of section.split('\n')) {
    const match = /^\| (GET|POST|PUT|DELETE) \| `([^`]+)` \| (yes|no) \| (yes|no) \| (yes|no) \| (yes|no) \|$/.exec(line);
    if (!match) continue;
    const [, method, path, ...cells] = match;
    rows.push({ method, path, allowed: Object.fromEntries(ROLES.map((role, i) => [role, cells[i] === 'yes'])) as Record<KeyRole, boolean> });
  }
  return rows;
}

let t: TestApp;
const keys = {} as Record<KeyRole, string>;
beforeAll(async () => {
  t = await startTestApp();
  Object.assign(keys, t.keys);
  // The sync role exists in api_keys and main/api/auth.ts; keys of it are made by the sync work, so the test writes one itself.
  keys.sync = 'td_sync_role_table_test_key_0001';
  t.sql
    .prepare("INSERT INTO api_keys (id, name, role, key_hash, key_prefix, reseller_id, created_at) VALUES (?, 'Test sync', 'sync', ?, ?, NULL, 0)")
    .run(990_001, hashKey(keys.sync), `sha256:${hashKey(keys.sync).slice(0, 8)}`);
});
afterAll(() => t.close());

/** A concrete URL for a registered path: every parameter gets a harmless value (the right is checked before it is read). */
const urlOf = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => (/Id$|^sessionId$/.test(name) ? '999999' : 'NOSUCH'));

describe('roles: every operation × every role, as docs/api.md documents', () => {
  it('documents every registered operation exactly once', () => {
    const registered = t.app.registry.routes.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`).sort();
    const documented = documentedTable().map((r) => `${r.method} ${r.path}`).sort();
    expect(documented).toEqual(registered);
  });

  it('allows or refuses (403 FORBIDDEN) each cell as the table says', async () => {
    const mismatches: string[] = [];
    for (const row of documentedTable()) {
      for (const role of ROLES) {
        const res = await t.call(row.method, urlOf(row.path), { key: keys[role], ...(row.method === 'POST' || row.method === 'PUT' ? { body: {} } : {}) });
        const refused = res.status === 403 && res.body?.requestStatus?.error?.errorCode === 'FORBIDDEN';
        if (res.status === 401) mismatches.push(`${row.method} ${row.path} as ${role}: 401 (the key was not accepted)`);
        else if (refused === row.allowed[role]) mismatches.push(`${row.method} ${row.path} as ${role}: ${refused ? 'refused' : `allowed (${res.status})`}, documented ${row.allowed[role] ? 'yes' : 'no'}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
