import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aProduct } from '../../fixtures/builders';

let t: TestApp;
let productCode: string;
beforeAll(async () => {
  t = await startTestApp();
  productCode = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product.productCode;
});
afterAll(() => t.close());

describe('API keys', () => {
  it('accepts the key in the apiKey header, in any case', async () => {
    for (const header of ['apiKey', 'apikey', 'APIKEY']) {
      const res = await t.call('GET', '/v1/products', { role: null, headers: { [header]: t.keys.supplier } });
      expect(res.status, header).toBe(200);
    }
  });

  it('accepts the key as the apiKey query parameter', async () => {
    const res = await t.call('GET', `/v1/products?apiKey=${t.keys.supplier}`, { role: null });
    expect(res.status).toBe(200);
    expect(res.body.requestStatus).toEqual({ success: true, version: 'v1' });
  });

  it('answers 401 with the envelope for a missing key', async () => {
    const res = await t.call('GET', '/v1/products', { role: null });
    expect(res.status).toBe(401);
    expect(res.body.requestStatus).toMatchObject({ success: false, error: { errorCode: 'UNAUTHORIZED' } });
    expect(res.body.requestStatus.error.errorMessage).toMatch(/API key/);
  });

  it('answers 401 for an unknown key and for a revoked one', async () => {
    expect((await t.call('GET', '/v1/products', { key: 'td_not_a_real_key_at_all' })).status).toBe(401);
    const { id, key } = await t.engine.apiKeys.create({ role: 'supplier', name: 'Soon revoked' });
    expect((await t.call('GET', '/v1/products', { key })).status).toBe(200);
    await t.engine.apiKeys.revoke(String(id));
    expect((await t.call('GET', '/v1/products', { key })).status).toBe(401);
  });

  it('stores keys only as hashes', async () => {
    const rows = t.sql.prepare('SELECT * FROM api_keys').all() as Record<string, unknown>[];
    const stored = JSON.stringify(rows);
    for (const key of Object.values(t.keys)) expect(stored).not.toContain(key);
  });

  it('answers 403 when the role lacks the right', async () => {
    const res = await t.call('POST', '/v1/products', { role: 'checkin', body: aProduct() });
    expect(res.status).toBe(403);
    expect(res.body.requestStatus.error.errorCode).toBe('FORBIDDEN');
  });

  it('slows down key guessing with 429 after many wrong keys from one address', async () => {
    const other = await startTestApp();
    try {
      let last = 0;
      for (let i = 0; i < 31; i++) last = (await other.call('GET', '/v1/products', { key: `td_wrong_${i}` })).status;
      expect(last).toBe(429);
      const res = await other.call('GET', '/v1/products', { key: 'td_wrong_once_more' });
      expect(res.status).toBe(429);
      expect(res.body.requestStatus.error.errorCode).toBe('TOO_MANY_ATTEMPTS');
      // The guesser is held back, never the holder of a right key (test/api/http/edge.test.ts).
      expect((await other.call('GET', '/v1/products')).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('the envelope and the platform rules', () => {
  it('answers an unknown path with a 404 envelope', async () => {
    const res = await t.call('GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.requestStatus).toMatchObject({ success: false, version: 'v1', error: { errorCode: 'NOT_FOUND' } });
  });

  it('answers /latest/... like /v1/...', async () => {
    const res = await t.call('GET', `/latest/products/${productCode}`);
    expect(res.status).toBe(200);
    expect(res.body.product.productCode).toBe(productCode);
  });

  it('accepts a trailing slash on any path', async () => {
    expect((await t.call('GET', '/v1/products/')).status).toBe(200);
    expect((await t.call('GET', `/v1/products/${productCode}/`)).body.product.productCode).toBe(productCode);
    expect((await t.call('GET', '/v1/companies/alias/testtours/')).status).toBe(200);
  });

  it('ignores unknown query parameters and treats empty or valueless ones as absent', async () => {
    const all = (await t.call('GET', '/v1/products')).body.products.length;
    expect((await t.call('GET', '/v1/products?foo=bar&search=&limit')).body.products.length).toBe(all);
    expect((await t.call('GET', '/v1/products?search&offset=')).status).toBe(200);
  });

  it('clamps limit above 100 and refuses a non-numeric or negative limit or offset', async () => {
    expect((await t.call('GET', '/v1/products?limit=1000000')).status).toBe(200);
    for (const bad of ['limit=abc', 'limit=-1', 'offset=-5', 'offset=1.5']) {
      const res = await t.call('GET', `/v1/products?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.requestStatus.error.errorMessage).toMatch(/limit|offset/);
    }
  });

  it('refuses a body over the size limit with a 400 envelope and writes nothing', async () => {
    const before = t.snapshot('products');
    const res = await t.call('POST', '/v1/products', { body: JSON.stringify({ ...aProduct(), terms: 'x'.repeat(1_200_000) }) });
    expect(res.status).toBe(400);
    expect(res.body.requestStatus.error.errorCode).toBe('PAYLOAD_TOO_LARGE');
    expect(t.snapshot('products')).toEqual(before);
  });

  it('refuses a Host header that is not a loopback name (DNS rebinding)', async () => {
    const res = await t.call('GET', '/v1/products', { headers: { host: 'evil.example:8080' } });
    expect(res.status).toBe(403);
    expect(res.body.requestStatus.success).toBe(false);
    expect((await t.call('GET', '/v1/products', { headers: { host: 'localhost:8080' } })).status).toBe(200);
  });

  it('sends no CORS headers, even when asked by a foreign origin', async () => {
    const res = await t.call('GET', '/v1/products', { headers: { origin: 'https://evil.example' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('never shows a stack trace or SQL in an error', async () => {
    const res = await t.call('PUT', `/v1/products/${productCode}`, { body: '{"broken"' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts|SELECT|sqlite/i);
  });
});

describe('companies', () => {
  it('answers the supplier company by alias, with companies: [company]', async () => {
    const res = await t.call('GET', '/v1/companies/alias/testtours');
    expect(res.status).toBe(200);
    expect(res.body.company).toMatchObject({ alias: 'testtours', companyName: 'Test Tours', currency: 'AUD', timezone: 'Australia/Sydney', locale: 'en_AU', email: 'desk@test.example' });
    expect(res.body.companies).toEqual([res.body.company]);
  });

  it('answers the same at the /companies/{alias} alias', async () => {
    const res = await t.call('GET', '/v1/companies/testtours');
    expect(res.status).toBe(200);
    expect(res.body.company.alias).toBe('testtours');
  });

  it('answers 404 for an unknown alias', async () => {
    const res = await t.call('GET', '/v1/companies/alias/nobody');
    expect(res.status).toBe(404);
    expect(res.body.requestStatus.error.errorCode).toBe('NOT_FOUND');
  });

  it('lets every role read the company', async () => {
    for (const role of ['agent', 'checkin'] as const) expect((await t.call('GET', '/v1/companies/alias/testtours', { role })).status).toBe(200);
  });
});

describe('API description', () => {
  it('serves an OpenAPI 3.1 document listing every operation, alias paths marked deprecated', async () => {
    const res = await t.call('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.paths['/v1/products/{productCode}'].get.summary).toBeTruthy();
    expect(res.body.paths['/v1/products'].post.requestBody.content['application/json'].schema.properties.name).toBeTruthy();
    const alias = res.body.paths['/v1/companies/{companyAlias}'].get;
    expect(alias.deprecated).toBe(true);
    expect(alias.description).toContain('/v1/companies/alias/{companyAlias}');
  });

  it('serves a readable API page at /docs', async () => {
    const res = await t.call('GET', '/docs', { role: null });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('/v1/products/{productCode}');
  });
});
