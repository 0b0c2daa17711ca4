import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../db/postgres/connection';
import { leasedIds } from '../../db/postgres/sequences';
import { inWriteTransaction } from '../../db/transaction';
import type { DbHandle } from '../../db/connection';
import { freshPostgresDatabase, type TestPostgresDatabase } from '../fixtures/postgres';

let database: TestPostgresDatabase;
let handles: DbHandle[];
beforeAll(async () => {
  database = await freshPostgresDatabase('ids');
  handles = [await openPostgres(database.url, { migrate: true }), await openPostgres(database.url, { migrate: true })];
});
afterAll(async () => {
  for (const handle of handles) await handle.close();
  await database.drop();
});

describe('ids on the PostgreSQL hub (leased blocks per process)', () => {
  it('never hands out an id or order number twice across two processes, even when writes run their blocks dry', async () => {
    // Tiny blocks, so leases run out inside writes and are refilled while others are running.
    const generators = handles.map((handle) => ({ handle, ids: leasedIds(handle.db, 7, { globalBlock: 3, orderBlock: 2 }) }));
    const ids: number[] = [];
    const orders: number[] = [];
    await Promise.all(
      Array.from({ length: 120 }, (_, i) => {
        const { handle, ids: generator } = generators[i % 2];
        return inWriteTransaction(
          handle.db,
          async () => {
            const mine = Array.from({ length: 1 + (i % 7) }, () => generator.nextId());
            const order = generator.nextOrderSeq();
            return { mine, order };
          },
          { beforeAttempt: () => generator.reserve() },
        ).then(({ mine, order }) => {
          ids.push(...mine);
          orders.push(order);
        });
      }),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(orders).size).toBe(120);
    for (const id of ids) expect(id % 1000 === 7 && Number.isSafeInteger(id)).toBe(true);
  });

  it('refuses a sequence that would put ids past 2^53-1', async () => {
    await handles[0].db.updateTable('sequences').set({ value: Math.floor(Number.MAX_SAFE_INTEGER / 1000) }).where('name', '=', 'global').execute();
    const ids = leasedIds(handles[0].db, 7);
    await expect(ids.reserve()).rejects.toThrow(/2\^53-1/);
  });
});
