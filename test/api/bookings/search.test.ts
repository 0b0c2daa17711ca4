import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, aProduct, aSessionRow } from '../../fixtures/builders';

let t: TestApp;
let walk: string;
let cruise: string;
const orders: Record<string, string> = {};
beforeAll(async () => {
  t = await startTestApp();
  walk = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product.productCode;
  cruise = (await t.call('POST', '/v1/products', { body: aProduct({ name: 'Cruise' }) })).body.product.productCode;
  // Sydney is UTC+11 in January: 2030-01-10T00:00Z is 11:00 local on the 10th.
  aSessionRow(t.sql, { productCode: walk, startAt: '2030-01-10T00:00:00Z' });
  aSessionRow(t.sql, { productCode: cruise, startAt: '2030-01-20T00:00:00Z' });
  const make = async (name: string, productCode: string, startTime: string, overrides: Record<string, unknown> = {}) => {
    const body = aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], overrides);
    orders[name] = (await t.call('POST', '/v1/bookings', { body })).body.booking.orderNumber;
    t.clock.advance(3600_000);
  };
  await make('ada', walk, '2030-01-10T00:00:00Z');
  await make('bob', cruise, '2030-01-20T00:00:00Z', { customer: { firstName: 'Bob', lastName: 'Builder', email: 'bob@build.test', phone: '555-0199' }, resellerReference: 'AGENT-7' });
  await make('cat', walk, '2030-01-10T00:00:00Z', { customer: { firstName: 'Cat', lastName: 'Stevens' }, status: 'PROCESSING' });
  await t.call('DELETE', `/v1/bookings/${orders.ada}`);
});
afterAll(() => t.close());

const search = async (query: string) => {
  const res = await t.call('GET', `/v1/bookings${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.bookings.map((b: any) => b.orderNumber);
};

describe('search bookings', () => {
  it('lists every booking ordered by dateCreated then orderNumber, with stable paging', async () => {
    expect(await search('')).toEqual([orders.ada, orders.bob, orders.cat]);
    expect(await search('?limit=2')).toEqual([orders.ada, orders.bob]);
    expect(await search('?limit=2&offset=2')).toEqual([orders.cat]);
    expect(await search('?limit=1000')).toHaveLength(3);
  });

  it('filters by orderStatus, resellerReference and productCode (repeatable)', async () => {
    expect(await search('?orderStatus=CANCELLED')).toEqual([orders.ada]);
    expect(await search('?orderStatus=PROCESSING')).toEqual([orders.cat]);
    expect(await search('?resellerReference=AGENT-7')).toEqual([orders.bob]);
    expect(await search(`?productCode=${cruise}`)).toEqual([orders.bob]);
    expect(await search(`?productCode=${cruise}&productCode=${walk}`)).toEqual([orders.ada, orders.bob, orders.cat]);
  });

  it('searches order number, customer name, email and phone', async () => {
    expect(await search(`?search=${orders.bob}`)).toEqual([orders.bob]);
    expect(await search('?search=Bob%20Builder')).toEqual([orders.bob]);
    expect(await search('?search=stevens')).toEqual([orders.cat]);
    expect(await search('?search=build.test')).toEqual([orders.bob]);
    expect(await search('?search=555-0199')).toEqual([orders.bob]);
    expect(await search('?search=nobody')).toEqual([]);
  });

  it('filters by tour start time; a date-only max bound covers the whole day', async () => {
    expect(await search('?minTourStartTime=2030-01-15')).toEqual([orders.bob]);
    expect(await search('?maxTourStartTime=2030-01-10')).toEqual([orders.ada, orders.cat]);
    expect(await search('?minTourStartTime=2030-01-10%2011:00:00&maxTourStartTime=2030-01-10%2011:00:00')).toEqual([orders.ada, orders.cat]);
    expect(await search('?minTourStartTime=2030-01-20T00:00:00Z')).toEqual([orders.bob]);
    expect(await search('?maxTourStartTime=2030-01-20T10:59:00 11:00')).toEqual([orders.ada, orders.cat]);
  });

  it('filters by creation and update time', async () => {
    expect(await search('?minDateCreated=2030-01-01T01:00:00Z')).toEqual([orders.bob, orders.cat]);
    expect(await search('?maxDateCreated=2030-01-01T00:30:00Z')).toEqual([orders.ada]);
    expect(await search('?updatedSince=2030-01-01T03:00:00Z')).toEqual([orders.ada]);
  });

  it('refuses a bad time, status or limit with 400', async () => {
    for (const query of ['?minTourStartTime=yesterday', '?orderStatus=DONE', '?limit=-1']) {
      const res = await t.call('GET', `/v1/bookings${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.requestStatus.error.errorMessage).toBeTruthy();
    }
  });
});
