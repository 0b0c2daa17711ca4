import { describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../fixtures/app';
import { aBooking, aProduct } from '../fixtures/builders';

/**
 * On the hub a new booking's rows travel as one statement (db/queries/insertBatch.ts), where SQLite
 * runs one insert each: the rows, the answer and the ops (their order included, which the sync
 * captures take from the order the rows went in) must be the same on both.
 */
async function bookOn(dialect: 'sqlite' | 'postgres') {
  const app: TestApp = await startTestApp({ dialect });
  try {
    const product = (await app.call('POST', '/v1/products', { body: aProduct({ qrCodeType: 'INTERNAL' } as never) })).body.product;
    const startTime = '2030-01-01T09:00:00Z';
    expect((await app.call('POST', '/v1/availability', { body: { productCode: product.productCode, startTime, seats: 20 } })).status).toBe(200);
    const arrival = Number((app.sql.prepare('SELECT coalesce(max(arrival), 0) AS n FROM sync_ops').get() as { n: number }).n);
    const body = aBooking(product.productCode, startTime, [{ optionLabel: 'Adult', value: 2 }, { optionLabel: 'Child', value: 1 }], {
      customer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.test' },
      payments: [{ amount: 10, type: 'CASH' }],
    });
    const booked = await app.call('POST', '/v1/bookings', { body });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    // The ops in the order they were made (each dialect stores a change in its own compact form).
    const ops = app.sql.prepare('SELECT entity, kind FROM sync_ops WHERE arrival > ? ORDER BY arrival').all(arrival) as { entity: string; kind: string }[];
    const participants = app.sql.prepare('SELECT position, CASE WHEN barcode IS NULL THEN 0 ELSE 1 END AS coded FROM participants ORDER BY id').all();
    const journal = app.sql.prepare('SELECT entity, action FROM op_log ORDER BY seq').all().slice(-2);
    return { answer: booked.body.booking, ops, participants, journal };
  } finally {
    await app.close();
  }
}

describe("a new booking's rows on the hub", () => {
  it('make the same answer, rows and ops in the same order as on SQLite, payments after them', async () => {
    const onSqlite = await bookOn('sqlite');
    const onPostgres = await bookOn('postgres');
    expect(onPostgres.ops.map((o) => o.entity)).toContain('payments');
    expect(onPostgres.ops).toEqual(onSqlite.ops);
    expect(onPostgres.participants).toEqual(onSqlite.participants);
    expect(onPostgres.journal).toEqual(onSqlite.journal);
    // Ids and codes are the instance's own: everything else of the answer is the same.
    const scrub = (answer: unknown) => JSON.parse(JSON.stringify(answer, (key, value) => (/^(id|.*Id|orderNumber|code|barcode|.*Code)$/.test(key) ? '*' : value)));
    expect(scrub(onPostgres.answer)).toEqual(scrub(onSqlite.answer));
  });
});
