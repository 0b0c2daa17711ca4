import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aProduct } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const create = async (overrides = {}) => {
  const res = await t.call('POST', '/v1/products', { body: aProduct(overrides) });
  expect(res.status).toBe(200);
  return res.body.product;
};

describe('products', () => {
  it('creates a product with a generated readable code and answers 200 with the product', async () => {
    const product = await create();
    expect(product.productCode).toMatch(/^P[0-9A-Z]{6}$/);
    expect(product.priceOptions.map((o: any) => o.label)).toEqual(['Adult', 'Child']);
    expect(product.priceOptions[0].id).toBeGreaterThan(0);
    expect(product.supplierAlias).toBe('testtours');
    expect(product.timezone).toBe('Australia/Sydney');
  });

  it('round-trips every field of the spec', async () => {
    const body = aProduct({
      internalCode: 'OTW-1',
      additionalInformation: 'Bring ID',
      generalTerms: 'General terms',
      terms: 'Product terms',
      advertisedPrice: 49.95,
      currency: 'EUR',
      bookingMode: 'DATE_ENQUIRY',
      confirmMode: 'MANUAL_THEN_AUTO',
      confirmModeMinParticipants: 4,
      agentPaymentType: 'FULL_AGENT',
      cancellationPolicyDays: 3,
      barcodeOutputType: 'ORDER',
      qrCodeType: 'INTERNAL',
      charter: true,
      quantityRequired: false,
      quantityRequiredMin: 1,
      quantityRequiredMax: 8,
      durationMinutes: 90,
      minimumNoticeMinutes: 60,
      waitListingEnabled: true,
      apiBookingSupported: true,
      commissionIncludesExtras: false,
      maxCommissionNetRate: 10.5,
      maxCommissionPercent: 20,
      bookingFields: [{ fieldType: 'List', label: 'Diet', listOptions: 'None\r\nVegan', requiredPerParticipant: true, visiblePerParticipant: true }],
      videos: [{ id: 'v1', platform: 'YOUTUBE', url: 'https://video.example/v1' }],
      languages: ['en_AU', 'de'],
      tags: ['TYPE:WALK'],
      locationAddress: { addressLine: '1 Quay St', city: 'Sydney', countryCode: 'AU', postCode: '2000', state: 'NSW', latitude: -33.86, longitude: 151.21 },
      productSeoTags: [{ attrKey: 'description', attrValue: 'Old town walk', metaType: 'META_NAME' }],
      taxes: [{ label: 'GST', taxPercent: 10, priceInclusive: true, compound: false, taxType: 'GST' }],
      timezone: 'Europe/Berlin',
      unitLabel: 'walker',
      unitLabelPlural: 'walkers',
      accountingAccount: '4000',
      priceOptions: [{ label: 'Group', price: 199.99, priceGroupType: 'TOTAL', minQuantity: 2, maxQuantity: 6, seatsUsed: 1 }],
    });
    const created = await create(body);
    const fetched = (await t.call('GET', `/v1/products/${created.productCode}`)).body.product;
    const { priceOptions, ...rest } = body;
    for (const [key, value] of Object.entries(rest)) expect(fetched[key], key).toEqual(value);
    expect(fetched.priceOptions[0]).toMatchObject({ ...priceOptions![0], productCode: created.productCode });
  });

  it('accepts numbers and booleans sent as strings, and the brand word xeroAccount', async () => {
    const product = await create({ advertisedPrice: '200.00' as never, charter: 'true' as never, xeroAccount: '4100' } as never);
    expect(product.advertisedPrice).toBe(200);
    expect(product.charter).toBe(true);
    expect(product.accountingAccount).toBe('4100');
  });

  it('ignores unknown body fields but still refuses a wrong enum value', async () => {
    const ok = await t.call('POST', '/v1/products', { body: { ...aProduct(), somethingNew: 1 } });
    expect(ok.status).toBe(200);
    expect(ok.body.product.somethingNew).toBeUndefined();
    const bad = await t.call('POST', '/v1/products', { body: { ...aProduct(), productType: 'SPACEFLIGHT' } });
    expect(bad.status).toBe(400);
    expect(bad.body.requestStatus.error.errorMessage).toContain('productType');
  });

  const invalid: [string, object][] = [
    ['a short description under 15 characters', { shortDescription: 'Too short' }],
    ['a short description over 240 characters', { shortDescription: 'x'.repeat(241) }],
    ['a description under 100 characters', { description: 'Short' }],
    ['a description over 15000 characters', { description: 'x'.repeat(15001) }],
    ['an unknown bookingMode', { bookingMode: 'SOMETIMES' }],
    ['an unknown confirmMode', { confirmMode: 'MAYBE' }],
    ['an unknown agentPaymentType', { agentPaymentType: 'BARTER' }],
    ['an unknown barcodeOutputType', { barcodeOutputType: 'SEAT' }],
    ['an unknown qrCodeType', { qrCodeType: 'PRINTED' }],
    ['an unknown priceGroupType', { priceOptions: [{ label: 'A', price: 1, priceGroupType: 'SOME' }] }],
    ['an unknown currency', { currency: 'XXX' }],
    ['quantityRequiredMin above quantityRequiredMax', { quantityRequiredMin: 5, quantityRequiredMax: 2 }],
    ['two price options with the same label', { priceOptions: [{ label: 'Adult', price: 1 }, { label: 'adult', price: 2 }] }],
    ['a negative price', { priceOptions: [{ label: 'Adult', price: -1 }] }],
    ['a missing name', { name: '' }],
    ['an unknown timezone', { timezone: 'Mars/Olympus' }],
    ['an extra that does not exist', { extras: [{ id: 999999 }] }],
    ['a pickup list that does not exist', { pickupId: 424242 }],
  ];
  it.each(invalid)('refuses %s with a 400 envelope and writes nothing', async (_name, overrides) => {
    const before = t.snapshot('products', 'price_options', 'op_log');
    const res = await t.call('POST', '/v1/products', { body: { ...aProduct(), ...overrides } });
    expect(res.status).toBe(400);
    expect(res.body.requestStatus.success).toBe(false);
    expect(res.body.requestStatus.error.errorCode).toBe('VALIDATION_ERROR');
    expect(res.body.requestStatus.error.errorMessage.length).toBeGreaterThan(5);
    expect(t.snapshot('products', 'price_options', 'op_log')).toEqual(before);
  });

  it('refuses malformed JSON with a 400 envelope', async () => {
    const res = await t.call('POST', '/v1/products', { body: '{"name": ' });
    expect(res.status).toBe(400);
    expect(res.body.requestStatus.error.errorMessage).toMatch(/JSON/);
  });

  it('updates only the fields sent and keeps price option ids matched by label', async () => {
    const product = await create();
    const adultId = product.priceOptions[0].id;
    const res = await t.call('PUT', `/v1/products/${product.productCode}`, {
      body: { name: 'Old Town Night Walk', priceOptions: [{ label: 'Adult', price: 60 }, { label: 'Senior', price: 40 }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.product.name).toBe('Old Town Night Walk');
    expect(res.body.product.description).toBe(product.description);
    expect(res.body.product.priceOptions).toMatchObject([
      { id: adultId, label: 'Adult', price: 60 },
      { label: 'Senior', price: 40 },
    ]);
  });

  it('refuses an update that breaks a rule and leaves the product as it was', async () => {
    const product = await create({ quantityRequiredMax: 4 });
    const before = t.snapshot('products', 'price_options');
    const res = await t.call('PUT', `/v1/products/${product.productCode}`, { body: { quantityRequiredMin: 6 } });
    expect(res.status).toBe(400);
    expect(t.snapshot('products', 'price_options')).toEqual(before);
  });

  it('answers 404 with the envelope for an unknown product on get, update and delete', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await t.call(method, '/v1/products/PNOPE00', method === 'PUT' ? { body: { name: 'x' } } : {});
      expect(res.status, method).toBe(404);
      expect(res.body.requestStatus.error.errorCode).toBe('NOT_FOUND');
    }
  });

  it('searches by name and pages with limit and offset', async () => {
    await create({ name: 'Kayak Adventure Alpha' });
    await create({ name: 'Kayak Adventure Beta' });
    await create({ name: 'Kayak Adventure Gamma' });
    const all = (await t.call('GET', '/v1/products?search=Kayak%20Adventure')).body.products;
    expect(all.map((p: any) => p.name)).toEqual(['Kayak Adventure Alpha', 'Kayak Adventure Beta', 'Kayak Adventure Gamma']);
    const page = (await t.call('GET', '/v1/products?search=Kayak%20Adventure&limit=1&offset=1')).body.products;
    expect(page.map((p: any) => p.name)).toEqual(['Kayak Adventure Beta']);
    const none = await t.call('GET', '/v1/products?search=nothing-matches-this');
    expect(none.status).toBe(200);
    expect(none.body.products).toEqual([]);
  });

  it('lists only products bookable over the API on the marketplace', async () => {
    const hidden = await create({ name: 'Desk Only Tour', apiBookingSupported: false });
    const shown = await create({ name: 'Desk And API Tour', apiBookingSupported: true });
    const codes = (await t.call('GET', '/v1/products/marketplace?search=Desk')).body.products.map((p: any) => p.productCode);
    expect(codes).toContain(shown.productCode);
    expect(codes).not.toContain(hidden.productCode);
  });

  it('deletes a product without bookings; it is gone afterwards', async () => {
    const product = await create();
    expect((await t.call('DELETE', `/v1/products/${product.productCode}`)).status).toBe(200);
    expect((await t.call('GET', `/v1/products/${product.productCode}`)).status).toBe(404);
  });

  it('refuses to delete a product with an upcoming live booking', async () => {
    const product = await create();
    // A booking row written straight to the schema: the bookings API builds on the same tables.
    const db = t.sql;
    const start = t.clock.now().getTime() + 86_400_000;
    db.prepare("INSERT INTO bookings (order_number, id, status, currency, total_amount_minor, created_at, updated_at) VALUES ('T1', 901, 'CONFIRMED', 'AUD', 5000, 0, 0)").run();
    db.prepare('INSERT INTO booking_items (id, order_number, position, product_code, start_at, end_at, amount_minor, subtotal_minor, total_quantity) VALUES (902, ?, 0, ?, ?, ?, 5000, 5000, 1)').run('T1', product.productCode, start, start + 3_600_000);
    const res = await t.call('DELETE', `/v1/products/${product.productCode}`);
    expect(res.status).toBe(409);
    expect(res.body.requestStatus.error.errorCode).toBe('IN_USE');
    expect((await t.call('GET', `/v1/products/${product.productCode}`)).status).toBe(200);
  });

  it('lets agents read but not change the catalogue, and checkin keys neither', async () => {
    const product = await create();
    expect((await t.call('GET', `/v1/products/${product.productCode}`, { role: 'agent' })).status).toBe(200);
    const before = t.snapshot('products');
    const put = await t.call('PUT', `/v1/products/${product.productCode}`, { role: 'agent', body: { name: 'Hijacked' } });
    expect(put.status).toBe(403);
    expect(put.body.requestStatus.error.errorCode).toBe('FORBIDDEN');
    expect((await t.call('POST', '/v1/products', { role: 'agent', body: aProduct() })).status).toBe(403);
    expect((await t.call('GET', '/v1/products', { role: 'checkin' })).status).toBe(403);
    expect(t.snapshot('products')).toEqual(before);
  });
});
