import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, LOOPBACK_NAMES, type TourDeskServer } from '../../../main/api/server';
import { parseRoute } from '../../../renderer/src/model/routes';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, aProduct } from '../../fixtures/builders';

/** GET /orders/edit/{orderNumber}: the link client libraries of this API style put on the API's host for each booking. */
let t: TestApp;
let web: TourDeskServer;
let root: string;
beforeAll(async () => {
  t = await startTestApp();
  root = mkdtempSync(join(tmpdir(), 'tourdesk-web-'));
  writeFileSync(join(root, 'index.html'), '<div id="root"></div>');
  web = await createServer({ engine: t.engine, allowedHosts: LOOPBACK_NAMES, webRoot: root });
  await web.ready();
});
afterAll(async () => {
  await web.close();
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

const open = (server: TourDeskServer, url: string) => server.inject({ url, headers: { host: '127.0.0.1' } });

describe('the booking link /orders/edit/{orderNumber}', () => {
  it("redirects (302, no key needed) to the desk's page for the booking, which the served app opens", async () => {
    const productCode = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product.productCode;
    const session = (await t.call('POST', '/v1/availability', { body: { productCode, startTimeLocal: '2030-01-05 09:00:00', seats: 10 } })).body.session;
    const { orderNumber } = (await t.call('POST', '/v1/bookings', { body: aBooking(productCode, session.startTime, [{ optionLabel: 'Adult', value: 1 }]) })).body.booking;
    const link = await open(web, `/orders/edit/${orderNumber}`);
    expect(link.statusCode).toBe(302);
    expect(link.headers.location).toBe(`/bookings/${orderNumber}`);
    const page = await open(web, link.headers.location as string);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(parseRoute(link.headers.location as string, '').screen).toEqual({ name: 'booking', orderNumber });
  });

  it('accepts a trailing slash, as every path does', async () => {
    const link = await open(t.app, '/orders/edit/TD1-00042/');
    expect(link.statusCode).toBe(302);
    expect(link.headers.location).toBe('/bookings/TD1-00042');
  });

  it('percent-encodes every character a path would read otherwise, so the target stays a path on this host', async () => {
    for (const [sent, order] of [
      ['A%20B', 'A B'],
      ['%2F%2Fevil.example', '//evil.example'],
      ['https%3A%2F%2Fevil.example%2Fx', 'https://evil.example/x'],
      ['..%2F..%2Fsettings', '../../settings'],
      ['%5C%5Cevil.example', '\\\\evil.example'],
      ['R%C3%A9sa%3F%23', 'Résa?#'],
    ]) {
      const link = await open(t.app, `/orders/edit/${sent}`);
      expect(link.statusCode, sent).toBe(302);
      const location = link.headers.location as string;
      expect(location, sent).toBe(`/bookings/${encodeURIComponent(order)}`);
      expect(location.startsWith('/bookings/') && !location.slice('/bookings/'.length).includes('/'), sent).toBe(true);
      expect(new URL(location, 'http://127.0.0.1:8080').host, sent).toBe('127.0.0.1:8080');
      expect(parseRoute(location, '').screen, sent).toEqual({ name: 'booking', orderNumber: order });
    }
  });

  it('refuses an order number no booking can have with a 400 envelope saying why', async () => {
    for (const sent of ['x'.repeat(41), '%20%20']) {
      const link = await open(t.app, `/orders/edit/${sent}`);
      expect(link.statusCode, sent).toBe(400);
      expect(link.headers.location).toBeUndefined();
      expect(link.json().requestStatus).toMatchObject({ success: false, error: { errorCode: 'VALIDATION_ERROR' } });
      expect(link.json().requestStatus.error.errorMessage, sent).toMatch(/orderNumber/);
    }
  });
});
