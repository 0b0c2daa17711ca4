import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aNetRateFor, aProduct } from '../../fixtures/builders';

let t: TestApp;
let rateA: number;
let rateB: number;
let agentResellerId: number;
const TABLES = ['resellers', 'op_log'];

beforeAll(async () => {
  t = await startTestApp();
  const walk = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product.productCode;
  rateA = (await t.call('POST', '/v1/rates', { body: { name: 'Rate A', productRates: [aNetRateFor(walk)] } })).body.rate.rateId;
  rateB = (await t.call('POST', '/v1/rates', { body: { name: 'Rate B' } })).body.rate.rateId;
  agentResellerId = (await t.engine.apiKeys.list()).find((k) => k.role === 'agent')!.resellerId!;
});
afterAll(() => t.close());

const resellerOf = async (id: number) => (await t.call('GET', '/v1/resellers')).body.resellers.find((r: any) => r.resellerId === id);

describe('resellers', () => {
  it('lists resellers with their rateId (null when on no rate)', async () => {
    const res = await t.call('GET', '/v1/resellers');
    expect(res.status).toBe(200);
    expect(res.body.resellers).toEqual([{ resellerId: agentResellerId, name: 'Test agent', alias: `test-agent-${agentResellerId}`, rateId: null, dateCreated: '2030-01-01T00:00:00Z' }]);
  });

  it('puts a reseller on a rate, moves it to another, and takes it off again', async () => {
    const put = await t.call('PUT', `/v1/rates/${rateA}/resellers/${agentResellerId}`);
    expect(put.status).toBe(200);
    expect(put.body.reseller).toMatchObject({ resellerId: agentResellerId, rateId: rateA });
    expect((await resellerOf(agentResellerId)).rateId).toBe(rateA);
    const moved = await t.call('PUT', `/v1/rates/${rateB}/resellers/${agentResellerId}/`);
    expect(moved.body.reseller.rateId).toBe(rateB);
    const off = await t.call('DELETE', `/v1/rates/${rateB}/resellers/${agentResellerId}`);
    expect(off.status).toBe(200);
    expect(off.body.reseller.rateId).toBeNull();
    expect((await resellerOf(agentResellerId)).rateId).toBeNull();
  });

  it('refuses to take a reseller off a rate it is not on (404) and changes nothing', async () => {
    await t.call('PUT', `/v1/rates/${rateA}/resellers/${agentResellerId}`);
    const before = t.snapshot(...TABLES);
    const res = await t.call('DELETE', `/v1/rates/${rateB}/resellers/${agentResellerId}`);
    expect(res.status).toBe(404);
    expect(res.body.requestStatus.error.errorMessage).toContain(`not on rate ${rateB}`);
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('answers 404 for an unknown rate or reseller and 400 for a non-numeric id, changing nothing', async () => {
    const before = t.snapshot(...TABLES);
    for (const [url, status] of [
      [`/v1/rates/999999/resellers/${agentResellerId}`, 404],
      [`/v1/rates/${rateA}/resellers/999999`, 404],
      [`/v1/rates/${rateA}/resellers/abc`, 400],
    ] as const) {
      for (const method of ['PUT', 'DELETE']) {
        const res = await t.call(method, url);
        expect(res.status, `${method} ${url}`).toBe(status);
        expect(res.body.requestStatus.error.errorMessage.length).toBeGreaterThan(5);
      }
    }
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('searches resellers by name, pages them, clamps the limit and ignores empty parameters', async () => {
    await t.engine.apiKeys.create({ role: 'agent', name: 'Harbour Hotel Desk' });
    await t.engine.apiKeys.create({ role: 'agent', name: 'Harbour Hostel Desk' });
    const found = (await t.call('GET', '/v1/resellers?search=harbour')).body.resellers.map((r: any) => r.name);
    expect(found).toEqual(['Harbour Hostel Desk', 'Harbour Hotel Desk']);
    expect((await t.call('GET', '/v1/resellers?search=harbour&limit=1&offset=1')).body.resellers.map((r: any) => r.name)).toEqual(['Harbour Hotel Desk']);
    const clamped = await t.call('GET', '/v1/resellers/?limit=5000&search=');
    expect(clamped.status).toBe(200);
    expect(clamped.body.resellers).toHaveLength(3);
    expect((await t.call('GET', '/v1/resellers?search=nobody')).body.resellers).toEqual([]);
    expect((await t.call('GET', '/v1/resellers?offset=-1')).status).toBe(400);
  });

  it('lets a new agent key see the rate its reseller is put on', async () => {
    const { key } = await t.engine.apiKeys.create({ role: 'agent', name: 'Rated Desk' });
    const resellerId = (await t.engine.apiKeys.list()).find((k) => k.name === 'Rated Desk')!.resellerId!;
    await t.engine.resellers.attachRate(rateA, resellerId, { keyId: null, role: 'system', resellerId: null, name: 'test' });
    const seen = await t.call('GET', '/v1/rates/search', { key });
    expect(seen.body.rates.map((r: any) => r.rateId)).toEqual([rateA]);
  });
});
