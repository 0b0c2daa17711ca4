import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inWriteTransaction } from '../../db/transaction';
import { hubForFile } from '../fixtures/postgres';
import { startTestApp } from '../fixtures/app';
import { aBooking, aProduct } from '../fixtures/builders';

/**
 * A hub process's caches see its own commits at once: they must not wait for the commit's NOTIFY
 * to come back round (a GET right after a PUT answered the old product on PostgreSQL in CI).
 */
const hub = hubForFile('own');

describe('change tokens on the PostgreSQL hub', () => {
  it('move the moment this process commits a write, before any notification could arrive', async () => {
    const token = hub.handle.postgres!.areaToken();
    for (let i = 0; i < 200 && token('products').startsWith('down:'); i++) await new Promise((r) => setTimeout(r, 25));
    expect(token('products')).not.toMatch(/^down:/);
    const before = token('products');
    expect(token('products')).toBe(before); // steady while nothing is written
    // A committed write that touches no table sends no NOTIFY at all: only the process's own bookkeeping can move the token.
    await inWriteTransaction(hub.handle.db, async (conn) => void (await sql`SELECT 1`.execute(conn)));
    expect(token('products')).not.toBe(before);
    // A rolled-back one (a quote) changes nothing and moves nothing.
    const after = token('products');
    await inWriteTransaction(hub.handle.db, async (conn) => void (await sql`SELECT 1`.execute(conn)), { dryRun: true });
    expect(token('products')).toBe(after);
  });
});

describe("a hub process's own commits move only the caches of the tables they touched", () => {
  it('a booking moves no key, company or product token; a product edit moves products; a new key moves keys', async () => {
    const app = await startTestApp({ dialect: 'postgres' });
    try {
      const token = app.engine.ctx.handle.postgres!.areaToken();
      for (let i = 0; i < 200 && token('keys').startsWith('down:'); i++) await new Promise((r) => setTimeout(r, 25));
      const product = (await app.call('POST', '/v1/products', { body: aProduct() })).body.product;
      const startTime = '2030-01-01T09:00:00Z';
      expect((await app.call('POST', '/v1/availability', { body: { productCode: product.productCode, startTime, seats: 20 } })).status).toBe(200);
      const areas = ['keys', 'company', 'products', 'vouchers'] as const;
      const tokens = () => Object.fromEntries(areas.map((a) => [a, token(a)]));
      // Settled: the notifications of the setup's own commits have come back round.
      for (let before = JSON.stringify(tokens()), i = 0; i < 40; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const now = JSON.stringify(tokens());
        if (now === before && i > 4) break;
        before = now;
      }

      const beforeBooking = tokens();
      const booked = await app.call('POST', '/v1/bookings', { body: aBooking(product.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]) });
      expect(booked.status, JSON.stringify(booked.body)).toBe(200);
      expect(tokens()).toEqual(beforeBooking);

      const renamed = await app.call('PUT', `/v1/products/${product.productCode}`, { body: { ...aProduct(), name: 'Renamed' } });
      expect(renamed.status).toBe(200);
      const afterProduct = tokens();
      expect(afterProduct.products).not.toBe(beforeBooking.products);
      expect(afterProduct.keys).toBe(beforeBooking.keys);
      // The cache answers the edit at once, from this process.
      expect((await app.call('GET', `/v1/products/${product.productCode}`)).body.product.name).toBe('Renamed');

      // A key is no synced row (no fold says what it touched): every token moves.
      await app.engine.apiKeys.create({ role: 'agent', name: 'Another' });
      const afterKey = tokens();
      for (const area of areas) expect(afterKey[area]).not.toBe(afterProduct[area]);
    } finally {
      await app.close();
    }
  });
});
