import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, aProduct } from '../../fixtures/builders';

let t: TestApp;
let productCode: string;
let startTime: string;
beforeAll(async () => {
  t = await startTestApp();
  productCode = (await t.call('POST', '/v1/products', { body: aProduct({ qrCodeType: 'EXTERNAL', barcodeOutputType: 'PARTICIPANT' }) })).body.product.productCode;
  startTime = (await t.call('POST', '/v1/availability', { body: { productCode, startTimeLocal: '2030-01-10 09:00:00', seats: 20 } })).body.session.startTime;
});
afterAll(() => t.close());

const TABLES = ['external_codes', 'op_log'];

describe('imported QR codes (qrCodeType EXTERNAL)', () => {
  it('imports codes, skips ones already known, and reports the stock', async () => {
    const res = await t.call('POST', `/v1/products/${productCode}/externalCodes`, { body: { codes: ['PARK-0001', 'PARK-0002', ' PARK-0003 ', '', 'PARK-0001'] } });
    expect(res.status).toBe(200);
    expect(res.body.externalCodes).toEqual({ productCode, total: 3, available: 3, imported: 3, skipped: [] });
    const again = await t.call('POST', `/v1/products/${productCode}/externalCodes`, { body: { codes: ['PARK-0003', 'PARK-0004'] } });
    expect(again.body.externalCodes).toMatchObject({ total: 4, available: 4, imported: 1, skipped: ['PARK-0003'] });
  });

  it('gives each participant of a booking one of the imported codes, and counts them as used', async () => {
    const booking = (await t.call('POST', '/v1/bookings', { body: aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]) })).body.booking;
    const codes = booking.items[0].participants.map((p: any) => p.barcode);
    expect(codes).toHaveLength(2);
    for (const code of codes) expect(['PARK-0001', 'PARK-0002', 'PARK-0003', 'PARK-0004']).toContain(code);
    expect(new Set(codes).size).toBe(2);
    expect((await t.call('GET', `/v1/products/${productCode}/externalCodes`)).body.externalCodes).toMatchObject({ total: 4, available: 2 });
  });

  const refusals: [string, unknown, number][] = [
    ['an empty list', { codes: [] }, 400],
    ['only blank codes', { codes: ['  ', ''] }, 400],
    ['a code with a space inside', { codes: ['GOOD-0001', 'BAD CODE'] }, 400],
    ['a code that is too short', { codes: ['abc'] }, 400],
    ['codes that are not strings', { codes: [12345678] }, 400],
  ];
  it.each(refusals)('refuses %s with a 4xx envelope and imports nothing', async (_name, body, status) => {
    const before = t.snapshot(...TABLES);
    const res = await t.call('POST', `/v1/products/${productCode}/externalCodes`, { body });
    expect(res.status).toBe(status);
    expect(res.body.requestStatus.error.errorMessage).toMatch(/code/);
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('answers 404 for an unknown product and 403 for agent and checkin keys', async () => {
    expect((await t.call('POST', '/v1/products/PNOPE00/externalCodes', { body: { codes: ['X-00001'] } })).status).toBe(404);
    expect((await t.call('GET', '/v1/products/PNOPE00/externalCodes')).status).toBe(404);
    for (const role of ['agent', 'checkin'] as const) {
      expect((await t.call('POST', `/v1/products/${productCode}/externalCodes`, { role, body: { codes: ['X-00001'] } })).status).toBe(403);
      expect((await t.call('GET', `/v1/products/${productCode}/externalCodes`, { role })).status).toBe(403);
    }
  });
});
