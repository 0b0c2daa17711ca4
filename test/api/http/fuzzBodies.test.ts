import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { eachOperation, expectNoLeak, fingerprint, mutantOf, operationsOf, pathFor, requiredQueryFor, RUNS, SEED, sendAndCheck, sendRaw, type Operation } from '../../fixtures/fuzz';
import { createFixtures, examplesFor } from '../../fixtures/fuzzFixtures';

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

  it('answers a body in another media type, or a malformed form, with a 4xx envelope on every operation that reads a body', async () => {
    // Every operation with a JSON body, and every POST (the image upload reads a form or raw image, not JSON).
    const writes = (await operationsOf(t)).filter((op) => op.body || op.method === 'POST');
    expect(writes.map((op) => `${op.method} ${op.path}`)).toContain('POST /v1/products/{productCode}/images');
    const fixtures = await createFixtures(t);
    const part = (headers: string, content: string) => `--xx\r\n${headers}\r\n\r\n${content}`;
    const bodies = fc.constantFrom<[string, string]>(
      ['multipart/form-data', 'abc'],
      ['multipart/form-data; boundary=xx', part('Content-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png', 'cut off')],
      ['multipart/form-data; boundary=xx', `${part('Content-Disposition: form-data; name="__proto__"', 'x')}\r\n--xx--\r\n`],
      ['multipart/form-data; boundary=xx', '\u0000\u0001garbage'],
      ['text/plain', '{"name":"x"}'],
      ['application/x-www-form-urlencoded', 'name=x&__proto__=1'],
      ['application/octet-stream', '\u0000\u0001'],
      ['image/png', 'not a png'],
      ['application/json', ''],
    );
    await eachOperation(writes, (op) => `${op.method} ${op.path}`, async (op) => {
      const query = requiredQueryFor(op, fixtures);
      const url = pathFor(op, fixtures) + (query.length ? `?${query.join('&')}` : '');
      await fc.assert(
        fc.asyncProperty(bodies, async ([contentType, payload]) => {
          // An empty JSON body on an operation without a body, or whose body is optional, is no body (docs/api.md, Compatibility): it may succeed.
          if (!op.bodyRequired && contentType === 'application/json' && payload === '') return;
          const label = `${op.method} ${op.path} with ${contentType}: ${payload.slice(0, 40)}`;
          const before = fingerprint(t.engine.ctx.handle.sqlite);
          const res = await sendRaw(t, op.method, url, contentType, payload);
          expectNoLeak(res, label);
          expect(res.status, label).toBeGreaterThanOrEqual(400);
          expect(fingerprint(t.engine.ctx.handle.sqlite), label).toEqual(before);
        }),
        { seed: SEED, numRuns: 10, includeErrorInReport: true },
      );
    });
  }, 60_000 + RUNS * 4_000);
});
