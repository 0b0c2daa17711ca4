import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedUnchanged } from '../../fixtures/refusals';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aProduct, aVoucher, insertCategory, insertRedemption } from '../../fixtures/builders';

let t: TestApp;
let walk: string;
let categoryId: number;
let redemptionId = 900_001;
const TABLES = ['vouchers', 'voucher_redemptions', 'op_log'];
const START = '2030-01-01T00:00:00Z';

beforeAll(async () => {
  t = await startTestApp();
  walk = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product.productCode;
  categoryId = insertCategory(t.sql, 777_001);
});
afterAll(() => t.close());
afterEach(() => t.clock.set(START));

const create = async (body: object) => {
  const res = await t.call('POST', '/v1/vouchers', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.voucher;
};
const get = async (code: string, role: 'supplier' | 'agent' = 'supplier') => (await t.call('GET', `/v1/vouchers/${code}`, { role })).body.voucher;
const redeem = (code: string, amountMinor: number, reversedAt?: number) => insertRedemption(t.sql, code, amountMinor, { id: redemptionId++, reversedAt });

const expectRefused = (status: number, call: () => Promise<{ status: number; body: any }>, code = 'VALIDATION_ERROR') => expectRefusedUnchanged(t, TABLES, status, call, code);

describe('creating vouchers', () => {
  it('creates a VALUE voucher with a generated readable code and answers it in the spec shape', async () => {
    const voucher = await create(aVoucher({ internalNotes: 'Apology for the rain', internalReference: 'AGENT-7' }));
    expect(voucher.code).toMatch(/^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{10}$/);
    expect(voucher).toEqual({
      code: voucher.code,
      status: 'ISSUED',
      issueDate: '2030-01-01T00:00:00Z',
      expiryDate: null,
      value: 50,
      valueType: 'VALUE',
      sourceOrder: null,
      internalNotes: 'Apology for the rain',
      internalReference: 'AGENT-7',
      remainingValue: 50,
      currency: 'AUD',
    });
    expect(await get(voucher.code)).toEqual(voucher);
  });

  it('creates one voucher of every value type with the fields each needs', async () => {
    const cases: [object, object][] = [
      [{ valueType: 'VALUE_LIMITPRODUCT', value: 20, productCode: walk }, { value: 20, remainingValue: 20, productCode: walk }],
      [{ valueType: 'VALUE_LIMITCATALOG', value: '15.50', categoryId: String(categoryId) }, { value: 15.5, remainingValue: 15.5, categoryId }],
      [{ valueType: 'PERCENT', value: 10 }, { value: 10 }],
      [{ valueType: 'PERCENT_LIMITPRODUCT', value: 100, productCode: walk }, { value: 100, productCode: walk }],
      [{ valueType: 'PERCENT_LIMITCATALOG', value: 12.5, categoryId }, { value: 12.5, categoryId }],
      [{ valueType: 'PRODUCT', productCode: walk }, { productCode: walk }],
    ];
    for (const [body, expected] of cases) {
      const voucher = await create(body);
      expect(voucher, JSON.stringify(body)).toMatchObject({ status: 'ISSUED', valueType: (body as any).valueType, ...expected });
      if (!(body as any).valueType.startsWith('VALUE')) expect(voucher.remainingValue).toBeUndefined();
      if ((body as any).valueType === 'PRODUCT') expect(voucher.value).toBeUndefined();
    }
  });

  it('keeps a given code (upper-cased), finds it in any case, and stores only the fields its type uses', async () => {
    const voucher = await create({ code: 'summer-2030', valueType: 'PERCENT', value: 5, productCode: walk, categoryId, somethingNew: true });
    expect(voucher.code).toBe('SUMMER-2030');
    expect(voucher.productCode).toBeUndefined();
    expect(voucher.categoryId).toBeUndefined();
    expect((await get('Summer-2030')).code).toBe('SUMMER-2030');
  });

  it('uses the currency sent, with its own minor digits (KWD has three, JPY none)', async () => {
    expect(await create(aVoucher({ value: 12.345, currency: 'KWD' }))).toMatchObject({ value: 12.345, remainingValue: 12.345, currency: 'KWD' });
    expect(await create(aVoucher({ value: 5000, currency: 'JPY' }))).toMatchObject({ value: 5000, currency: 'JPY' });
    const row = t.sql.prepare("SELECT value_minor FROM vouchers WHERE currency = 'KWD'").get() as { value_minor: number };
    expect(row.value_minor).toBe(12345);
  });

  it('takes the expiry as a date (valid through that day in the company timezone), a local time or an ISO instant', async () => {
    // Australia/Sydney is UTC+10 on 30 June.
    expect((await create(aVoucher({ expiryDate: '2030-06-30' }))).expiryDate).toBe('2030-06-30T13:59:59.999Z');
    expect((await create(aVoucher({ expiryDate: '2030-06-30 18:00:00' }))).expiryDate).toBe('2030-06-30T08:00:00Z');
    expect((await create(aVoucher({ expiryDate: '2030-06-30T18:00:00Z' }))).expiryDate).toBe('2030-06-30T18:00:00Z');
  });

  const invalid: [string, object, string?][] = [
    ['an unknown valueType', { valueType: 'FREEBIE', value: 5 }],
    ['a lower-case valueType', { valueType: 'value', value: 5 }],
    ['a VALUE voucher without value', { valueType: 'VALUE' }],
    ['a VALUE voucher worth 0', { valueType: 'VALUE', value: 0 }],
    ['a negative VALUE voucher', { valueType: 'VALUE_LIMITPRODUCT', value: -5, productCode: 'X' }],
    ['a value below the smallest unit of its currency', { valueType: 'VALUE', value: 0.4, currency: 'JPY' }],
    ['a PERCENT voucher without value', { valueType: 'PERCENT' }],
    ['a PERCENT voucher of 0', { valueType: 'PERCENT', value: 0 }],
    ['a PERCENT voucher above 100', { valueType: 'PERCENT_LIMITPRODUCT', value: 100.01, productCode: 'X' }],
    ['a VALUE_LIMITPRODUCT voucher without productCode', { valueType: 'VALUE_LIMITPRODUCT', value: 5 }],
    ['a PERCENT_LIMITPRODUCT voucher naming an unknown product', { valueType: 'PERCENT_LIMITPRODUCT', value: 5, productCode: 'PNOPE00' }],
    ['a PRODUCT voucher without productCode', { valueType: 'PRODUCT' }],
    ['a PRODUCT voucher naming an unknown product', { valueType: 'PRODUCT', productCode: 'PNOPE00' }],
    ['a VALUE_LIMITCATALOG voucher without categoryId', { valueType: 'VALUE_LIMITCATALOG', value: 5 }],
    ['a PERCENT_LIMITCATALOG voucher naming an unknown category', { valueType: 'PERCENT_LIMITCATALOG', value: 5, categoryId: 999_999 }],
    ['an expiry in the past', { valueType: 'VALUE', value: 5, expiryDate: '2029-12-31T23:59:59Z' }],
    ['an expiry that is not a time', { valueType: 'VALUE', value: 5, expiryDate: 'next summer' }, 'INVALID_TIME'],
    ['a code with spaces', { valueType: 'VALUE', value: 5, code: 'NO SPACES' }],
    ['a code chosen by hand with fewer than 8 letters or digits', { valueType: 'VALUE', value: 5, code: 'SALE-10' }],
    ['a code chosen by hand of digits only', { valueType: 'VALUE', value: 5, code: '20300101' }],
    ['a code chosen by hand with fewer than 5 different characters', { valueType: 'VALUE', value: 5, code: 'ABAB-ABAB-1' }],
    ['an unknown currency', { valueType: 'VALUE', value: 5, currency: 'XXX' }],
    ['a value that is not a number', { valueType: 'VALUE', value: 'lots' }],
  ];
  it.each(invalid)('refuses %s with 400 and writes nothing', async (_name, body, code = 'VALIDATION_ERROR') => {
    await expectRefused(400, () => t.call('POST', '/v1/vouchers', { body }), code);
  });

  it('names the rule when it refuses a code chosen by hand, and takes strong and generated codes', async () => {
    for (const code of ['SALE10', 'AAAA-AAAA-AAAA', '12345678', 'ab-ab-ab-ab-ab']) {
      const message = await expectRefused(400, () => t.call('POST', '/v1/vouchers', { body: aVoucher({ code }) }));
      expect(message).toMatch(/at least 8 letters or digits .* at least 5 of them different, and not only digits/);
    }
    expect((await create(aVoucher({ code: 'Harbour-2030' }))).code).toBe('HARBOUR-2030');
    for (let i = 0; i < 20; i++) expect((await create(aVoucher())).code).toMatch(/^[0-9A-Z]{10}$/);
  });

  it('refuses a code that exists already (in any case) with 409 and writes nothing', async () => {
    await create(aVoucher({ code: 'TAKEN0123' }));
    await expectRefused(409, () => t.call('POST', '/v1/vouchers', { body: aVoucher({ code: 'taken0123', value: 99 }) }), 'DUPLICATE');
    expect((await get('TAKEN0123')).value).toBe(50);
  });

  it('also finds a code another writer stored in lower case', async () => {
    t.sql.prepare("INSERT INTO vouchers (code, value_type, value_minor, currency, issue_at, created_at, updated_at) VALUES ('gift-lower', 'VALUE', 1000, 'AUD', 0, 0, 0)").run();
    expect(await get('gift-lower')).toMatchObject({ code: 'gift-lower', value: 10, status: 'ISSUED' });
  });

  it('answers 404 with the envelope for an unknown code', async () => {
    const res = await t.call('GET', '/v1/vouchers/NOSUCHCODE');
    expect(res.status).toBe(404);
    expect(res.body.requestStatus.error).toMatchObject({ errorCode: 'NOT_FOUND' });
    expect(res.body.requestStatus.error.errorMessage).toContain('NOSUCHCODE');
  });
});

describe('voucher status', () => {
  it('is PARTIALLY_REDEEMED while part of a VALUE voucher is used, then REDEEMED when it is used up', async () => {
    const { code } = await create(aVoucher({ value: 50 }));
    redeem(code, 2000);
    expect(await get(code)).toMatchObject({ status: 'PARTIALLY_REDEEMED', value: 50, remainingValue: 30 });
    redeem(code, 3000);
    expect(await get(code)).toMatchObject({ status: 'REDEEMED', remainingValue: 0 });
  });

  it('gives value back when a redemption is reversed', async () => {
    const { code } = await create(aVoucher({ value: 50 }));
    redeem(code, 5000, Date.parse(START));
    expect(await get(code)).toMatchObject({ status: 'ISSUED', remainingValue: 50 });
    redeem(code, 5000);
    expect((await get(code)).status).toBe('REDEEMED');
    t.sql.prepare('UPDATE voucher_redemptions SET reversed_at = 1 WHERE voucher_code = ? AND reversed_at IS NULL').run(code);
    expect(await get(code)).toMatchObject({ status: 'ISSUED', remainingValue: 50 });
  });

  it('is EXPIRED after the expiry with value left, but stays REDEEMED when used up before', async () => {
    const left = await create(aVoucher({ value: 50, expiryDate: '2030-03-01T00:00:00Z' }));
    const used = await create(aVoucher({ value: 50, expiryDate: '2030-03-01T00:00:00Z' }));
    redeem(left.code, 1000);
    redeem(used.code, 5000);
    expect((await get(left.code)).status).toBe('PARTIALLY_REDEEMED');
    t.clock.set('2030-03-01T00:00:00Z');
    expect((await get(left.code)).status).toBe('PARTIALLY_REDEEMED'); // valid through the expiry instant itself
    t.clock.set('2030-03-01T00:00:01Z');
    expect(await get(left.code)).toMatchObject({ status: 'EXPIRED', remainingValue: 40 });
    expect((await get(used.code)).status).toBe('REDEEMED');
  });

  it('uses PERCENT and PRODUCT vouchers up with one redemption, and expires them unused', async () => {
    const percent = await create({ valueType: 'PERCENT', value: 10, expiryDate: '2030-02-01T00:00:00Z' });
    const product = await create({ valueType: 'PRODUCT', productCode: walk, expiryDate: '2030-02-01T00:00:00Z' });
    redeem(percent.code, 1234);
    expect((await get(percent.code)).status).toBe('REDEEMED');
    expect((await get(product.code)).status).toBe('ISSUED');
    t.sql.prepare('UPDATE voucher_redemptions SET reversed_at = 1 WHERE voucher_code = ?').run(percent.code);
    expect((await get(percent.code)).status).toBe('ISSUED');
    t.clock.set('2030-02-02T00:00:00Z');
    expect((await get(percent.code)).status).toBe('EXPIRED');
    expect((await get(product.code)).status).toBe('EXPIRED');
  });

  it('shows the derived status in search results too', async () => {
    const { code } = await create(aVoucher({ value: 50, internalReference: 'STATUS-IN-SEARCH' }));
    redeem(code, 100);
    const found = (await t.call('GET', '/v1/vouchers?search=STATUS-IN-SEARCH')).body.vouchers;
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ code, status: 'PARTIALLY_REDEEMED', remainingValue: 49 });
  });
});

describe('voucher search', () => {
  it('finds vouchers by code, internal reference, internal notes and source order; nothing found is an empty list', async () => {
    const byCode = await create(aVoucher({ code: 'FINDME-CODE' }));
    const byRef = await create(aVoucher({ internalReference: 'REF-FINDME' }));
    const byNotes = await create(aVoucher({ internalNotes: 'given at the findme fair' }));
    const bySource = await create(aVoucher());
    t.sql.prepare("UPDATE vouchers SET source_order = 'ORD-FINDME' WHERE code = ?").run(bySource.code);
    const found = (await t.call('GET', '/v1/vouchers?search=findme')).body.vouchers.map((v: any) => v.code);
    expect(found.sort()).toEqual([byCode.code, byRef.code, byNotes.code, bySource.code].sort());
    expect((await get(bySource.code)).sourceOrder).toBe('ORD-FINDME');
    const none = await t.call('GET', '/v1/vouchers?search=nothing-like-this');
    expect(none.status).toBe(200);
    expect(none.body.vouchers).toEqual([]);
  });

  it('pages newest first, clamps a limit above 100, accepts a trailing slash and ignores empty parameters', async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.clock.advance(60_000);
      made.push((await create(aVoucher({ internalReference: 'PAGED' }))).code);
    }
    const page = (await t.call('GET', '/v1/vouchers?search=PAGED&limit=1&offset=1')).body.vouchers.map((v: any) => v.code);
    expect(page).toEqual([made[1]]);
    const all = await t.call('GET', '/v1/vouchers?limit=100');
    const clamped = await t.call('GET', '/v1/vouchers/?limit=1000000&search=&offset');
    expect(clamped.status).toBe(200);
    expect(clamped.body.vouchers).toEqual(all.body.vouchers);
    expect(all.body.vouchers.length).toBeGreaterThan(10);
    for (const q of ['limit=-1', 'limit=x', 'offset=-1']) expect((await t.call('GET', `/v1/vouchers?${q}`)).status, q).toBe(400);
  });
});

describe('vouchers and roles', () => {
  it('lets agents read vouchers they sold without the supplier-only internal notes, and not search those notes', async () => {
    // Agents see only vouchers their own bookings issued (issue 19): a gift card the agent sold, annotated by the supplier.
    const card = (await t.call('POST', '/v1/products', { body: aProduct({ productType: 'GIFT_CARD', bookingMode: 'NO_DATE', priceOptions: [{ label: 'Card', price: 30 }] }) })).body.product;
    const sold = await t.call('POST', '/v1/bookings', { role: 'agent', body: { customer: { firstName: 'Ada' }, items: [{ productCode: card.productCode, quantities: [{ value: 1 }] }] } });
    const voucher = sold.body.booking.items[0].vouchers[0];
    t.sql.prepare("UPDATE vouchers SET internal_notes = 'secret-agentnote', internal_reference = 'AGENT-REF' WHERE code = ?").run(voucher.code);
    const seen = await get(voucher.code, 'agent');
    expect(seen.code).toBe(voucher.code);
    expect(seen.internalReference).toBe('AGENT-REF');
    expect('internalNotes' in seen).toBe(false);
    expect((await t.call('GET', '/v1/vouchers?search=secret-agentnote', { role: 'agent' })).body.vouchers).toEqual([]);
    const byRef = (await t.call('GET', '/v1/vouchers?search=AGENT-REF', { role: 'agent' })).body.vouchers;
    expect(byRef.map((v: any) => v.code)).toEqual([voucher.code]);
    expect('internalNotes' in byRef[0]).toBe(false);
  });

  it('refuses voucher creation to agents and checkin keys, and reading to checkin keys, with 403', async () => {
    const voucher = await create(aVoucher());
    await expectRefused(403, () => t.call('POST', '/v1/vouchers', { role: 'agent', body: aVoucher() }), 'FORBIDDEN');
    await expectRefused(403, () => t.call('POST', '/v1/vouchers', { role: 'checkin', body: aVoucher() }), 'FORBIDDEN');
    await expectRefused(403, () => t.call('GET', `/v1/vouchers/${voucher.code}`, { role: 'checkin' }), 'FORBIDDEN');
    await expectRefused(403, () => t.call('GET', '/v1/vouchers', { role: 'checkin' }), 'FORBIDDEN');
    expect((await t.call('GET', '/v1/vouchers', { role: null })).status).toBe(401);
  });
});
