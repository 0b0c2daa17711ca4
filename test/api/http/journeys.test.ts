import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aPickupList, aProduct } from '../../fixtures/builders';

/**
 * Two outside integrations, written the way they call the original service, against a real
 * server on a real SQLite file over real HTTP. Nothing in them knows it talks to TourDesk.
 */
let t: TestApp;
let baseUrl: string;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => t.close());

/** A client in the style of the PHP libraries: key in the query string, JSON bodies, envelope checks. */
function client(apiKey: string) {
  return async function call(method: string, path: string, body?: unknown): Promise<any> {
    const separator = path.includes('?') ? '&' : '?';
    const response = await fetch(`${baseUrl}${path}${separator}apiKey=${apiKey}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    if (!json.requestStatus?.success) throw new Error(`${method} ${path}: ${response.status} ${json.requestStatus?.error?.errorMessage}`);
    return json;
  };
}

describe('a channel connector', () => {
  it('lists products, reads pickups, searches a day, books, finds the booking three ways at once, and cancels it', async () => {
    // The supplier's set-up, done once at the desk.
    const list = (await t.call('POST', '/v1/pickups', { body: aPickupList() })).body.pickupList;
    const cruise = (await t.call('POST', '/v1/products', { body: aProduct({ name: 'Channel Cruise', pickupId: list.id }) })).body.product;
    await t.call('POST', '/v1/products', { body: aProduct({ name: 'Channel Walk' }) });
    for (const time of ['09:00:00', '14:00:00']) {
      await t.call('POST', '/v1/availability', { body: { productCode: cruise.productCode, startTimeLocal: `2030-01-06 ${time}`, seats: 8 } });
    }
    await t.call('POST', '/v1/availability', { body: { productCode: cruise.productCode, startTimeLocal: '2030-01-07 09:00:00', seats: 8 } });

    const call = client(t.keys.supplier);
    const { products } = await call('GET', '/v1/products?limit=1000');
    for (const product of products) {
      const pickups = await call('GET', `/v1/products/${product.productCode}/pickups`);
      expect(Array.isArray(pickups.pickupLocations)).toBe(true);
    }
    const target = products.find((p: any) => p.name === 'Channel Cruise');
    const { pickupLocations } = await call('GET', `/v1/products/${target.productCode}/pickups`);
    expect(pickupLocations.map((l: any) => l.locationName)).toContain('Grand Hotel');

    const day = await call('GET', `/v1/availability?productCode=${target.productCode}&startTimeLocal=2030-01-06%2000:00:00&endTimeLocal=2030-01-06%2023:59:59`);
    expect(day.sessions.map((s: any) => s.startTimeLocal)).toEqual(['2030-01-06 09:00:00', '2030-01-06 14:00:00']);
    const session = day.sessions.find((s: any) => s.seatsAvailable >= 2);

    const created = await call('POST', '/v1/bookings', {
      status: 'CONFIRMED',
      resellerReference: 'CM-778812',
      comments: 'Booked through the channel manager',
      sourceChannel: 'CHANNEL_MANAGER',
      customer: { firstName: 'Priya', lastName: 'Raman', email: 'priya@example.com', phone: '+61 411 222 333', skype: 'priya.r' },
      items: [
        {
          productCode: target.productCode,
          startTimeLocal: session.startTimeLocal,
          quantities: [{ optionLabel: 'Adult', value: '2' }],
          participants: [{ fields: [{ label: 'First Name', value: 'Priya' }, { label: 'Last Name', value: 'Raman' }] }, { fields: [] }],
          pickupLocation: { locationName: 'Grand Hotel' },
        },
      ],
      payments: [{ type: 'CASH', amount: '100.00', currency: 'AUD', label: 'Paid at the kiosk' }],
      vouchers: [''],
    });
    const orderNumber = created.booking.orderNumber;
    expect(created.booking).toMatchObject({ status: 'CONFIRMED', totalAmount: 100, totalPaid: 100, totalDue: 0, totalCurrency: 'AUD' });
    expect(created.booking.items[0].participants).toHaveLength(2);
    expect(created.booking.customer.messengerAlias).toBe('priya.r');

    const [byNumber, byReference, bySearch] = await Promise.all([
      call('GET', `/v1/bookings/${orderNumber}`),
      call('GET', '/v1/bookings?resellerReference=CM-778812'),
      call('GET', '/v1/bookings?search=Raman'),
    ]);
    expect(byNumber.booking.orderNumber).toBe(orderNumber);
    expect(byReference.bookings.map((b: any) => b.orderNumber)).toEqual([orderNumber]);
    expect(bySearch.bookings.map((b: any) => b.orderNumber)).toEqual([orderNumber]);
    for (const booking of [byNumber.booking, byReference.bookings[0], bySearch.bookings[0]]) {
      expect(booking).toMatchObject({ totalAmount: 100, totalPaid: 100, totalDue: 0, totalCurrency: 'AUD', resellerReference: 'CM-778812' });
      expect(booking.items[0]).toMatchObject({ productName: 'Channel Cruise', startTimeLocal: session.startTimeLocal });
      expect(booking.items[0].quantities[0]).toMatchObject({ optionLabel: 'Adult', value: 2 });
      expect(booking.customer).toMatchObject({ name: 'Priya Raman', firstName: 'Priya', lastName: 'Raman', phone: '+61 411 222 333' });
      expect(booking.payments[0]).toMatchObject({ type: 'CASH', amount: 100 });
      expect(booking.dateCreated).toBeTruthy();
    }

    const cancelled = await call('DELETE', `/v1/bookings/${orderNumber}/cancel`);
    expect(cancelled.booking.status).toBe('CANCELLED');
    const after = await call('GET', `/v1/availability?productCode=${target.productCode}&startTimeLocal=2030-01-06&endTimeLocal=2030-01-06`);
    expect(after.sessions.find((s: any) => s.id === session.id).seatsAvailable).toBe(8);
    await expect(call('GET', '/v1/bookings/T1-99999')).rejects.toThrow(/404/);
  });
});

describe('a reporting script', () => {
  it('pages through every booking with limit=1000 and date-only bounds, getting each exactly once', async () => {
    const product = (await t.call('POST', '/v1/products', { body: aProduct({ name: 'Report Tour' }) })).body.product;
    await t.call('POST', '/v1/availability', { body: { productCode: product.productCode, startTimeLocal: '2030-02-01 09:00:00', seats: 1000 } });
    // 240 bookings made over four local days (Sydney): 2, 3, 4 and 5 January at noon.
    const madeOn: Record<string, string[]> = {};
    for (let i = 0; i < 240; i++) {
      const day = `2030-01-0${2 + (i % 4)}`;
      t.clock.set(`${day}T01:00:00Z`);
      const res = await t.call('POST', '/v1/bookings', {
        body: { customer: { firstName: 'Report', lastName: `Guest${i}` }, items: [{ productCode: product.productCode, startTimeLocal: '2030-02-01 09:00:00', quantities: [{ optionLabel: 'Adult', value: 1 }] }] },
      });
      (madeOn[day] ??= []).push(res.body.booking.orderNumber);
    }

    // The script: ask for 1000 a page, move on by what came back, stop at the first short page.
    const call = client(t.keys.supplier);
    const seen: string[] = [];
    let offset = 0;
    let fullPage = 0;
    for (let pages = 0; pages < 50; pages++) {
      const { bookings } = await call('GET', `/v1/bookings?productCode=${product.productCode}&minDateCreated=2030-01-03&maxDateCreated=2030-01-04&limit=1000&offset=${offset}`);
      seen.push(...bookings.map((b: any) => b.orderNumber));
      fullPage = Math.max(fullPage, bookings.length);
      if (bookings.length === 0 || bookings.length < fullPage) break;
      offset += bookings.length;
    }
    const expected = [...madeOn['2030-01-03'], ...madeOn['2030-01-04']];
    expect(seen).toHaveLength(expected.length);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...expected].sort());
  });
});

/**
 * A client in the style of libraries that set `Content-Type: application/json` on every request
 * (bodyless DELETE and GET included) and join a base URL ending in `/` with paths starting with `/`.
 */
function jsonEverywhereClient(apiKey: string) {
  const base = `${baseUrl}/v1/`;
  return async function call(method: string, path: string, body?: unknown): Promise<any> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { apiKey, 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    if (!json.requestStatus?.success) throw new Error(`${method} ${path}: ${response.status} ${json.requestStatus?.error?.errorMessage}`);
    return json;
  };
}

describe('a client that sends a JSON content type on every call and doubles slashes', () => {
  it('lists products through /v1//products, books, reads and cancels with bodyless JSON-typed requests', async () => {
    const product = (await t.call('POST', '/v1/products', { body: aProduct({ name: 'Slash Tour' }) })).body.product;
    await t.call('POST', '/v1/availability', { body: { productCode: product.productCode, startTimeLocal: '2030-03-01 09:00:00', seats: 10 } });
    const call = jsonEverywhereClient(t.keys.supplier);

    const { products } = await call('GET', '/products');
    expect(products.map((p: any) => p.productCode)).toContain(product.productCode);
    const { booking } = await call('POST', '/bookings', {
      customer: { firstName: 'Slash', lastName: 'Client' },
      items: [{ productCode: product.productCode, startTimeLocal: '2030-03-01 09:00:00', quantities: [{ optionLabel: 'Adult', value: 2 }] }],
    });
    expect((await call('GET', `/bookings/${booking.orderNumber}`)).booking.status).toBe(booking.status);
    const cancelled = await call('DELETE', `//bookings/${booking.orderNumber}`);
    expect(cancelled.booking.status).toBe('CANCELLED');
  });
});

describe('a client that edits a booking by sending it back whole (PUT)', () => {
  it('changes what PUT supports, is told (400, the field named) when it changes what PUT cannot, and loses participant names when it leaves items out', async () => {
    const product = (await t.call('POST', '/v1/products', { body: aProduct({ name: 'Round Trip Tour' }) })).body.product;
    await t.call('POST', '/v1/availability', { body: { productCode: product.productCode, startTimeLocal: '2030-03-02 09:00:00', seats: 10 } });
    const call = client(t.keys.supplier);
    const raw = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${baseUrl}${path}?apiKey=${t.keys.supplier}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, json: await response.json() };
    };
    const { booking } = await call('POST', '/v1/bookings', {
      customer: { firstName: 'Round', lastName: 'Trip' },
      items: [{ productCode: product.productCode, startTimeLocal: '2030-03-02 09:00:00', quantities: [{ optionLabel: 'Adult', value: 1 }], participants: [{ fields: [{ label: 'First Name', value: 'Round' }] }] }],
      payments: [{ type: 'CASH', amount: '20.00' }],
    });
    const read = (await call('GET', `/v1/bookings/${booking.orderNumber}`)).booking;

    const edited = await call('PUT', `/v1/bookings/${booking.orderNumber}`, { ...read, resellerComments: 'window seat' });
    expect(edited.booking).toMatchObject({ resellerComments: 'window seat', totalPaid: 20 });
    expect(edited.booking.items[0].participants[0].fields).toEqual([{ label: 'First Name', value: 'Round' }]);

    const morePaid = await raw('PUT', `/v1/bookings/${booking.orderNumber}`, { ...edited.booking, payments: [...edited.booking.payments, { type: 'CASH', amount: 30 }] });
    expect(morePaid.status).toBe(400);
    expect(morePaid.json.requestStatus.error.errorMessage).toMatch(/payments cannot change/);
    expect((await call('GET', `/v1/bookings/${booking.orderNumber}`)).booking.totalPaid).toBe(20);

    const { items: _items, ...withoutItems } = edited.booking;
    const cleared = await call('PUT', `/v1/bookings/${booking.orderNumber}`, withoutItems);
    expect(cleared.booking.items[0].participants[0].fields).toEqual([]);
  });
});
