import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { fingerprint, sendRaw } from '../../fixtures/fuzz';
import { createFixtures } from '../../fixtures/fuzzFixtures';
import { aProduct } from '../../fixtures/builders';

/** Bugs the fuzz tests (fuzz-bodies, fuzz-params) found, each pinned by name. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const expectEnvelope = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.requestStatus.success).toBe(false);
  expect(res.body.requestStatus.error.errorCode).toBe(code);
  expect(res.body.requestStatus.error.errorMessage.length).toBeGreaterThan(10);
};

describe('fuzz regressions', () => {
  it('answers a path segment that is not valid percent-encoded UTF-8 with a 400 envelope, not fastify’s own body', async () => {
    const before = fingerprint(t.engine.ctx.handle.sqlite);
    for (const method of ['GET', 'PUT', 'DELETE']) expectEnvelope(await t.call(method, '/v1/rates/%C0%AF'), 400, 'VALIDATION_ERROR');
    expectEnvelope(await t.call('GET', '/v1/products/%ED%A0%80'), 400, 'VALIDATION_ERROR');
    expect(fingerprint(t.engine.ctx.handle.sqlite)).toEqual(before);
  });

  it('answers a path parameter longer than 500 characters with a 414 envelope', async () => {
    expectEnvelope(await t.call('GET', `/v1/products/${'x'.repeat(600)}`), 414, 'VALIDATION_ERROR');
    expectEnvelope(await t.call('DELETE', `/v1/customers/${'9'.repeat(600)}`), 414, 'VALIDATION_ERROR');
  });

  it('refuses a booking or quote for a quantity of a billion with a 400, instead of allocating a participant per unit until the process runs out of memory', async () => {
    const f = await createFixtures(t);
    const item = (value: number) => ({ productCode: f.productCode, startTimeLocal: f.startTimeLocal, quantities: [{ optionLabel: 'Adult', value }] });
    const before = fingerprint(t.engine.ctx.handle.sqlite);
    for (const value of [1_000_000_000, 1e15, 1001]) {
      for (const url of ['/v1/bookings/quote', '/v1/bookings']) {
        const res = await t.call('POST', url, { body: { customer: { firstName: 'Ada' }, items: [item(value)] } });
        expectEnvelope(res, 400, 'VALIDATION_ERROR');
        // Beyond int32 (1e15) the request schema refuses the value itself, naming it (docs/api.md, Platform).
        expect(res.body.requestStatus.error.errorMessage).toMatch(/items\[0\]: a total quantity of .* is more than the 1000|items\[0\]\.quantities\[0\]\.value: must be at most 2147483647/);
      }
    }
    expect(fingerprint(t.engine.ctx.handle.sqlite)).toEqual(before);
    // Split over two price options the total counts: 600 + 600 is refused too.
    const split = { ...item(600), quantities: [{ optionLabel: 'Adult', value: 600 }, { optionLabel: 'Child', value: 600 }] };
    expectEnvelope(await t.call('POST', '/v1/bookings/quote', { body: { items: [split] } }), 400, 'VALIDATION_ERROR');
  });

  it('refuses an image upload whose multipart form has no boundary or is cut off with a 400 envelope, not a 500', async () => {
    const f = await createFixtures(t);
    const url = `/v1/products/${f.productCode}/images`;
    const before = fingerprint(t.engine.ctx.handle.sqlite);
    const cutOff = '--xx\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc';
    for (const [contentType, payload] of [['multipart/form-data', 'abc'], ['multipart/form-data; boundary=xx', cutOff]]) {
      const res = await sendRaw(t, 'POST', url, contentType, payload);
      expectEnvelope(res, 400, 'VALIDATION_ERROR');
      expect(res.body.requestStatus.error.errorMessage).toMatch(/multipart\/form-data body is malformed/);
    }
    expect(fingerprint(t.engine.ctx.handle.sqlite)).toEqual(before);
  });

  it('refuses an extra quantity beyond 1000, and a booking whose total passes 2^53 minor units, with a 400 instead of a 500 or a silently rounded total', async () => {
    const f = await createFixtures(t);
    const item = { productCode: f.productCode, startTimeLocal: f.startTimeLocal, quantities: [{ optionLabel: 'Adult', value: 1 }] };
    const before = fingerprint(t.engine.ctx.handle.sqlite);
    // Beyond int32 (9e15, 1e13) the request schema refuses the quantity itself (docs/api.md, Platform).
    for (const quantity of [9e15, 1e13, 1001]) {
      for (const url of ['/v1/bookings/quote', '/v1/bookings']) {
        const res = await t.call('POST', url, { body: { customer: { firstName: 'Ada' }, items: [{ ...item, extras: [{ id: f.extraId, quantity }] }] } });
        expectEnvelope(res, 400, 'VALIDATION_ERROR');
        expect(res.body.requestStatus.error.errorMessage).toMatch(/extras\[0\]: a quantity of .* is more than the 1000|extras\[0\]\.quantity: must be at most 2147483647|items\[0\]\.extras: has the wrong type or value/);
      }
    }
    expect(fingerprint(t.engine.ctx.handle.sqlite)).toEqual(before);
    const pricey = (await t.call('POST', '/v1/products', { body: aProduct({ name: 'Yacht for a year', bookingMode: 'NO_DATE', priceOptions: [{ label: 'Adult', price: 90_000_000_000_000 }] }) })).body.product;
    const mark = fingerprint(t.engine.ctx.handle.sqlite);
    const res = await t.call('POST', '/v1/bookings', { body: { customer: { firstName: 'Ada' }, items: [{ productCode: pricey.productCode, quantities: [{ optionLabel: 'Adult', value: 1000 }] }] } });
    expectEnvelope(res, 400, 'VALIDATION_ERROR');
    expect(res.body.requestStatus.error.errorMessage).toMatch(/items\[0\]: the item's total of .* minor units is too large/);
    expect(fingerprint(t.engine.ctx.handle.sqlite)).toEqual(mark);
  });
});
