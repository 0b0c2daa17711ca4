import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aProduct } from '../../fixtures/builders';

/** Every search takes %, _ and \ in the text literally, not as LIKE wildcards. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  for (const name of ['Sale 50% Cruise', 'Sale 500 Cruise', 'Deck_A Tour', 'DeckBA Tour']) await t.call('POST', '/v1/products', { body: aProduct({ name }) });
  for (const lastName of ['O_Neil', 'OXNeil']) await t.call('POST', '/v1/customers', { body: { firstName: 'Pat', lastName } });
  for (const code of ['PROMO_100', 'PROMOX100']) await t.call('POST', '/v1/vouchers', { body: { code, valueType: 'VALUE', value: 10 } });
  for (const name of ['Agents_North', 'AgentsXNorth']) await t.call('POST', '/v1/rates', { body: { name } });
});
afterAll(() => t.close());

const names = (list: any[], key: string) => list.map((x) => x[key]);

describe('searches take wildcard characters literally', () => {
  it('products: "50%" finds only the name with a percent sign, "k_A" only the underscore', async () => {
    expect(names((await t.call('GET', '/v1/products?search=50%25')).body.products, 'name')).toEqual(['Sale 50% Cruise']);
    expect(names((await t.call('GET', '/v1/products?search=k_A')).body.products, 'name')).toEqual(['Deck_A Tour']);
  });

  it('customers, vouchers and rates: an underscore matches only an underscore', async () => {
    expect(names((await t.call('GET', '/v1/customers?search=O_Neil')).body.customers, 'lastName')).toEqual(['O_Neil']);
    expect(names((await t.call('GET', '/v1/vouchers?search=PROMO_')).body.vouchers, 'code')).toEqual(['PROMO_100']);
    expect(names((await t.call('GET', '/v1/rates/search?rateName=Agents_')).body.rates, 'name')).toEqual(['Agents_North']);
  });

  it('bookings: a customer name with an underscore is found, and only it', async () => {
    const productCode = (await t.call('POST', '/v1/products', { body: aProduct({ name: 'Search Walk' }) })).body.product.productCode;
    const { startTimeLocal } = (await t.call('POST', '/v1/availability', { body: { productCode, startTimeLocal: '2030-01-09 09:00:00', seats: 10 } })).body.session;
    for (const lastName of ['O_Neil', 'OXNeil']) {
      await t.call('POST', '/v1/bookings', { body: { customer: { firstName: 'Pat', lastName }, items: [{ productCode, startTimeLocal, quantities: [{ optionLabel: 'Adult', value: 1 }] }] } });
    }
    const found = (await t.call('GET', '/v1/bookings?search=O_Neil')).body.bookings;
    expect(found.map((b: any) => b.customer.lastName)).toEqual(['O_Neil']);
  });
});
