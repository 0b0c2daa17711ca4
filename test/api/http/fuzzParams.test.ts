import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { eachOperation, operationsOf, pathFor, requiredQueryFor, RUNS, SEED, sendAndCheck, type Operation } from '../../fixtures/fuzz';
import { createFixtures } from '../../fixtures/fuzzFixtures';

/**
 * Every operation in the OpenAPI document, with garbage in its path and query parameters: unknown
 * and non-numeric ids, very long strings, encoded slashes and dots, control and odd unicode
 * characters. The answer is a 4xx under the envelope and nothing changes; never a 5xx.
 */
let t: TestApp;
let operations: Operation[];
let fixtures: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  operations = await operationsOf(t);
  fixtures = await createFixtures(t);
}, 60_000);
afterAll(() => t.close());

/** Raw URL text (already percent-encoded) that names nothing this API holds. */
const GARBAGE = [
  '999999999',
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x1F',
  '9007199254740993',
  '99999999999999999999999',
  'abc',
  'NaN',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'x'.repeat(400),
  'x'.repeat(499),
  'x'.repeat(600),
  '%2F',
  'a%2Fb',
  '%2F..%2F..%2Fetc%2Fpasswd',
  '%5C',
  '%00',
  '%0D%0AX-Injected%3A%201',
  '%E2%80%AE',
  '%F0%9F%9A%8C',
  '%EF%BB%BF',
  '%C0%AF',
  '%ED%A0%80',
  '%25',
  '%20',
  '%27%20OR%201%3D1%20--',
  '2030-13-45%2099%3A99%3A99',
];
const garbage = fc.oneof(
  { arbitrary: fc.constantFrom(...GARBAGE), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }).filter((s) => !/^\.+$/.test(s)).map(encodeURIComponent), weight: 1 },
);

const label = (op: Operation) => `${op.method} ${op.path}`;
const pathParams = (op: Operation) => op.params.filter((p) => p.in === 'path').map((p) => p.name);
const queryParams = (op: Operation) => op.params.filter((p) => p.in === 'query').map((p) => p.name);

describe('every operation with path parameters', () => {
  it('answers garbage in any path parameter with a 4xx envelope and changes nothing', async () => {
    const withParams = operations.filter((op) => pathParams(op).length > 0);
    expect(withParams.length).toBeGreaterThanOrEqual(30);
    await eachOperation(withParams, label, async (op) => {
      const query = requiredQueryFor(op, fixtures);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...pathParams(op)), garbage, async (name, raw) => {
          const url = pathFor(op, fixtures, { name, raw }) + (query.length ? `?${query.join('&')}` : '');
          const res = await sendAndCheck(t, op.method, url, op.body ? '{}' : undefined, `${label(op)} with ${name}=${raw.slice(0, 80)}`);
          expect(res.status, `${label(op)} with ${name}=${raw.slice(0, 80)}: ${JSON.stringify(res.body).slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        }),
        { seed: SEED, numRuns: RUNS, includeErrorInReport: true },
      );
    });
  }, 60_000 + RUNS * 4_000);
});

describe('every operation', () => {
  it('answers garbage in any query parameter, or unknown hostile ones, without a 5xx; a refusal is a 4xx envelope that changes nothing', async () => {
    await eachOperation(operations, label, async (op) => {
      const names = [...queryParams(op), '__proto__', 'constructor', '__proto__[polluted]', 'toString'];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...names), garbage, fc.boolean(), async (name, raw, repeated) => {
          const query = [...requiredQueryFor(op, fixtures, name), `${name}=${raw}`, ...(repeated ? [`${name}=${raw}`] : [])];
          const url = `${pathFor(op, fixtures)}?${query.join('&')}`;
          const res = await sendAndCheck(t, op.method, url, op.body ? '{}' : undefined, `${label(op)} with ?${name}=${raw.slice(0, 80)}${repeated ? ' (twice)' : ''}`);
          // Writes named by their query (manifest check-in, booking cancel) must refuse garbage, not act on it.
          if (op.method !== 'GET' && queryParams(op).includes(name)) expect(res.status, `${label(op)} ?${name}=${raw.slice(0, 80)}: ${JSON.stringify(res.body).slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        }),
        { seed: SEED, numRuns: RUNS, includeErrorInReport: true },
      );
    });
  }, 60_000 + RUNS * 4_000);
});
