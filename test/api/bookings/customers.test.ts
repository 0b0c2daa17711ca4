import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, aProduct, aSessionRow } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const FULL = {
  firstName: 'Grace',
  middleName: 'Brewster',
  lastName: 'Hopper',
  title: 'MS',
  gender: 'FEMALE',
  dob: '1906-12-09',
  email: 'grace@example.test',
  phone: '+1 555 0100',
  mobile: '+1 555 0101',
  fax: '+1 555 0102',
  messengerAlias: 'amazing.grace',
  companyName: 'Navy',
  addressLine: '1 Main St',
  addressLine2: 'Floor 2',
  city: 'Arlington',
  state: 'VA',
  postCode: '22201',
  countryCode: 'US',
  preferredLanguage: 'en',
  aboutUs: 'A friend',
  marketing: true,
  newsletter: false,
};

describe('customers', () => {
  it('creates a customer, round-trips every field and generates name from the parts', async () => {
    const created = await t.call('POST', '/v1/customers', { body: FULL });
    expect(created.status).toBe(200);
    const customer = created.body.customer;
    expect(customer.name).toBe('Grace Brewster Hopper');
    const fetched = (await t.call('GET', `/v1/customers/${customer.id}`)).body.customer;
    for (const [key, value] of Object.entries(FULL)) expect(fetched[key], key).toEqual(value);
  });

  it('accepts skype as messengerAlias and booleans as strings', async () => {
    const res = await t.call('POST', '/v1/customers', { body: { firstName: 'Sky', skype: 'sky.p', marketing: 'true' } });
    expect(res.body.customer.messengerAlias).toBe('sky.p');
    expect(res.body.customer.marketing).toBe(true);
  });

  it('refuses a wrong title, gender or country code with 400 and changes nothing', async () => {
    const before = t.snapshot('customers');
    for (const body of [{ firstName: 'X', title: 'DR' }, { firstName: 'X', gender: 'OTHER' }, { firstName: 'X', countryCode: 'USA' }, {}]) {
      const res = await t.call('POST', '/v1/customers', { body });
      expect(res.status).toBe(400);
      expect(res.body.requestStatus.error.errorMessage).toBeTruthy();
    }
    expect(t.snapshot('customers')).toEqual(before);
  });

  it('searches by name, email and phone with paging, and finds nothing with an empty list', async () => {
    await t.call('POST', '/v1/customers', { body: { firstName: 'Linus', lastName: 'Torvalds', email: 'linus@kernel.test', phone: '+358 1234' } });
    for (const search of ['Linus Torvalds', 'torvalds', 'kernel.test', '358 12']) {
      const res = await t.call('GET', `/v1/customers?search=${encodeURIComponent(search)}`);
      expect(res.body.customers.map((c: any) => c.lastName), search).toEqual(['Torvalds']);
    }
    expect((await t.call('GET', '/v1/customers?search=nobody-here')).body.customers).toEqual([]);
    const page = await t.call('GET', '/v1/customers?limit=1&offset=1');
    expect(page.body.customers).toHaveLength(1);
  });

  it('deletes a customer without bookings', async () => {
    const id = (await t.call('POST', '/v1/customers', { body: { firstName: 'Temp' } })).body.customer.id;
    const deleted = await t.call('DELETE', `/v1/customers/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.anonymised).toBe(false);
    const res = await t.call('GET', `/v1/customers/${id}`);
    expect(res.status).toBe(404);
    expect(res.body.requestStatus.error.errorCode).toBe('NOT_FOUND');
  });

  it('anonymises a customer with bookings instead of deleting, and keeps the bookings', async () => {
    const product = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product;
    aSessionRow(t.sql, { productCode: product.productCode, startAt: '2030-02-01T00:00:00Z' });
    const booking = (await t.call('POST', '/v1/bookings', { body: aBooking(product.productCode, '2030-02-01T00:00:00Z', [{ optionLabel: 'Adult', value: 1 }]) })).body.booking;
    const id = booking.customer.id;
    const erased = await t.call('DELETE', `/v1/customers/${id}`);
    expect(erased.status).toBe(200);
    expect(erased.body.anonymised).toBe(true);
    const customer = (await t.call('GET', `/v1/customers/${id}`)).body.customer;
    expect(customer).toMatchObject({ id, name: '', anonymised: true });
    expect(customer.email).toBeUndefined();
    const kept = (await t.call('GET', `/v1/bookings/${booking.orderNumber}`)).body.booking;
    expect(kept.status).toBe('CONFIRMED');
    expect((await t.call('GET', '/v1/customers?search=ada')).body.customers).toEqual([]);
  });

  it('answers 404 for an unknown customer and 400 for a non-numeric id', async () => {
    expect((await t.call('GET', '/v1/customers/999999999')).status).toBe(404);
    expect((await t.call('GET', '/v1/customers/abc')).status).toBe(400);
    expect((await t.call('DELETE', '/v1/customers/999999999')).status).toBe(404);
  });

  it('lets only supplier keys manage customers', async () => {
    for (const role of ['agent', 'checkin'] as const) {
      expect((await t.call('GET', '/v1/customers', { role })).status).toBe(403);
      expect((await t.call('POST', '/v1/customers', { role, body: { firstName: 'A' } })).status).toBe(403);
    }
    expect((await t.call('GET', '/v1/customers', { role: null })).status).toBe(401);
  });
});
