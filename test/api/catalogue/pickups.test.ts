import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aPickupList, aProduct } from '../../fixtures/builders';
import { loadProductPickupList } from '../../../main/domain/catalogue/pickups';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TABLES = ['pickup_lists', 'pickup_locations', 'products', 'op_log'];
const createList = async (overrides = {}) => {
  const res = await t.call('POST', '/v1/pickups', { body: aPickupList(overrides) });
  expect(res.status).toBe(200);
  return res.body.pickupList;
};
const createProduct = async (overrides = {}) => (await t.call('POST', '/v1/products', { body: aProduct(overrides) })).body.product;

describe('pickup lists', () => {
  it('creates a list with its locations in order and answers it under pickupList', async () => {
    const list = await createList({ otherLocationInstructions: 'Call us to arrange another hotel.' });
    expect(list).toEqual({ id: list.id, ...aPickupList({ otherLocationInstructions: 'Call us to arrange another hotel.' }) });
    const fetched = await t.call('GET', `/v1/pickups/${list.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.pickupList).toEqual(list);
  });

  it('accepts numbers sent as strings', async () => {
    const list = await createList({ pickupLocations: [{ locationName: 'Pier 1', latitude: '-33.5', minutesPrior: '15' }] });
    expect(list.pickupLocations).toEqual([{ locationName: 'Pier 1', latitude: -33.5, minutesPrior: 15 }]);
  });

  it('replaces a list completely on PUT: locations and notes not sent are removed, name kept when left out', async () => {
    const list = await createList({ otherLocationInstructions: 'Ask us' });
    const res = await t.call('PUT', `/v1/pickups/${list.id}`, { body: { pickupLocations: [{ locationName: 'Park Lodge', minutesPrior: 5 }, { locationName: 'Central Station' }] } });
    expect(res.status).toBe(200);
    expect(res.body.pickupList).toEqual({ id: list.id, name: 'City Hotels', pickupLocations: [{ locationName: 'Park Lodge', minutesPrior: 5 }, { locationName: 'Central Station' }] });
    expect((await t.call('GET', `/v1/pickups/${list.id}`)).body.pickupList).toEqual(res.body.pickupList);
    expect(t.sql.prepare('SELECT COUNT(*) AS n FROM pickup_locations WHERE pickup_list_id = ?').get(list.id)).toEqual({ n: 2 });
    const renamed = await t.call('PUT', `/v1/pickups/${list.id}`, { body: { ...res.body.pickupList, name: 'Hotels 2' } });
    expect(renamed.body.pickupList.name).toBe('Hotels 2');
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['a missing name', { name: undefined }],
    ['an empty name', { name: ' ' }],
    ['a location without a locationName', { pickupLocations: [{ address: '1 Main St' }] }],
    ['a location with an empty locationName', { pickupLocations: [{ locationName: '' }] }],
    ['two locations with the same name', { pickupLocations: [{ locationName: 'Pier' }, { locationName: 'pier' }] }],
    ['a latitude above 90', { pickupLocations: [{ locationName: 'Pier', latitude: 91 }] }],
    ['a longitude below -180', { pickupLocations: [{ locationName: 'Pier', longitude: -181 }] }],
    ['a negative minutesPrior', { pickupLocations: [{ locationName: 'Pier', minutesPrior: -10 }] }],
    ['a fractional minutesPrior', { pickupLocations: [{ locationName: 'Pier', minutesPrior: 2.5 }] }],
    ['pickupLocations that is not a list', { pickupLocations: 'Pier' }],
  ];
  it.each(invalid)('refuses a create with %s with 400 and changes nothing', async (_name, overrides) => {
    const before = t.snapshot(...TABLES);
    const res = await t.call('POST', '/v1/pickups', { body: aPickupList(overrides) });
    expect(res.status).toBe(400);
    expect(res.body.requestStatus.error.errorCode).toBe('VALIDATION_ERROR');
    expect(res.body.requestStatus.error.errorMessage.length).toBeGreaterThan(5);
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it.each(invalid.filter(([name]) => !name.includes('missing name')))('refuses a replacement with %s with 400 and leaves the list as it was', async (_name, overrides) => {
    const list = await createList();
    const before = t.snapshot(...TABLES);
    const res = await t.call('PUT', `/v1/pickups/${list.id}`, { body: aPickupList(overrides) });
    expect(res.status).toBe(400);
    expect(res.body.requestStatus.error.errorMessage).toBeTruthy();
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('answers 404 for an unknown list and 400 for a non-numeric id', async () => {
    const before = t.snapshot(...TABLES);
    for (const [method, body] of [['GET'], ['PUT', aPickupList()], ['DELETE']] as const) {
      const res = await t.call(method, '/v1/pickups/424242', body ? { body } : {});
      expect(res.status, method).toBe(404);
      expect(res.body.requestStatus.error.errorCode).toBe('NOT_FOUND');
      expect((await t.call(method, '/v1/pickups/hotels', body ? { body } : {})).status).toBe(400);
    }
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('searches by name with searchString into pickupListList, pages, clamps the limit and accepts a trailing slash', async () => {
    await createList({ name: 'Wq Beach Hotels' });
    await createList({ name: 'Wq Airport' });
    const found = (await t.call('GET', '/v1/pickups/?searchString=wq')).body.pickupListList;
    expect(found.map((l: any) => l.name)).toEqual(['Wq Airport', 'Wq Beach Hotels']);
    expect(found[1].pickupLocations).toHaveLength(3);
    expect((await t.call('GET', '/v1/pickups?searchString=wq&limit=1&offset=1')).body.pickupListList.map((l: any) => l.name)).toEqual(['Wq Beach Hotels']);
    expect((await t.call('GET', '/v1/pickups?limit=1000')).status).toBe(200);
    expect((await t.call('GET', '/v1/pickups?offset=x')).status).toBe(400);
    const none = await t.call('GET', '/v1/pickups?searchString=nothing-here');
    expect(none.status).toBe(200);
    expect(none.body.pickupListList).toEqual([]);
  });

  it("answers a product's pickup locations in order, with the list", async () => {
    const list = await createList({ otherLocationInstructions: 'Other hotels on request' });
    const product = await createProduct({ pickupId: list.id });
    const res = await t.call('GET', `/v1/products/${product.productCode}/pickups`);
    expect(res.status).toBe(200);
    expect(res.body.pickupLocations.map((l: any) => l.locationName)).toEqual(['Grand Hotel', 'Harbour View Inn', 'Park Lodge']);
    expect(res.body.pickupList).toEqual(list);
    expect((await t.call('GET', `/v1/products/${product.productCode}/pickups/`, { role: 'agent' })).status).toBe(200);
  });

  it('answers an empty pickupLocations list with 200 for a product without pickups, and 404 for an unknown product', async () => {
    const product = await createProduct();
    const res = await t.call('GET', `/v1/products/${product.productCode}/pickups`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requestStatus: { success: true, version: 'v1' }, pickupLocations: [] });
    const unknown = await t.call('GET', '/v1/products/PNOPE00/pickups');
    expect(unknown.status).toBe(404);
    expect(unknown.body.requestStatus.error.errorCode).toBe('NOT_FOUND');
  });

  it('loads a product pickup list for other engine code (bookings)', async () => {
    const list = await createList();
    const withList = await createProduct({ pickupId: list.id });
    const without = await createProduct();
    expect(await loadProductPickupList(t.engine.ctx.db, withList.productCode)).toEqual(list);
    expect(await loadProductPickupList(t.engine.ctx.db, without.productCode)).toBeNull();
  });

  it('refuses to delete a list a product uses with 409 IN_USE and changes nothing; an unused list is deleted', async () => {
    const list = await createList();
    const product = await createProduct({ pickupId: list.id });
    const before = t.snapshot(...TABLES);
    const res = await t.call('DELETE', `/v1/pickups/${list.id}`);
    expect(res.status).toBe(409);
    expect(res.body.requestStatus.error.errorCode).toBe('IN_USE');
    expect(res.body.requestStatus.error.errorMessage).toContain(product.productCode);
    expect(t.snapshot(...TABLES)).toEqual(before);
    await t.call('DELETE', `/v1/products/${product.productCode}`);
    expect((await t.call('DELETE', `/v1/pickups/${list.id}`)).status).toBe(200);
    expect((await t.call('GET', `/v1/pickups/${list.id}`)).status).toBe(404);
    expect(t.sql.prepare('SELECT COUNT(*) AS n FROM pickup_locations WHERE pickup_list_id = ?').get(list.id)).toEqual({ n: 0 });
  });

  it('lets agents read pickup lists but not change them, and checkin keys neither', async () => {
    const list = await createList();
    expect((await t.call('GET', `/v1/pickups/${list.id}`, { role: 'agent' })).status).toBe(200);
    expect((await t.call('GET', '/v1/pickups', { role: 'agent' })).status).toBe(200);
    const before = t.snapshot(...TABLES);
    for (const role of ['agent', 'checkin'] as const) {
      expect((await t.call('POST', '/v1/pickups', { role, body: aPickupList() })).status).toBe(403);
      expect((await t.call('PUT', `/v1/pickups/${list.id}`, { role, body: aPickupList({ pickupLocations: [] }) })).status).toBe(403);
      const del = await t.call('DELETE', `/v1/pickups/${list.id}`, { role });
      expect(del.status).toBe(403);
      expect(del.body.requestStatus.error.errorCode).toBe('FORBIDDEN');
    }
    expect((await t.call('GET', '/v1/pickups', { role: 'checkin' })).status).toBe(403);
    expect(t.snapshot(...TABLES)).toEqual(before);
  });
});
