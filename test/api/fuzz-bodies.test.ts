import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../fixtures/app';
import { createFixtures, eachOperation, examplesFor, mutantOf, operationsOf, pathFor, requiredQueryFor, RUNS, SEED, sendAndCheck, type Operation } from '../fixtures/fuzz';

/**
 * Every operation with a JSON body, from the OpenAPI document (a new endpoint joins by itself):
 * schema-shaped bodies with one hostile change each, sent with a supplier key on real fixtures.
 * A refusal is a 4xx under the envelope that changed nothing; a mutant that happens to be valid
 * may succeed; nothing ever answers 5xx or leaks a stack trace or SQL.
 */
let t: TestApp;
let operations: Operation[];

beforeAll(async () => {
  t = await startTestApp();
  operations = (await operationsOf(t)).filter((op) => op.body);
}, 60_000);
afterAll(() => t.close());

describe('every operation with a JSON body', () => {
  it('is found in the API description', () => {
    expect(operations.length).toBeGreaterThanOrEqual(20);
    expect(operations.map((op) => `${op.method} ${op.path}`)).toContain('POST /v1/bookings');
  });

  it('refuses hostile bodies with a 4xx envelope, changes nothing, and never answers 5xx', async () => {
    await eachOperation(operations, (op) => `${op.method} ${op.path}`, async (op) => {
      // Fresh fixtures per operation: a mutant that happened to be valid may have changed the last ones.
      const fixtures = await createFixtures(t);
      const query = requiredQueryFor(op, fixtures);
      const url = pathFor(op, fixtures) + (query.length ? `?${query.join('&')}` : '');
      await fc.assert(
        fc.asyncProperty(mutantOf(op.body!, fixtures, examplesFor(op, fixtures)), async (mutant) => {
          await sendAndCheck(t, op.method, url, mutant.json, `${op.method} ${op.path} (${mutant.how}) ${mutant.json.slice(0, 200)}`);
        }),
        { seed: SEED, numRuns: RUNS, includeErrorInReport: true },
      );
    });
  }, 60_000 + RUNS * 4_000);
});
