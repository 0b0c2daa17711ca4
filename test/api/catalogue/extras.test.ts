import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedUnchanged } from '../../fixtures/refusals';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { anExtra, aProduct } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TABLES = ['extras', 'product_extras', 'op_log'];
const createExtra = async (overrides = {}) => {
  const res = await t.call('POST', '/v1/extra', { body: anExtra(overrides) });
  expect(res.status).toBe(200);
  return res.body.extra;
};

describe('extras', () => {
  it('creates an extra of each price type and answers it under extra', async () => {
    const image = { itemUrl: 'https://img.example/lunch.jpg', thumbnailUrl: 'https://img.example/lunch-240.jpg' };
    for (const extraPriceType of ['ANY', 'FIXED', 'QUANTITY']) {
      const extra = await createExtra({ extraPriceType, image });
      expect(extra).toEqual({ id: extra.id, name: 'Lunch Box', description: 'Sandwich, fruit and water', extraPriceType, price: 15.5, unitLabel: 'box', image });
      expect((await t.call('GET', `/v1/extra/${extra.id}`)).body.extra).toEqual(extra);
    }
  });

  it('stores the price in minor units of the company currency and accepts it as a string', async () => {
    const extra = await createExtra({ price: '200.005' });
    expect(extra.price).toBe(200.01);
    expect(t.sql.prepare('SELECT price_minor, currency FROM extras WHERE id = ?').get(extra.id)).toEqual({ price_minor: 20001, currency: 'AUD' });
  });

  it('updates only the fields sent', async () => {
    const extra = await createExtra({ name: 'Wetsuit' });
    const res = await t.call('PUT', `/v1/extra/${extra.id}`, { body: { price: 9, extraPriceType: 'FIXED' } });
    expect(res.status).toBe(200);
    expect(res.body.extra).toMatchObject({ id: extra.id, name: 'Wetsuit', price: 9, extraPriceType: 'FIXED', unitLabel: 'box' });
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['a missing name', { name: undefined }],
    ['an empty name', { name: '' }],
    ['a missing extraPriceType', { extraPriceType: undefined }],
    ['an unknown extraPriceType', { extraPriceType: 'PER_HOUR' }],
    ['a missing price', { price: undefined }],
    ['a negative price', { price: -1 }],
    ['a price that is not a number', { price: 'ten' }],
    ['an image that is not an object', { image: 'lunch.jpg' }],
  ];
  it.each(invalid)('refuses a create with %s with 400 and changes nothing', async (_name, overrides) => {
    await expectRefusedUnchanged(t, TABLES, 400, () => t.call('POST', '/v1/extra', { body: anExtra(overrides) }), 'VALIDATION_ERROR');
  });

  it('refuses an invalid update with 400 and changes nothing', async () => {
    const extra = await createExtra();
    const before = t.snapshot(...TABLES);
    for (const body of [{ price: -5 }, { extraPriceType: 'SOME' }, { name: '' }]) {
      const res = await t.call('PUT', `/v1/extra/${extra.id}`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.requestStatus.error.errorMessage).toBeTruthy();
    }
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('answers 404 for an unknown extra and 400 for a non-numeric id', async () => {
    const before = t.snapshot(...TABLES);
    for (const [method, body] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
      const res = await t.call(method, '/v1/extra/424242', body ? { body } : {});
      expect(res.status, method).toBe(404);
      expect(res.body.requestStatus.error.errorCode).toBe('NOT_FOUND');
      expect((await t.call(method, '/v1/extra/lunch', body ? { body } : {})).status, method).toBe(400);
    }
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('searches by name or description with searchString, pages, clamps the limit and accepts a trailing slash', async () => {
    await createExtra({ name: 'Qx Alpha' });
    await createExtra({ name: 'Qx Beta', description: 'qx in the description too' });
    await createExtra({ name: 'Other', description: 'mentions QX here' });
    const found = (await t.call('GET', '/v1/extra/?searchString=qx')).body.extras;
    expect(found.map((e: any) => e.name)).toEqual(['Other', 'Qx Alpha', 'Qx Beta']);
    expect((await t.call('GET', '/v1/extra?searchString=qx&limit=1&offset=2')).body.extras.map((e: any) => e.name)).toEqual(['Qx Beta']);
    const clamped = await t.call('GET', '/v1/extra?limit=5000');
    expect(clamped.status).toBe(200);
    expect(clamped.body.extras.length).toBeLessThanOrEqual(100);
    expect((await t.call('GET', '/v1/extra?limit=-1')).status).toBe(400);
    const none = await t.call('GET', '/v1/extra?searchString=zzznothing');
    expect(none.status).toBe(200);
    expect(none.body.extras).toEqual([]);
  });

  it('lets a product reference extras by id, and refuses to delete an extra a product uses with 409 IN_USE', async () => {
    const extra = await createExtra({ name: 'Photo Pack', extraPriceType: 'FIXED' });
    const product = (await t.call('POST', '/v1/products', { body: aProduct({ extras: [{ id: extra.id }] }) })).body.product;
    expect(product.extras).toEqual([{ id: extra.id }]);
    const before = t.snapshot(...TABLES);
    const res = await t.call('DELETE', `/v1/extra/${extra.id}`);
    expect(res.status).toBe(409);
    expect(res.body.requestStatus.error.errorCode).toBe('IN_USE');
    expect(res.body.requestStatus.error.errorMessage).toContain(product.productCode);
    expect(t.snapshot(...TABLES)).toEqual(before);
    // Once no live product offers it, it can go; an archived product loses the link.
    await t.call('DELETE', `/v1/products/${product.productCode}`);
    expect((await t.call('DELETE', `/v1/extra/${extra.id}`)).status).toBe(200);
    expect((await t.call('GET', `/v1/extra/${extra.id}`)).status).toBe(404);
  });

  it('deletes an unused extra', async () => {
    const extra = await createExtra();
    expect((await t.call('DELETE', `/v1/extra/${extra.id}/`)).status).toBe(200);
    expect((await t.call('GET', `/v1/extra/${extra.id}`)).status).toBe(404);
  });

  it('lets agents read extras but not change them, and checkin keys neither', async () => {
    const extra = await createExtra();
    expect((await t.call('GET', `/v1/extra/${extra.id}`, { role: 'agent' })).status).toBe(200);
    expect((await t.call('GET', '/v1/extra', { role: 'agent' })).status).toBe(200);
    const before = t.snapshot(...TABLES);
    for (const role of ['agent', 'checkin'] as const) {
      expect((await t.call('POST', '/v1/extra', { role, body: anExtra() })).status).toBe(403);
      expect((await t.call('PUT', `/v1/extra/${extra.id}`, { role, body: { price: 0 } })).status).toBe(403);
      const del = await t.call('DELETE', `/v1/extra/${extra.id}`, { role });
      expect(del.status).toBe(403);
      expect(del.body.requestStatus.error.errorCode).toBe('FORBIDDEN');
    }
    expect((await t.call('GET', '/v1/extra', { role: 'checkin' })).status).toBe(403);
    expect(t.snapshot(...TABLES)).toEqual(before);
  });
});
