import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aProduct } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TABLES = ['partner_connect', 'op_log'];
const SETTINGS = { enabled: true, externalProductId: 'EXT-42', channel: 'OTA', autoConfirm: false, notes: 'Sold through the city pass' };
const createProduct = async () => (await t.call('POST', '/v1/products', { body: aProduct() })).body.product;

describe('partner-connect settings', () => {
  it('answers the defaults (not enabled) for a product without settings', async () => {
    const product = await createProduct();
    const res = await t.call('GET', `/v1/products/${product.productCode}/partnerConnect`);
    expect(res.status).toBe(200);
    expect(res.body.partnerConnect).toEqual({ productCode: product.productCode, enabled: false });
  });

  it('stores settings on PUT and answers them under partnerConnect', async () => {
    const product = await createProduct();
    const put = await t.call('PUT', `/v1/products/${product.productCode}/partnerConnect`, { body: SETTINGS });
    expect(put.status).toBe(200);
    expect(put.body.partnerConnect).toEqual({ productCode: product.productCode, ...SETTINGS, dateUpdated: '2030-01-01T00:00:00Z' });
    expect((await t.call('GET', `/v1/products/${product.productCode}/partnerConnect`)).body.partnerConnect).toEqual(put.body.partnerConnect);
    expect(JSON.parse((t.sql.prepare('SELECT settings_json FROM partner_connect WHERE product_code = ?').get(product.productCode) as any).settings_json)).toEqual(SETTINGS);
  });

  it('replaces the settings whole: fields left out are cleared; strings for booleans and wrapped bodies are accepted', async () => {
    const product = await createProduct();
    await t.call('PUT', `/v1/products/${product.productCode}/partnerConnect`, { body: SETTINGS });
    const res = await t.call('PUT', `/v1/products/${product.productCode}/partnerConnect`, { body: { partnerConnect: { enabled: 'false', channel: 'API' } } });
    expect(res.body.partnerConnect).toEqual({ productCode: product.productCode, enabled: false, channel: 'API', dateUpdated: '2030-01-01T00:00:00Z' });
    const wrapped = await t.call('PUT', `/v1/products/${product.productCode}/rezdyConnect`, { body: { rezdyConnectSettings: { enabled: true } } });
    expect(wrapped.body.partnerConnect).toMatchObject({ enabled: true });
    expect(wrapped.body.partnerConnect.channel).toBeUndefined();
  });

  it('answers the same operations under the rezdyConnect path, with the settings also under rezdyConnectSettings', async () => {
    const product = await createProduct();
    const put = await t.call('PUT', `/v1/products/${product.productCode}/rezdyConnect`, { body: SETTINGS });
    expect(put.status).toBe(200);
    expect(put.body.rezdyConnectSettings).toEqual(put.body.partnerConnect);
    const get = await t.call('GET', `/v1/products/${product.productCode}/rezdyConnect/`);
    expect(get.body.rezdyConnectSettings).toMatchObject(SETTINGS);
    expect(get.body.partnerConnect).toMatchObject(SETTINGS);
    const del = await t.call('DELETE', `/v1/products/${product.productCode}/rezdyConnect`);
    expect(del.status).toBe(200);
    expect(del.body.rezdyConnectSettings).toEqual({ productCode: product.productCode, enabled: false });
    expect(t.snapshot('partner_connect').flat().some((r: any) => r.product_code === product.productCode)).toBe(false);
  });

  it('deletes settings; deleting settings that are not there is a 200 that writes nothing', async () => {
    const product = await createProduct();
    await t.call('PUT', `/v1/products/${product.productCode}/partnerConnect`, { body: SETTINGS });
    expect((await t.call('DELETE', `/v1/products/${product.productCode}/partnerConnect`)).status).toBe(200);
    expect((await t.call('GET', `/v1/products/${product.productCode}/partnerConnect`)).body.partnerConnect).toEqual({ productCode: product.productCode, enabled: false });
    const before = t.snapshot(...TABLES);
    expect((await t.call('DELETE', `/v1/products/${product.productCode}/partnerConnect`)).status).toBe(200);
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['enabled that is not a boolean', { enabled: 'sometimes' }],
    ['an unknown channel', { channel: 'CARRIER_PIGEON' }],
    ['an externalProductId over 200 characters', { externalProductId: 'x'.repeat(201) }],
    ['autoConfirm that is not a boolean', { autoConfirm: 3 }],
    ['notes that are not text', { notes: { a: 1 } }],
  ];
  it.each(invalid)('refuses settings with %s with 400 and changes nothing', async (_name, body) => {
    const product = await createProduct();
    await t.call('PUT', `/v1/products/${product.productCode}/partnerConnect`, { body: SETTINGS });
    const before = t.snapshot(...TABLES);
    for (const path of ['partnerConnect', 'rezdyConnect']) {
      const res = await t.call('PUT', `/v1/products/${product.productCode}/${path}`, { body: { ...SETTINGS, ...body } });
      expect(res.status).toBe(400);
      expect(res.body.requestStatus.error.errorCode).toBe('VALIDATION_ERROR');
      expect(res.body.requestStatus.error.errorMessage.length).toBeGreaterThan(5);
    }
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('answers 404 for an unknown or archived product on every operation and changes nothing', async () => {
    const archived = await createProduct();
    await t.call('DELETE', `/v1/products/${archived.productCode}`);
    const before = t.snapshot(...TABLES);
    for (const code of ['PNOPE00', archived.productCode]) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await t.call(method, `/v1/products/${code}/partnerConnect`, method === 'PUT' ? { body: SETTINGS } : {});
        expect(res.status, `${method} ${code}`).toBe(404);
        expect(res.body.requestStatus.error.errorCode).toBe('NOT_FOUND');
      }
    }
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('lets agents read the settings but not change them, and checkin keys neither', async () => {
    const product = await createProduct();
    await t.call('PUT', `/v1/products/${product.productCode}/partnerConnect`, { body: SETTINGS });
    expect((await t.call('GET', `/v1/products/${product.productCode}/partnerConnect`, { role: 'agent' })).status).toBe(200);
    const before = t.snapshot(...TABLES);
    for (const role of ['agent', 'checkin'] as const) {
      for (const path of ['partnerConnect', 'rezdyConnect']) {
        const put = await t.call('PUT', `/v1/products/${product.productCode}/${path}`, { role, body: { enabled: false } });
        expect(put.status).toBe(403);
        expect(put.body.requestStatus.error.errorCode).toBe('FORBIDDEN');
        expect((await t.call('DELETE', `/v1/products/${product.productCode}/${path}`, { role })).status).toBe(403);
      }
    }
    expect((await t.call('GET', `/v1/products/${product.productCode}/partnerConnect`, { role: 'checkin' })).status).toBe(403);
    expect(t.snapshot(...TABLES)).toEqual(before);
  });
});
