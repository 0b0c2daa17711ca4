import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aProduct } from '../../fixtures/builders';
import { SYSTEM_ACTOR } from '../../../main/domain/context';

/**
 * The compatibility contract, table-driven over the OpenAPI document: every list and search
 * endpoint, and every time query parameter, as registered. A new endpoint joins these tables by
 * itself; one whose required parameters have no fixture below fails until it gets one.
 */
let t: TestApp;
let operations: { path: string; params: { name: string; in: string; required: boolean }[] }[];
const fixtures: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  // 101 products, so the limit clamp shows on a list longer than 100.
  const products = [];
  for (let i = 0; i < 101; i++) products.push(await t.engine.products.create(aProduct({ name: `Compat product ${String(i).padStart(3, '0')}` }), SYSTEM_ACTOR));
  fixtures.productCode = products[0].productCode;
  const session = (await t.call('POST', '/v1/availability', { body: { productCode: fixtures.productCode, startTimeLocal: '2030-01-02 09:00:00', seats: 10 } })).body.session;
  fixtures.sessionId = String(session.id);
  const booking = await t.call('POST', '/v1/bookings', {
    body: { customer: { firstName: 'Ada', lastName: 'Fixture' }, items: [{ productCode: fixtures.productCode, startTimeLocal: session.startTimeLocal, quantities: [{ optionLabel: 'Adult', value: 1 }] }] },
  });
  fixtures.orderNumber = booking.body.booking.orderNumber;
  fixtures.q = 'Fixture';
  fixtures.resourceId = String((await t.engine.resources.create({ name: 'Skipper Sam' } as never, SYSTEM_ACTOR)).id);
  fixtures.categoryId = String((await t.engine.categories.create({ name: 'Walks', visible: true } as never, SYSTEM_ACTOR)).id);
  const doc = (await t.call('GET', '/v1/openapi.json')).body;
  operations = Object.entries<any>(doc.paths)
    .filter(([, ops]) => ops.get && !ops.get.deprecated)
    .map(([path, ops]) => ({ path, params: ops.get.parameters ?? [] }));
}, 120_000);
afterAll(() => t.close());

/** A callable URL for an operation: path parameters and required query parameters from the fixtures. */
function urlFor(op: (typeof operations)[number], extra = ''): string {
  let path = op.path;
  for (const p of op.params.filter((p) => p.in === 'path')) {
    if (!fixtures[p.name]) throw new Error(`No fixture for path parameter ${p.name} of ${op.path}`);
    path = path.replace(`{${p.name}}`, fixtures[p.name]);
  }
  const required = op.params.filter((p) => p.in === 'query' && p.required).map((p) => {
    if (!fixtures[p.name]) throw new Error(`No fixture for required query parameter ${p.name} of ${op.path}`);
    return `${p.name}=${encodeURIComponent(fixtures[p.name])}`;
  });
  const query = [...required, extra].filter(Boolean).join('&');
  return query ? `${path}?${query}` : path;
}

const listOps = () => operations.filter((op) => op.params.some((p) => p.name === 'limit'));
const TIME_PARAMS = ['startTime', 'endTime', 'startTimeLocal', 'endTimeLocal', 'minTourStartTime', 'maxTourStartTime', 'updatedSince', 'minDateCreated', 'maxDateCreated', 'date'];
const timeOps = () => operations.flatMap((op) => op.params.filter((p) => p.in === 'query' && TIME_PARAMS.includes(p.name)).map((p) => ({ op, param: p.name })));

/** Operations whose time parameter names one session (productCode + start), not a range. */
const namesASession = (op: (typeof operations)[number]) => !op.params.some((p) => p.name.startsWith('end') || p.name.startsWith('max'));
const withSession = (op: (typeof operations)[number]) =>
  namesASession(op) && op.params.some((p) => p.name === 'productCode' && !p.required) ? `productCode=${fixtures.productCode}&` : '';

const listOf = (body: Record<string, unknown>) => Object.values(body).find(Array.isArray) as unknown[] | undefined;

describe('every list and search endpoint', () => {
  it('is found in the API description (the tables below are not empty)', () => {
    const paths = listOps().map((op) => op.path);
    for (const known of ['/v1/products', '/v1/products/marketplace', '/v1/availability', '/v1/vouchers', '/v1/categories', '/v1/extra', '/v1/pickups', '/v1/rates/search']) expect(paths).toContain(known);
  });

  it('clamps limit above 100 instead of refusing it', async () => {
    for (const op of listOps()) {
      for (const limit of ['101', '500', '1000000']) {
        const res = await t.call('GET', urlFor(op, `limit=${limit}`));
        expect(res.status, `${op.path} limit=${limit}`).toBe(200);
        expect(listOf(res.body)!.length, op.path).toBeLessThanOrEqual(100);
      }
    }
    const products = await t.call('GET', '/v1/products?limit=1000');
    expect(products.body.products).toHaveLength(100);
  });

  it('refuses a non-numeric or negative limit or offset with a 400 envelope naming it', async () => {
    for (const op of listOps()) {
      for (const bad of ['limit=ten', 'limit=-1', 'offset=-1', 'offset=x']) {
        const res = await t.call('GET', urlFor(op, bad));
        expect(res.status, `${op.path} ${bad}`).toBe(400);
        expect(res.body.requestStatus.error.errorMessage, `${op.path} ${bad}`).toMatch(bad.split('=')[0]);
      }
    }
  });

  it('accepts a trailing slash, ignores unknown parameters and treats empty or valueless ones as absent', async () => {
    for (const op of listOps()) {
      const plain = await t.call('GET', urlFor(op));
      expect(plain.status, op.path).toBe(200);
      const optional = op.params.filter((p) => p.in === 'query' && !p.required && p.name !== 'limit' && p.name !== 'offset').map((p) => p.name);
      const noisy = [...optional.map((name, i) => (i % 2 ? `${name}=` : name)), 'utm_source=newsletter', 'apiVersion=2'].join('&');
      const lenient = await t.call('GET', urlFor(op, noisy).replace(/^([^?]*)/, '$1/'));
      expect(lenient.status, `${op.path} with ${noisy}`).toBe(200);
      expect(listOf(lenient.body), op.path).toEqual(listOf(plain.body));
    }
  });

  it('answers a search that finds nothing with 200 and an empty list', async () => {
    for (const op of listOps()) {
      const search = op.params.find((p) => ['search', 'searchString', 'rateName'].includes(p.name));
      if (!search) continue;
      const res = await t.call('GET', urlFor(op, `${search.name}=zzzz-no-such-thing`));
      expect(res.status, op.path).toBe(200);
      expect(listOf(res.body), op.path).toEqual([]);
    }
  });
});

describe('every time query parameter', () => {
  const forms = ['2030-01-02', '2030-01-02 09:00:00', '2030-01-02T09:00:00Z', '2030-01-02T09:00:00+10:00', '2030-01-02T09:00:00 10:00', '2030-01-02T09:00:00-0500'];

  it('is found in the API description', () => {
    expect(timeOps().length).toBeGreaterThanOrEqual(6);
  });

  it('accepts a date alone, a local time, and ISO-8601 with Z, an offset, or an offset whose + became a space', async () => {
    for (const { op, param } of timeOps()) {
      for (const form of forms) {
        // The space stands for a "+" that was not URL-encoded, as some clients send it.
        const res = await t.call('GET', urlFor(op, `${withSession(op)}${param}=${form.replace(/ /g, '%20')}`));
        const message = `${op.path} ${param}=${form}: ${JSON.stringify(res.body.requestStatus)}`;
        // A parameter naming one session's start (no end bound beside it) may find no session there.
        if (namesASession(op)) expect([200, 404], message).toContain(res.status);
        else expect(res.status, message).toBe(200);
      }
    }
  });

  it('refuses a time it cannot read with a 400 naming the parameter', async () => {
    for (const { op, param } of timeOps()) {
      const res = await t.call('GET', urlFor(op, `${withSession(op)}${param}=next-tuesday`));
      expect(res.status, `${op.path} ${param}`).toBe(400);
      expect(res.body.requestStatus.error.errorMessage, `${op.path} ${param}`).toContain(param);
    }
  });
});

describe('a JSON content type with an empty body', () => {
  const emptyJson = (url: string) => t.app.inject({ method: 'POST', url, headers: { host: '127.0.0.1', apikey: t.keys.supplier, 'content-type': 'application/json' }, payload: '' });

  it('is no body on a POST whose body is optional, as generic clients send it', async () => {
    // Sync now with no peers: its usual 409, not a 400 about the body.
    const run = await emptyJson('/v1/sync/run');
    expect(run.statusCode, run.body).toBe(409);
    expect(run.json().requestStatus.error.errorMessage).toMatch(/no peers to sync with/);
    const paired = await emptyJson('/v1/pairing/checkin');
    expect(paired.statusCode, paired.body).toBe(200);
    expect(paired.json().pairing.name).toMatch(/^Phone /);
  });

  it('is refused with a 400 envelope where a body is required', async () => {
    const res = await emptyJson('/v1/customers');
    expect(res.statusCode).toBe(400);
    expect(res.json().requestStatus.error).toMatchObject({ errorCode: 'VALIDATION_ERROR', errorMessage: 'The request body is empty; send a JSON object' });
  });
});
