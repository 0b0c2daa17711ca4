import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, aProduct, aScannableProduct, aSession } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function aProductWithDays(body: Record<string, unknown>, days: string[]) {
  const product = await t.call('POST', '/v1/products', { body });
  expect(product.status).toBe(200);
  const productCode: string = product.body.product.productCode;
  const orders: string[] = [];
  for (const day of days) {
    const startTimeLocal = `${day} 10:00:00`;
    expect((await t.call('POST', '/v1/availability', { body: aSession(productCode, { startTimeLocal, seats: 20 }) })).status).toBe(200);
    const booked = await t.call('POST', '/v1/bookings', { body: aBooking(productCode, undefined, [], { items: [{ productCode, startTimeLocal, quantities: [{ optionLabel: 'Adult', value: 1 }] }] }) });
    expect(booked.status).toBe(200);
    orders.push(booked.body.booking.orderNumber);
  }
  return { productCode, orders };
}

describe('GET /v1/bookings?sort=tourStartTime (the desk opening on upcoming departures)', () => {
  it('lists bookings by their first departure from minTourStartTime, where the default is oldest booking first', async () => {
    // Booked in this order: the 7th first, then the 4th, then the 2nd (before the window).
    const { productCode, orders } = await aProductWithDays(aProduct(), ['2030-01-07', '2030-01-04', '2030-01-02']);
    const [seventh, fourth] = orders;
    const list = async (query: string) => (await t.call('GET', `/v1/bookings?productCode=${productCode}&minTourStartTime=2030-01-03&${query}`)).body.bookings.map((b: { orderNumber: string }) => b.orderNumber);
    expect(await list('sort=tourStartTime')).toEqual([fourth, seventh]);
    expect(await list('sort=dateCreated')).toEqual([seventh, fourth]);
    expect(await list('limit=50')).toEqual([seventh, fourth]);
  });

  it('refuses a sort it does not know with a 400 that names the choices', async () => {
    const res = await t.call('GET', '/v1/bookings?sort=price');
    expect(res.status).toBe(400);
    expect(res.body.requestStatus.error.errorMessage).toMatch(/sort/);
    expect(res.body.requestStatus.error.errorMessage).toMatch(/tourStartTime/);
  });
});

describe("a manifest says whether the product's bookings get codes to scan", () => {
  it('null for a product without a QR code type, PARTICIPANT or ORDER otherwise', async () => {
    const cases: [Record<string, unknown>, string | null][] = [
      [aProduct(), null],
      [aScannableProduct(), 'PARTICIPANT'],
      [aScannableProduct({ barcodeOutputType: 'ORDER' }), 'ORDER'],
    ];
    for (const [body, expected] of cases) {
      const { productCode } = await aProductWithDays(body, ['2030-01-04']);
      const manifest = await t.call('GET', `/v1/manifest?productCode=${productCode}&startTimeLocal=${encodeURIComponent('2030-01-04 10:00:00')}`);
      expect(manifest.status).toBe(200);
      expect(manifest.body.manifest.session.ticketCodes).toBe(expected);
    }
  });
});
