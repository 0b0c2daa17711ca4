import { describe, expect, it } from 'vitest';
import { hashKey } from '../../../main/domain/platform/apiKeys';
import { observeChanges, SYSTEM_ACTOR } from '../../../main/domain/context';
import { appWithSecondConnection } from '../../fixtures/secondConnection';
import { aBookingRow } from '../../fixtures/bookingRows';
import { aProductWithSession } from '../../fixtures/manifest';

/**
 * Issue 20: keys, the company and product answers are cached, and every cache sees a change made
 * here (by any code path), by another process (a second connection to the same file) or by a write
 * that does not touch it (bookings and scans must not empty it, other writes must not go unseen).
 */
const app = appWithSecondConnection();

describe('caches of what rarely changes', () => {
  it('refuses a key at once after another process revokes it, and accepts it again when it is restored', async () => {
    const { id, key } = await app.t.engine.apiKeys.create({ role: 'supplier', name: 'Revoked elsewhere' });
    expect((await app.t.call('GET', '/v1/products', { key })).status).toBe(200);
    app.other.prepare('UPDATE api_keys SET revoked_at = 1 WHERE id = ?').run(id);
    expect((await app.t.call('GET', '/v1/products', { key })).status).toBe(401);
    app.other.prepare('UPDATE api_keys SET revoked_at = NULL WHERE id = ?').run(id);
    expect((await app.t.call('GET', '/v1/products', { key })).status).toBe(200);
  });

  it('answers a request as of its key check: one observation of other processes serves the request, the next request observes again', async () => {
    const { id, key } = await app.t.engine.apiKeys.create({ role: 'supplier', name: 'Observed' });
    const ctx = app.t.engine.ctx;
    const atStart = observeChanges(ctx);
    expect(await app.t.engine.apiKeys.verify(key, atStart)).toMatchObject({ keyId: id });
    app.other.prepare('UPDATE api_keys SET revoked_at = 1 WHERE id = ?').run(id);
    // The request that observed before the revoke is answered as of then (its key was valid when it came)…
    expect(await app.t.engine.apiKeys.verify(key, atStart)).toMatchObject({ keyId: id });
    // …a request starting after it is refused.
    expect(await app.t.engine.apiKeys.verify(key, observeChanges(ctx))).toBeNull();
    expect((await app.t.call('GET', '/v1/products', { key })).status).toBe(401);
  });

  it('sees a key revoked, re-roled or deleted by a raw statement on the engine’s own connection', async () => {
    const { id, key } = await app.t.engine.apiKeys.create({ role: 'supplier', name: 'Changed here' });
    const sqlite = app.t.engine.ctx.handle.sqlite;
    expect((await app.t.call('GET', '/v1/bookings', { key })).status).toBe(200);
    sqlite.prepare("UPDATE api_keys SET role = 'checkin' WHERE id = ?").run(id);
    expect((await app.t.call('GET', '/v1/bookings', { key })).status).toBe(403);
    sqlite.prepare('DELETE FROM api_keys WHERE id = ?').run(id);
    expect((await app.t.call('GET', '/v1/products', { key })).status).toBe(401);
  });

  it('keeps a key verified while only its last use is written, and accepts a key created by another process', async () => {
    const { id, key } = await app.t.engine.apiKeys.create({ role: 'supplier', name: 'Busy' });
    const first = await app.t.engine.apiKeys.verify(key);
    app.t.engine.ctx.handle.sqlite.prepare('UPDATE api_keys SET last_used_at = 5 WHERE id = ?').run(id);
    expect((await app.t.call('GET', '/v1/bookings')).status).toBe(200);
    // The same remembered answer: neither the last-use write nor other traffic emptied the cache.
    expect(await app.t.engine.apiKeys.verify(key)).toBe(first);
    const plaintext = 'created-by-the-cli-process';
    app.other.prepare("INSERT INTO api_keys (id, name, role, key_hash, key_prefix, created_at) VALUES (999001, 'CLI', 'checkin', ?, 'sha256:x', 0)").run(hashKey(plaintext));
    expect(await app.t.engine.apiKeys.verify(plaintext)).toMatchObject({ keyId: 999001, role: 'checkin' });
    expect(await app.t.engine.apiKeys.verify(key)).not.toBe(first);
  });

  it('answers a product changed by another process with its new values', async () => {
    const product = await app.t.engine.products.create({ name: 'Harbour Walk', priceOptions: [{ label: 'Adult', price: 50 }] }, SYSTEM_ACTOR);
    const url = `/v1/products/${product.productCode}`;
    expect((await app.t.call('GET', url)).body.product.name).toBe('Harbour Walk');
    app.other.prepare('UPDATE products SET name = ? WHERE product_code = ?').run('Harbour Night Walk', product.productCode);
    expect((await app.t.call('GET', url)).body.product.name).toBe('Harbour Night Walk');
    app.other.prepare('UPDATE price_options SET price_minor = 6000 WHERE product_code = ?').run(product.productCode);
    expect((await app.t.call('GET', url)).body.product.priceOptions[0].price).toBe(60);
  });

  it('answers a product with the company and options as changed here, through the API or a raw statement', async () => {
    const product = await app.t.engine.products.create({ name: 'Reef Trip', priceOptions: [{ label: 'Adult', price: 80 }] }, SYSTEM_ACTOR);
    const url = `/v1/products/${product.productCode}`;
    expect((await app.t.call('GET', url)).body.product.supplierName).toBe('Test Tours');
    await app.t.engine.companies.configure({ companyName: 'Reef Tours', currency: 'AUD', timezone: 'Australia/Sydney' });
    expect((await app.t.call('GET', url)).body.product.supplierName).toBe('Reef Tours');
    app.t.engine.ctx.handle.sqlite.prepare('UPDATE price_options SET label = ? WHERE product_code = ?').run('Grown-up', product.productCode);
    expect((await app.t.call('GET', url)).body.product.priceOptions[0].label).toBe('Grown-up');
    app.other.prepare('UPDATE companies SET company_name = ?').run('Coral Tours');
    expect((await app.t.call('GET', url)).body.product.supplierName).toBe('Coral Tours');
    expect((await app.t.engine.companies.supplier()).companyName).toBe('Coral Tours');
  });

  it('sends a cached product as exactly the bytes of its envelope, each time, and a changed product as its new ones', async () => {
    const product = await app.t.engine.products.create({ name: 'Café Cruise — Ōtautahi', priceOptions: [{ label: 'Adult', price: 30 }] }, SYSTEM_ACTOR);
    const url = `/v1/products/${product.productCode}`;
    const get = () => app.t.app.inject({ method: 'GET', url, headers: { host: '127.0.0.1', apikey: app.t.keys.supplier } });
    const envelopeOf = async () => JSON.stringify({ requestStatus: { success: true, version: 'v1' }, product: await app.t.engine.products.get(String(product.productCode)) });
    const expected = await envelopeOf();
    for (const answer of [await get(), await get()]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe(expected);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(expected));
    }
    expect((await app.t.call('PUT', url, { body: { name: 'Café Cruise — Lyttelton' } })).status).toBe(200);
    const changed = await get();
    expect(changed.body).toContain('Café Cruise — Lyttelton');
    expect(changed.body).toBe(await envelopeOf());
  });

  it('answers 404 for a product another process deleted', async () => {
    const product = await app.t.engine.products.create({ name: 'Gone Tomorrow', priceOptions: [{ label: 'Adult', price: 10 }] }, SYSTEM_ACTOR);
    expect((await app.t.call('GET', `/v1/products/${product.productCode}`)).status).toBe(200);
    app.other.prepare('DELETE FROM price_options WHERE product_code = ?').run(product.productCode);
    app.other.prepare('DELETE FROM products WHERE product_code = ?').run(product.productCode);
    expect((await app.t.call('GET', `/v1/products/${product.productCode}`)).status).toBe(404);
  });

  it('answers a voucher search with a redemption or a voucher another process wrote, and with the time passing its expiry', async () => {
    await app.t.engine.vouchers.create({ code: 'CACHE100', valueType: 'VALUE', value: 100, currency: 'AUD', expiryDate: '2030-06-30' } as never, SYSTEM_ACTOR);
    const find = async (code: string) => ((await app.t.call('GET', '/v1/vouchers?limit=100')).body.vouchers as { code: string; status: string; remainingValue?: number }[]).find((v) => v.code === code);
    expect(await find('CACHE100')).toMatchObject({ status: 'ISSUED', remainingValue: 100 });
    app.other.prepare("INSERT INTO bookings (order_number, id, status, currency, total_amount_minor, created_at, updated_at) VALUES ('CACHE-B1', 990001, 'CONFIRMED', 'AUD', 0, 0, 0)").run();
    app.other.prepare("INSERT INTO voucher_redemptions (id, voucher_code, order_number, amount_minor, created_at) VALUES (990002, 'CACHE100', 'CACHE-B1', 2500, 0)").run();
    expect(await find('CACHE100')).toMatchObject({ status: 'PARTIALLY_REDEEMED', remainingValue: 75 });
    app.other.prepare("INSERT INTO vouchers (code, value_type, value_minor, currency, issue_at, created_at, updated_at) VALUES ('CACHE2', 'VALUE', 5000, 'AUD', 1900000000000, 0, 0)").run();
    expect(await find('CACHE2')).toMatchObject({ status: 'ISSUED', remainingValue: 50 });
    app.t.clock.set('2030-08-01T00:00:00Z');
    expect(await find('CACHE100')).toMatchObject({ status: 'EXPIRED', remainingValue: 75 });
    // A kept answer holds only between the expiries around it: a clock set back sees the voucher live again.
    app.t.clock.set('2030-06-01T00:00:00Z');
    expect(await find('CACHE100')).toMatchObject({ status: 'PARTIALLY_REDEEMED', remainingValue: 75 });
  });

  it('rebuilds a polled manifest after any write, here or by another process, and reuses it while nothing changed', async () => {
    const session = app.t.engine.ctx.handle.sqlite;
    const product = await app.t.engine.products.create({ name: 'Manifest Cruise', priceOptions: [{ label: 'Adult', price: 10 }] }, SYSTEM_ACTOR);
    const start = '2031-03-01T00:00:00Z'; // after the clock the voucher test moved
    session.prepare('INSERT INTO sessions (id, product_code, start_at, end_at, all_day, seats, created_at, updated_at) VALUES (880001, ?, ?, ?, 0, 40, 0, 0)').run(product.productCode, Date.parse(start), Date.parse(start) + 3_600_000);
    const booked = await app.t.call('POST', '/v1/bookings', { body: { customer: { firstName: 'Ada', lastName: 'Lovelace' }, items: [{ productCode: product.productCode, startTime: start, quantities: [{ optionLabel: 'Adult', value: 2 }] }] } });
    expect(booked.status).toBe(200);
    const first = await app.t.engine.manifests.get({ sessionId: 880001 });
    expect(first.bookings[0].customer?.lastName).toBe('Lovelace');
    expect(await app.t.engine.manifests.get({ sessionId: 880001 })).toBe(first);
    app.other.prepare('UPDATE customers SET last_name = ? WHERE last_name = ?').run('Byron', 'Lovelace');
    const renamed = await app.t.engine.manifests.get({ sessionId: 880001 });
    expect(renamed.bookings[0].customer?.lastName).toBe('Byron');
    session.prepare('UPDATE sessions SET seats = 30 WHERE id = 880001').run();
    expect((await app.t.engine.manifests.get({ sessionId: 880001 })).session.seats).toBe(30);
  });
});

const rawGet = async (path: string) => {
  const response = await app.t.app.inject({ method: 'GET', url: path, headers: { host: '127.0.0.1', apikey: app.t.keys.supplier } });
  expect(response.statusCode).toBe(200);
  return response.body;
};

/**
 * A polled manifest kept between two changes is one shared answer: serialized once, sent to every
 * poll byte for byte as a fresh build would be, and frozen so no caller changes the next one's.
 */
describe('GET /v1/manifest between two changes', () => {
  it('answers every poll with the same bytes a fresh build gives, and the next change in the poll after it', async () => {
    const s = await aProductWithSession(app.t);
    const booking = aBookingRow(app.t.sql, { sessionId: s.sessionId, barcodes: 'PARTICIPANT', quantities: [{ label: 'Adult', value: 2 }], names: ['Ada', 'Bea'] });
    const path = `/v1/manifest?sessionId=${s.sessionId}`;
    const first = await rawGet(path);
    const again = await rawGet(path);
    expect(again).toBe(first);
    // Byte for byte the envelope JSON.stringify makes of the manifest the engine builds now.
    const kept = await app.t.engine.manifests.get({ sessionId: s.sessionId });
    expect(first).toBe(JSON.stringify({ requestStatus: { success: true, version: 'v1' }, manifest: kept }));

    const scan = await app.t.call('POST', '/v1/manifest/scan', { role: 'checkin', body: { code: booking.participantCodes[0], sessionId: s.sessionId, device: 'pier' } });
    expect(scan.status).toBe(200);
    const after = JSON.parse(await rawGet(path));
    expect(after.manifest.totals.checkedIn).toBe(1);
    expect(JSON.parse(first).manifest.totals.checkedIn).toBe(0);
  });

  it('hands callers a kept manifest they cannot change', async () => {
    const s = await aProductWithSession(app.t);
    aBookingRow(app.t.sql, { sessionId: s.sessionId, quantities: [{ label: 'Adult', value: 1 }] });
    const kept = await app.t.engine.manifests.get({ sessionId: s.sessionId });
    expect(await app.t.engine.manifests.get({ sessionId: s.sessionId })).toBe(kept);
    expect(() => {
      (kept.bookings as unknown[]).pop();
    }).toThrow(TypeError);
    expect(() => {
      (kept.totals as { booked: number }).booked = 99;
    }).toThrow(TypeError);
    expect((await app.t.engine.manifests.get({ sessionId: s.sessionId })).bookings).toHaveLength(1);
  });
});
