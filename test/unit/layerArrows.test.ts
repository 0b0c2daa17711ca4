import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

/**
 * The arrows of ../shared/conventions.md, as the lint rules enforce them: each forbidden import is
 * linted at a file path of the layer it would break, and must fail; its allowed twin must pass.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function importErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath });
  return result.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

const forbidden: [string, string, string][] = [
  ['the domain importing the HTTP layer', 'main/domain/bookings/fixture.ts', "import { x } from '../../api/route';"],
  ['the domain importing a route', 'main/domain/bookings/fixture.ts', "import { x } from '../../api/routes/bookings';"],
  ['the domain using better-sqlite3', 'main/domain/checkin/fixture.ts', "import x from 'better-sqlite3';"],
  ['the domain importing fastify', 'main/domain/fixture.ts', "import x from 'fastify';"],
  ['the domain importing electron', 'main/domain/platform/fixture.ts', "import x from 'electron';"],
  ['db importing the domain', 'db/queries/fixture.ts', "import { x } from '../../main/domain/statuses';"],
  ['db importing the HTTP layer', 'db/queries/fixture.ts', "import { x } from '../../main/api/envelope';"],
  ['the contract importing the domain', 'main/contract/fixture.ts', "import { x } from '../domain/money';"],
  ['the contract importing db', 'main/contract/fixture.ts', "import { x } from '../../db/schema';"],
  ['the contract importing the HTTP layer', 'main/contract/fixture.ts', "import { x } from '../api/route';"],
  ['the renderer importing contract code (not a type)', 'renderer/src/fixture.ts', "import { x } from '../../main/contract/bookings';"],
  ['the renderer importing a domain type', 'renderer/src/fixture.ts', "import type { x } from '../../main/domain/checkin/manifests';"],
  ['the renderer importing db', 'renderer/src/fixture.ts', "import type { x } from '../../db/schema';"],
  ['the renderer importing electron', 'renderer/src/fixture.ts', "import x from 'electron';"],
];

const allowed: [string, string, string][] = [
  ['the domain importing the contract', 'main/domain/bookings/fixture.ts', "import type { x } from '../../contract/bookings';"],
  ['the domain importing db queries', 'main/domain/bookings/fixture.ts', "import { x } from '../../../db/queries/seats';"],
  ['db importing the contract enums', 'db/queries/fixture.ts', "import { x } from '../../main/contract/enums';"],
  ['the contract importing zod', 'main/contract/fixture.ts', "import { x } from 'zod';"],
  ['the renderer importing a contract type', 'renderer/src/fixture.ts', "import type { x } from '../../main/contract/bookings';"],
  ['the API importing the domain', 'main/api/routes/fixture.ts', "import { x } from '../../domain/bookings';"],
];

describe('layer arrows (npm run lint)', () => {
  it.each(forbidden)('refuses %s', async (_name, filePath, code) => {
    expect(await importErrors(filePath, code)).not.toEqual([]);
  });

  it.each(allowed)('allows %s', async (_name, filePath, code) => {
    expect(await importErrors(filePath, code)).toEqual([]);
  });
});
