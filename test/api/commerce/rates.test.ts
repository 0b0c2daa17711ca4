import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedUnchanged } from '../../fixtures/refusals';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aNetRateFor, aPercentRateFor, aProduct } from '../../fixtures/builders';

let t: TestApp;
let walk: string; // Adult 50, Child 25 (AUD)
let cruise: string;
let agentResellerId: number;
const TABLES = ['rates', 'rate_products', 'resellers', 'op_log'];

beforeAll(async () => {
  t = await startTestApp();
  walk = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product.productCode;
  cruise = (await t.call('POST', '/v1/products', { body: aProduct({ name: 'Harbour Cruise', currency: 'JPY', priceOptions: [{ label: 'Adult', price: 5000 }] }) })).body.product.productCode;
  agentResellerId = (await t.engine.apiKeys.list()).find((k) => k.role === 'agent')!.resellerId!;
});
afterAll(() => t.close());

const createRate = async (body: object) => {
  const res = await t.call('POST', '/v1/rates', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.rate;
};

const expectRefused = (status: number, call: () => Promise<{ status: number; body: any }>, code = 'VALIDATION_ERROR') => expectRefusedUnchanged(t, TABLES, status, call, code);

describe('rates', () => {
  it('creates a rate with a NET_RATE and a PERCENT product and answers it in the spec shape', async () => {
    const rate = await createRate({ name: 'Hotel desks', productRates: [aNetRateFor(walk), aPercentRateFor(cruise, 12.5, true)] });
    expect(rate.rateId).toBeGreaterThan(0);
    expect(rate).toEqual({
      rateId: rate.rateId,
      name: 'Hotel desks',
      productRates: expect.arrayContaining([
        { productCode: walk, commissionType: 'NET_RATE', netRates: [{ priceOptionLabel: 'Adult', netPrice: 40 }, { priceOptionLabel: 'Child', netPrice: 20 }] },
        { productCode: cruise, commissionType: 'PERCENT', percentageCommission: 12.5, percentageIncludeExtras: true },
      ]),
    });
    const fetched = await t.call('GET', `/v1/rates/${rate.rateId}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.requestStatus).toEqual({ success: true, version: 'v1' });
    expect(fetched.body.rate).toEqual(rate);
    const row = t.sql.prepare('SELECT net_rates_json FROM rate_products WHERE rate_id = ? AND product_code = ?').get(rate.rateId, walk) as { net_rates_json: string };
    expect(JSON.parse(row.net_rates_json)).toEqual([{ priceOptionLabel: 'Adult', netPriceMinor: 4000 }, { priceOptionLabel: 'Child', netPriceMinor: 2000 }]);
  });

  it('accepts PERCENTAGE as PERCENT, numbers and booleans as strings, and matches option labels in any case', async () => {
    const rate = await createRate({
      name: 'Loose client',
      productRates: [
        { productCode: walk, commissionType: 'NET_RATE', netRates: [{ priceOptionLabel: 'adult', netPrice: '41.50' }] },
        { productCode: cruise, commissionType: 'PERCENTAGE', percentageCommission: '15', percentageIncludeExtras: 'false', somethingNew: 1 },
      ],
    });
    const byCode = Object.fromEntries(rate.productRates.map((p: any) => [p.productCode, p]));
    expect(byCode[walk].netRates).toEqual([{ priceOptionLabel: 'Adult', netPrice: 41.5 }]);
    expect(byCode[cruise]).toEqual({ productCode: cruise, commissionType: 'PERCENT', percentageCommission: 15, percentageIncludeExtras: false });
  });

  it('keeps net prices in the product currency (JPY has no minor digits)', async () => {
    const rate = await createRate({ name: 'Yen', productRates: [{ productCode: cruise, commissionType: 'NET_RATE', netRates: [{ priceOptionLabel: 'Adult', netPrice: 4200.4 }] }] });
    expect(rate.productRates[0].netRates).toEqual([{ priceOptionLabel: 'Adult', netPrice: 4200 }]);
  });

  const invalidBodies: [string, () => object][] = [
    ['a missing name', () => ({ name: '' })],
    ['an unknown commissionType', () => ({ name: 'X', productRates: [{ productCode: walk, commissionType: 'FLAT' }] })],
    ['NET_RATE without netRates', () => ({ name: 'X', productRates: [{ productCode: walk, commissionType: 'NET_RATE' }] })],
    ['NET_RATE with an empty netRates list', () => ({ name: 'X', productRates: [{ productCode: walk, commissionType: 'NET_RATE', netRates: [] }] })],
    ['a negative netPrice', () => ({ name: 'X', productRates: [aNetRateFor(walk, [{ priceOptionLabel: 'Adult', netPrice: -1 }])] })],
    ['a netRates label that is not a price option of the product', () => ({ name: 'X', productRates: [aNetRateFor(walk, [{ priceOptionLabel: 'Senior', netPrice: 1 }])] })],
    ['a price option listed twice in netRates', () => ({ name: 'X', productRates: [aNetRateFor(walk, [{ priceOptionLabel: 'Adult', netPrice: 1 }, { priceOptionLabel: 'ADULT', netPrice: 2 }])] })],
    ['PERCENT without percentageCommission', () => ({ name: 'X', productRates: [{ productCode: walk, commissionType: 'PERCENT', percentageIncludeExtras: true }] })],
    ['PERCENT without percentageIncludeExtras', () => ({ name: 'X', productRates: [{ productCode: walk, commissionType: 'PERCENT', percentageCommission: 10 }] })],
    ['a percentageCommission above 100', () => ({ name: 'X', productRates: [aPercentRateFor(walk, 100.5)] })],
    ['a negative percentageCommission', () => ({ name: 'X', productRates: [aPercentRateFor(walk, -1)] })],
    ['a product listed twice', () => ({ name: 'X', productRates: [aPercentRateFor(walk), aNetRateFor(walk)] })],
    ['a product rate without productCode', () => ({ name: 'X', productRates: [{ commissionType: 'PERCENT', percentageCommission: 5, percentageIncludeExtras: true }] })],
  ];
  it.each(invalidBodies)('refuses to create a rate with %s: 400 and nothing written', async (_name, body) => {
    await expectRefused(400, () => t.call('POST', '/v1/rates', { body: body() }));
  });

  it('answers 404 for a rate naming an unknown product, and writes nothing', async () => {
    const message = await expectRefused(404, () => t.call('POST', '/v1/rates', { body: { name: 'X', productRates: [aPercentRateFor('PNOPE00')] } }), 'NOT_FOUND');
    expect(message).toContain('PNOPE00');
  });

  it('renames a rate and replaces its whole product list on PUT', async () => {
    const rate = await createRate({ name: 'Before', productRates: [aNetRateFor(walk), aPercentRateFor(cruise)] });
    const renamed = await t.call('PUT', `/v1/rates/${rate.rateId}`, { body: { name: 'After' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.rate.name).toBe('After');
    expect(renamed.body.rate.productRates).toHaveLength(2);
    const replaced = await t.call('PUT', `/v1/rates/${rate.rateId}`, { body: { productRates: [aPercentRateFor(walk, 20)] } });
    expect(replaced.body.rate).toEqual({ rateId: rate.rateId, name: 'After', productRates: [{ productCode: walk, commissionType: 'PERCENT', percentageCommission: 20, percentageIncludeExtras: false }] });
    const cleared = await t.call('PUT', `/v1/rates/${rate.rateId}`, { body: { productRates: [] } });
    expect(cleared.body.rate.productRates).toEqual([]);
  });

  it('refuses an invalid PUT and leaves the rate as it was', async () => {
    const rate = await createRate({ name: 'Stable', productRates: [aNetRateFor(walk)] });
    await expectRefused(400, () => t.call('PUT', `/v1/rates/${rate.rateId}`, { body: { name: '' } }));
    await expectRefused(400, () => t.call('PUT', `/v1/rates/${rate.rateId}`, { body: { productRates: [aPercentRateFor(cruise), aNetRateFor(walk, [{ priceOptionLabel: 'Nobody', netPrice: 1 }])] } }));
    await expectRefused(404, () => t.call('PUT', `/v1/rates/${rate.rateId}`, { body: { productRates: [aPercentRateFor('PNOPE00')] } }), 'NOT_FOUND');
    expect((await t.call('GET', `/v1/rates/${rate.rateId}`)).body.rate.productRates).toEqual([aNetRateFor(walk)]);
  });

  it('deletes a rate, leaving its resellers without one', async () => {
    const rate = await createRate({ name: 'Doomed', productRates: [aNetRateFor(walk)] });
    await t.call('PUT', `/v1/rates/${rate.rateId}/resellers/${agentResellerId}`);
    const res = await t.call('DELETE', `/v1/rates/${rate.rateId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requestStatus: { success: true, version: 'v1' } });
    expect((await t.call('GET', `/v1/rates/${rate.rateId}`)).status).toBe(404);
    expect(t.snapshot('rate_products').flat().filter((r: any) => r.rate_id === rate.rateId)).toEqual([]);
    const reseller = (await t.call('GET', '/v1/resellers')).body.resellers.find((r: any) => r.resellerId === agentResellerId);
    expect(reseller.rateId).toBeNull();
  });

  it('answers 404 with the envelope for an unknown rate on every operation, and 400 for a non-numeric id', async () => {
    const calls: [string, string, object?][] = [
      ['GET', '/v1/rates/999999'],
      ['PUT', '/v1/rates/999999', { name: 'x' }],
      ['DELETE', '/v1/rates/999999'],
      ['PUT', `/v1/rates/999999/products/${walk}`, aPercentRateFor(walk)],
      ['DELETE', `/v1/rates/999999/products/${walk}`],
    ];
    for (const [method, url, body] of calls) {
      const res = await t.call(method, url, body ? { body } : {});
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.requestStatus.error.errorCode).toBe('NOT_FOUND');
    }
    const bad = await t.call('GET', '/v1/rates/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.requestStatus.error.errorMessage).toContain('rateId');
  });
});

describe('rate products', () => {
  it('adds a product to a rate, then replaces its terms, answering the rate each time', async () => {
    const rate = await createRate({ name: 'Growing' });
    const added = await t.call('PUT', `/v1/rates/${rate.rateId}/products/${walk}`, { body: { commissionType: 'NET_RATE', netRates: [{ priceOptionLabel: 'Child', netPrice: 19.99 }] } });
    expect(added.status).toBe(200);
    expect(added.body.rate.productRates).toEqual([{ productCode: walk, commissionType: 'NET_RATE', netRates: [{ priceOptionLabel: 'Child', netPrice: 19.99 }] }]);
    const replaced = await t.call('PUT', `/v1/rates/${rate.rateId}/products/${walk}`, { body: { productCode: 'IGNORED', commissionType: 'PERCENTAGE', percentageCommission: 8, percentageIncludeExtras: true } });
    expect(replaced.body.rate.productRates).toEqual([{ productCode: walk, commissionType: 'PERCENT', percentageCommission: 8, percentageIncludeExtras: true }]);
  });

  const invalidTerms: [string, object][] = [
    ['NET_RATE without netRates', { commissionType: 'NET_RATE' }],
    ['an unknown price option label', { commissionType: 'NET_RATE', netRates: [{ priceOptionLabel: 'Dog', netPrice: 5 }] }],
    ['a negative net price', { commissionType: 'NET_RATE', netRates: [{ priceOptionLabel: 'Adult', netPrice: -5 }] }],
    ['PERCENT without its mandatory fields', { commissionType: 'PERCENT' }],
    ['a percentage over 100', { commissionType: 'PERCENT', percentageCommission: 101, percentageIncludeExtras: false }],
    ['a missing commissionType', { percentageCommission: 10, percentageIncludeExtras: false }],
  ];
  it.each(invalidTerms)('refuses product terms with %s: 400 and the rate unchanged', async (_name, body) => {
    const rate = await createRate({ name: 'Guarded', productRates: [aNetRateFor(walk)] });
    await expectRefused(400, () => t.call('PUT', `/v1/rates/${rate.rateId}/products/${walk}`, { body }));
  });

  it('answers 404 for an unknown product when adding or removing', async () => {
    const rate = await createRate({ name: 'Nope' });
    await expectRefused(404, () => t.call('PUT', `/v1/rates/${rate.rateId}/products/PNOPE00`, { body: aPercentRateFor('PNOPE00') }), 'NOT_FOUND');
    await expectRefused(404, () => t.call('DELETE', `/v1/rates/${rate.rateId}/products/PNOPE00`), 'NOT_FOUND');
  });

  it('removes a product from a rate and answers the rate; removing it again is a 404', async () => {
    const rate = await createRate({ name: 'Shrinking', productRates: [aNetRateFor(walk), aPercentRateFor(cruise)] });
    const res = await t.call('DELETE', `/v1/rates/${rate.rateId}/products/${walk}`);
    expect(res.status).toBe(200);
    expect(res.body.rate.productRates.map((p: any) => p.productCode)).toEqual([cruise]);
    await expectRefused(404, () => t.call('DELETE', `/v1/rates/${rate.rateId}/products/${walk}`), 'NOT_FOUND');
  });
});

describe('rate products of archived products', () => {
  it('still shows and can remove the terms of a product archived after it was put on a rate', async () => {
    const gone = (await t.call('POST', '/v1/products', { body: aProduct({ name: 'Soon Archived' }) })).body.product.productCode;
    const rate = await createRate({ name: 'Outlived', productRates: [aPercentRateFor(gone)] });
    expect((await t.call('DELETE', `/v1/products/${gone}`)).status).toBe(200);
    expect((await t.call('GET', `/v1/rates/${rate.rateId}`)).body.rate.productRates.map((p: any) => p.productCode)).toEqual([gone]);
    const removed = await t.call('DELETE', `/v1/rates/${rate.rateId}/products/${gone}`);
    expect(removed.status).toBe(200);
    expect(removed.body.rate.productRates).toEqual([]);
  });
});

describe('rates in the OpenAPI document', () => {
  it('lists every rate, reseller and voucher operation', async () => {
    const doc = (await t.call('GET', '/v1/openapi.json')).body;
    for (const [path, method] of [
      ['/v1/rates/search', 'get'],
      ['/v1/rates/{rateId}', 'get'],
      ['/v1/rates', 'post'],
      ['/v1/rates/{rateId}', 'put'],
      ['/v1/rates/{rateId}', 'delete'],
      ['/v1/rates/{rateId}/products/{productCode}', 'put'],
      ['/v1/rates/{rateId}/products/{productCode}', 'delete'],
      ['/v1/rates/{rateId}/resellers/{resellerId}', 'put'],
      ['/v1/rates/{rateId}/resellers/{resellerId}', 'delete'],
      ['/v1/resellers', 'get'],
      ['/v1/vouchers', 'get'],
      ['/v1/vouchers', 'post'],
      ['/v1/vouchers/{voucherCode}', 'get'],
    ]) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(JSON.stringify(doc.paths['/v1/rates'].post.requestBody)).toContain('PERCENTAGE');
  });
});

describe('rate search', () => {
  it('finds rates by name and by product, pages them, and answers an empty list when nothing matches', async () => {
    const a = await createRate({ name: 'Zeta Search One', productRates: [aNetRateFor(walk)] });
    const b = await createRate({ name: 'Zeta Search Two', productRates: [aPercentRateFor(cruise)] });
    const c = await createRate({ name: 'Zeta Search Three' });
    const byName = (await t.call('GET', '/v1/rates/search?rateName=zeta%20search')).body.rates.map((r: any) => r.rateId);
    expect(byName).toEqual([a.rateId, c.rateId, b.rateId]);
    const byProduct = (await t.call('GET', `/v1/rates/search?rateName=Zeta&productCode=${cruise}`)).body.rates.map((r: any) => r.rateId);
    expect(byProduct).toEqual([b.rateId]);
    const page = (await t.call('GET', '/v1/rates/search?rateName=Zeta&limit=1&offset=1')).body.rates.map((r: any) => r.rateId);
    expect(page).toEqual([c.rateId]);
    const none = await t.call('GET', '/v1/rates/search?rateName=no-such-rate');
    expect(none.status).toBe(200);
    expect(none.body.rates).toEqual([]);
  });

  it('clamps a limit above 100, accepts a trailing slash, and treats empty parameters as absent', async () => {
    const all = await t.call('GET', '/v1/rates/search?limit=100');
    const clamped = await t.call('GET', '/v1/rates/search/?limit=100000&rateName=&productCode');
    expect(clamped.status).toBe(200);
    expect(clamped.body.rates).toEqual(all.body.rates);
    expect(all.body.rates.length).toBeGreaterThan(3);
  });

  it('refuses a negative or non-numeric limit or offset with 400', async () => {
    for (const q of ['limit=-1', 'limit=ten', 'offset=-5']) {
      const res = await t.call('GET', `/v1/rates/search?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.requestStatus.error.errorCode).toBe('VALIDATION_ERROR');
    }
  });
});

describe('rates and roles', () => {
  it('lets an agent read only the rate of its own reseller (another rate is a 404), and search only that one', async () => {
    const own = await createRate({ name: 'Agent Own', productRates: [aNetRateFor(walk)] });
    const other = await createRate({ name: 'Agent Other' });
    await t.call('DELETE', `/v1/rates/${own.rateId}/resellers/${agentResellerId}`); // may not be attached: ignore the answer
    expect((await t.call('GET', `/v1/rates/${own.rateId}`, { role: 'agent' })).status).toBe(404);
    expect((await t.call('GET', '/v1/rates/search', { role: 'agent' })).body.rates).toEqual([]);
    expect((await t.call('PUT', `/v1/rates/${own.rateId}/resellers/${agentResellerId}`)).status).toBe(200);
    const mine = await t.call('GET', `/v1/rates/${own.rateId}`, { role: 'agent' });
    expect(mine.status).toBe(200);
    expect(mine.body.rate).toEqual(own);
    const hidden = await t.call('GET', `/v1/rates/${other.rateId}`, { role: 'agent' });
    expect(hidden.status).toBe(404);
    expect(hidden.body.requestStatus.error.errorCode).toBe('NOT_FOUND');
    expect((await t.call('GET', '/v1/rates/search', { role: 'agent' })).body.rates.map((r: any) => r.rateId)).toEqual([own.rateId]);
    expect((await t.call('GET', '/v1/rates/search?rateName=Other', { role: 'agent' })).body.rates).toEqual([]);
  });

  it('refuses every rate change to agents and every rate call to checkin keys with 403, changing nothing', async () => {
    const rate = await createRate({ name: 'Locked', productRates: [aNetRateFor(walk)] });
    const writes: [string, string, object?][] = [
      ['POST', '/v1/rates', { name: 'Sneaky' }],
      ['PUT', `/v1/rates/${rate.rateId}`, { name: 'Sneaky' }],
      ['DELETE', `/v1/rates/${rate.rateId}`],
      ['PUT', `/v1/rates/${rate.rateId}/products/${cruise}`, aPercentRateFor(cruise)],
      ['DELETE', `/v1/rates/${rate.rateId}/products/${walk}`],
      ['PUT', `/v1/rates/${rate.rateId}/resellers/${agentResellerId}`],
      ['DELETE', `/v1/rates/${rate.rateId}/resellers/${agentResellerId}`],
      ['GET', '/v1/resellers'],
    ];
    for (const role of ['agent', 'checkin'] as const) {
      for (const [method, url, body] of writes) {
        await expectRefused(403, () => t.call(method, url, { role, ...(body ? { body } : {}) }), 'FORBIDDEN');
      }
      await expectRefused(403, () => t.call('GET', `/v1/rates/${rate.rateId}`, { role: 'checkin' }), 'FORBIDDEN');
      await expectRefused(403, () => t.call('GET', '/v1/rates/search', { role: 'checkin' }), 'FORBIDDEN');
    }
    const noKey = await t.call('GET', `/v1/rates/${rate.rateId}`, { role: null });
    expect(noKey.status).toBe(401);
  });
});
