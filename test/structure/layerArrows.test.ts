import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

/**
 * The layer arrows of docs/architecture.md, as the lint rules enforce them (eslint.config.js): each
 * forbidden import is linted as a virtual file in the layer it would break, and must be refused; the
 * allowed ones must pass.
 */
const eslint = new ESLint({ cwd: process.cwd() });
const LAYER_RULES = new Set(['layers/arrows', 'no-restricted-syntax']);

async function arrowErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath });
  // A probe that does not parse would pass as allowed: its parse error counts as a refusal.
  return result.messages.filter((m) => m.fatal || (m.ruleId !== null && LAYER_RULES.has(m.ruleId))).map((m) => m.message);
}

const forbidden: [string, string, string][] = [
  // The domain holds rules: no SQL, no HTTP, no Electron, nothing of the layers above it.
  ['the domain importing `sql` from Kysely', 'main/domain/bookings/fixture.ts', "import { sql } from 'kysely'; const x = 1;"],
  ['the domain building SQL with a `sql` template', 'main/domain/bookings/fixture.ts', "declare const sql: any; const x = sql`select 1`;"],
  ['the domain calling sql.raw', 'main/domain/bookings/fixture.ts', "declare const sql: any; const x = sql.raw('select 1');"],
  ['the domain building a query', 'main/domain/bookings/fixture.ts', "declare const db: any; const x = db.selectFrom('bookings').selectAll();"],
  ['the domain writing through the query builder', 'main/domain/bookings/fixture.ts', "declare const db: any; const x = db.updateTable('bookings').set({});"],
  ['the domain importing the HTTP layer', 'main/domain/bookings/fixture.ts', "import { x } from '../../api/route';"],
  ['the domain importing a route', 'main/domain/bookings/fixture.ts', "import { x } from '../../api/routes/bookings';"],
  ['the domain importing an HTTP type', 'main/domain/bookings/fixture.ts', "import type { x } from '../../api/route';"],
  ['the domain importing main/sync', 'main/domain/checkin/fixture.ts', "import { x } from '../../sync/oversell';"],
  ['the domain importing a main/sync type', 'main/domain/checkin/fixture.ts', "import type { x } from '../../sync/replica';"],
  ['the domain using better-sqlite3', 'main/domain/checkin/fixture.ts', "import x from 'better-sqlite3';"],
  ['the domain importing fastify', 'main/domain/fixture.ts', "import x from 'fastify';"],
  ['the domain importing a fastify plugin', 'main/domain/fixture.ts', "import x from '@fastify/static';"],
  ['the domain importing node:http', 'main/domain/fixture.ts', "import { x } from 'node:http';"],
  ['the domain importing fastify with import()', 'main/domain/fixture.ts', "const x = await import('fastify');"],
  ['the domain importing node:http with import()', 'main/domain/fixture.ts', "const x = await import('node:http');"],
  ['the domain importing a computed module', 'main/domain/fixture.ts', "const name = 'fastify'; const x = await import(name);"],
  ['the domain requiring fastify through createRequire', 'main/domain/fixture.ts', "import { createRequire } from 'node:module'; const load = createRequire(import.meta.url); const x = load('fastify');"],
  ['the domain requiring node:http through createRequire', 'main/domain/fixture.ts', "import { createRequire } from 'node:module'; const x = createRequire(import.meta.url)('node:http');"],
  ['the domain re-exporting the HTTP layer', 'main/domain/fixture.ts', "export { x } from '../api/envelope'; const x = 1;"],
  ['the domain importing electron', 'main/domain/platform/fixture.ts', "import x from 'electron';"],
  ['the domain importing electron/main', 'main/domain/platform/fixture.ts', "import { x } from 'electron/main';"],
  // Electron belongs to main/index.ts, main/electron/ and the preload only.
  ['the engine importing electron/main', 'main/engine.ts', "import { x } from 'electron/main';"],
  ['the sync module importing electron', 'main/sync/fixture.ts', "import x from 'electron';"],
  ['the HTTP layer importing electron', 'main/api/fixture.ts', "import { x } from 'electron';"],
  ['the CLI importing electron with import()', 'main/cli.ts', "const x = await import('electron');"],
  ['db importing electron', 'db/fixture.ts', "import { x } from 'electron/main';"],
  ['a test importing electron', 'test/unit/fixture.test.ts', "import { x } from 'electron';"],
  // The HTTP layer reaches storage only through the domain.
  ['the HTTP layer importing db queries', 'main/api/routes/fixture.ts', "import { x } from '../../../db/queries/bookings';"],
  ['the HTTP layer importing PostgreSQL queries', 'main/api/fixture.ts', "import { x } from '../../db/postgres/sequences';"],
  ['the HTTP layer using better-sqlite3', 'main/api/fixture.ts', "import x from 'better-sqlite3';"],
  ['the HTTP layer building SQL', 'main/api/routes/fixture.ts', "import { sql } from 'kysely'; const x = sql`select 1`;"],
  // Storage knows nothing of the layers above it.
  ['db importing the domain', 'db/queries/fixture.ts', "import { x } from '../../main/domain/statuses';"],
  ['db importing a domain type', 'db/queries/fixture.ts', "import type { x } from '../../main/domain/context';"],
  ['db importing the HTTP layer', 'db/queries/fixture.ts', "import { x } from '../../main/api/envelope';"],
  ['db importing main/sync', 'db/queries/fixture.ts', "import { x } from '../../main/sync/hlc';"],
  ['db importing main/sync with import()', 'db/fixture.ts', "const x = await import('../main/sync/hlc');"],
  ['db importing fastify', 'db/fixture.ts', "import x from 'fastify';"],
  ['db requiring node:http', 'db/fixture.ts', "import { createRequire } from 'node:module'; const x = createRequire(import.meta.url)('node:http');"],
  // The contract is shapes only.
  ['the contract importing the domain', 'main/contract/fixture.ts', "import { x } from '../domain/money';"],
  ['the contract importing db', 'main/contract/fixture.ts', "import { x } from '../../db/schema';"],
  ['the contract importing the HTTP layer', 'main/contract/fixture.ts', "import { x } from '../api/route';"],
  ['the contract importing kysely', 'main/contract/fixture.ts', "import type { x } from 'kysely';"],
  // The renderer is an API client: types from main/contract/ and nothing else of main/ or db/.
  ['the renderer importing contract code (not a type)', 'renderer/src/fixture.ts', "import { x } from '../../main/contract/bookings';"],
  ['the renderer importing contract code with import()', 'renderer/src/fixture.ts', "const x = await import('../../main/contract/bookings');"],
  ['the renderer importing a domain type', 'renderer/src/fixture.ts', "import type { x } from '../../main/domain/checkin/manifests';"],
  ['the renderer importing domain code', 'renderer/src/screens/fixture.tsx', "import { x } from '../../../main/domain/checkin/scanRules';"],
  ['the renderer importing domain code beside the format module', 'renderer/src/lib/fixture.ts', "import { x } from '../../../main/domain/money';"],
  ['the renderer importing db', 'renderer/src/fixture.ts', "import type { x } from '../../db/schema';"],
  ['the renderer importing electron', 'renderer/src/fixture.ts', "import x from 'electron';"],
];

const allowed: [string, string, string][] = [
  ['the domain importing the contract', 'main/domain/bookings/fixture.ts', "import type { x } from '../../contract/bookings';"],
  ['the domain importing db queries', 'main/domain/bookings/fixture.ts', "import { x } from '../../../db/queries/seats';"],
  ['the domain using a Kysely type', 'main/domain/bookings/fixture.ts', "import type { Kysely as x } from 'kysely';"],
  ['the domain passing a handle to db queries', 'main/domain/bookings/fixture.ts', "import { seatsOf } from '../../../db/queries/seats'; declare const db: any; const x = seatsOf(db, 'S1');"],
  ['the sync module importing the domain', 'main/sync/fixture.ts', "import { x } from '../domain/errors';"],
  ['db importing the contract enums', 'db/queries/fixture.ts', "import { x } from '../../main/contract/enums';"],
  ['db using the drivers and Kysely', 'db/fixture.ts', "import Database from 'better-sqlite3'; import { sql } from 'kysely'; const x = [Database, sql`select 1`];"],
  ['the contract importing zod', 'main/contract/fixture.ts', "import { x } from 'zod';"],
  ['the renderer importing a contract type', 'renderer/src/fixture.ts', "import type { x } from '../../main/contract/bookings';"],
  ['the renderer importing contract types inline', 'renderer/src/fixture.ts', "import { type x } from '../../main/contract/bookings';"],
  ['the renderer importing the shared format module', 'renderer/src/lib/fixture.ts', "import { formatsFor as x } from '../../../main/domain/format';"],
  ['the renderer importing its own code with import()', 'renderer/src/components/fixture.tsx', "const x = await import('../scanner/decoder');"],
  ['the API importing the domain', 'main/api/routes/fixture.ts', "import { x } from '../../domain/bookings';"],
  ['the API importing fastify', 'main/api/fixture.ts', "import x from 'fastify';"],
  ['the Electron entry importing electron', 'main/index.ts', "import { x } from 'electron';"],
  ['the Electron shell importing electron/main', 'main/electron/fixture.ts', "import { x } from 'electron/main';"],
  ['the preload importing electron', 'preload/index.ts', "import { x } from 'electron';"],
  ['a package named like electron', 'scripts/fixture.mjs', "import x from 'electron-vite';"],
];

describe('layer arrows (npm run lint)', () => {
  it.each(forbidden)('refuses %s', async (_name, filePath, code) => {
    expect(await arrowErrors(filePath, code)).not.toEqual([]);
  });

  it.each(allowed)('allows %s', async (_name, filePath, code) => {
    expect(await arrowErrors(filePath, code)).toEqual([]);
  });
});
