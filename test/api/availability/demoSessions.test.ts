import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { loadDemo } from '../../../main/demo';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  t.clock.set('2030-01-01T20:00:00Z'); // already 2 January in Sydney
  await loadDemo(t.engine);
});
afterAll(() => t.close());

describe('demo sessions', () => {
  it('creates a week of departures for the INVENTORY demo products from today in the company timezone', async () => {
    const products = (await t.call('GET', '/v1/products?limit=100')).body.products as any[];
    const code = (name: string) => products.find((p) => p.name === name).productCode;
    const cruise = (await t.call('GET', `/v1/availability?productCode=${code('Harbour Sunset Cruise')}&startTime=2030-01-01&endTime=2030-01-31`)).body.sessions;
    expect(cruise).toHaveLength(21);
    expect(cruise.slice(0, 3).map((s: any) => [s.startTimeLocal, s.seats])).toEqual([
      ['2030-01-02 09:00:00', 40],
      ['2030-01-02 13:00:00', 40],
      ['2030-01-02 17:30:00', 40],
    ]);
    expect(cruise[20].startTimeLocal).toBe('2030-01-08 17:30:00');
    const rainforest = (await t.call('GET', `/v1/availability?productCode=${code('Rainforest Day Tour')}&startTime=2030-01-01&endTime=2030-01-31`)).body.sessions;
    expect(rainforest.map((s: any) => s.startTimeLocal.slice(11))).toEqual(Array(7).fill('07:30:00'));
    expect(rainforest[0].seats).toBe(20);
    const charter = (await t.call('GET', `/v1/availability?productCode=${code('Private Reef Charter')}&startTime=2030-01-01&endTime=2030-01-31`)).body.sessions;
    expect(charter.map((s: any) => [s.startTimeLocal.slice(11), s.seats])).toEqual(Array(7).fill(['08:00:00', 10]));
    expect(t.snapshot('sessions')[0]).toHaveLength(35);
  });
});
