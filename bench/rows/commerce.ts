import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRow } from '../types';
import { openDatabase } from '../../db/connection';
import { createEngine } from '../../main/engine';
import { createServer as createApiServer } from '../../main/api/server';
import { SYSTEM_ACTOR } from '../../main/domain/context';
import { commissionFor } from '../../main/domain/commerce/commission';
import { DEMO_PRODUCTS } from '../../main/demo';
import { afterPoll, interleavedRequestsPerSecond } from '../harness';

const VOUCHERS = 2000;
const REDEMPTIONS = 1000;

/** Calls per second of an async operation, run back to back for about `ms`. */
async function callsPerSecond(ms: number, operation: () => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < 200; i++) await operation(); // warm up
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (let i = 0; i < 100; i++) await operation();
    calls += 100;
  }
  return (calls * 1000) / (performance.now() - start);
}

/**
 * 1. GET /v1/vouchers?limit=100 (status derived from redemptions on every read) against a bare
 *    node:http server answering the same JSON from memory (alternating 1 s slices).
 * 2. commissionFor (the lookup a booking by an agent pays) against the bare prepared SELECT of the
 *    same rate_products row: the cost of the join, the Kysely layer and the arithmetic.
 */
export default async function (): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-bench-commerce-'));
  const handle = await openDatabase(join(dir, 'tourdesk.sqlite'), { migrate: true });
  const engine = createEngine({ db: handle, config: { dataDir: dir, instanceNo: 1 } });
  try {
    await engine.companies.configure({ companyName: 'Bench Tours', alias: 'bench', currency: 'AUD', timezone: 'Australia/Sydney' });
    const { key } = await engine.apiKeys.create({ role: 'supplier', name: 'bench' });
    const product = await engine.products.create(DEMO_PRODUCTS[0], SYSTEM_ACTOR);

    // Vouchers and redemptions written in bulk (redemptions need a booking row each).
    const sqlite = handle.sqlite;
    sqlite.transaction(() => {
      const voucher = sqlite.prepare("INSERT INTO vouchers (code, value_type, value_minor, currency, issue_at, created_at, updated_at) VALUES (?, 'VALUE', 10000, 'AUD', ?, 0, 0)");
      const booking = sqlite.prepare("INSERT INTO bookings (order_number, id, status, currency, total_amount_minor, created_at, updated_at) VALUES (?, ?, 'CONFIRMED', 'AUD', 0, 0, 0)");
      const redemption = sqlite.prepare('INSERT INTO voucher_redemptions (id, voucher_code, order_number, amount_minor, created_at) VALUES (?, ?, ?, 2500, 0)');
      for (let i = 0; i < VOUCHERS; i++) voucher.run(`BENCH${String(i).padStart(5, '0')}`, 1_900_000_000_000 + i);
      for (let i = 0; i < REDEMPTIONS; i++) {
        booking.run(`B${i}`, 10_000_000 + i);
        redemption.run(10_000_000 + i, `BENCH${String(VOUCHERS - 1 - (i % 200)).padStart(5, '0')}`, `B${i}`);
      }
    })();

    const rate = await engine.rates.create(
      { name: 'Bench', productRates: [{ productCode: product.productCode, commissionType: 'NET_RATE', netRates: [{ priceOptionLabel: 'Adult', netPrice: 70 }, { priceOptionLabel: 'Child', netPrice: 35 }] }] },
      SYSTEM_ACTOR,
    );
    await engine.apiKeys.create({ role: 'agent', name: 'Bench agent' });
    const resellerId = (await engine.apiKeys.list()).find((k) => k.role === 'agent')!.resellerId!;
    await engine.resellers.attachRate(rate.rateId, resellerId, SYSTEM_ACTOR);

    const app = await createApiServer({ engine });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/v1/vouchers?limit=100`;
    const body = await (await fetch(url, { headers: { apiKey: key } })).text();
    const bare = createServer((_req, res) =>
      afterPoll(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      }),
    );
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    let searchRow: BenchRow;
    try {
      const measured = await interleavedRequestsPerSecond({ url, headers: { apiKey: key } }, { url: `http://127.0.0.1:${(bare.address() as AddressInfo).port}/` });
      searchRow = { name: `GET /v1/vouchers?limit=100 (${VOUCHERS} vouchers, ${REDEMPTIONS} redemptions)`, unit: 'req/s', subject: measured.subject, baseline: measured.baseline, baselineName: 'bare node:http, same JSON from memory, answered after the poll phase', higherIsBetter: true, goal: 3 };
    } finally {
      await new Promise((r) => bare.close(r));
      await app.close();
    }

    const input = { amountMinor: 26700, extrasMinor: 0, quantities: [{ optionLabel: 'Adult', value: 2 }, { optionLabel: 'Child', value: 2 }] };
    const bareSelect = sqlite.prepare('SELECT rp.* FROM resellers r JOIN rate_products rp ON rp.rate_id = r.rate_id WHERE r.id = ? AND rp.product_code = ?');
    const baseline = await callsPerSecond(2000, () => bareSelect.get(resellerId, product.productCode));
    const subject = await callsPerSecond(2000, () => commissionFor(engine.ctx.db, resellerId, product.productCode, input));
    return [
      searchRow,
      { name: 'commissionFor (NET_RATE, 2 options)', unit: 'calls/s', subject, baseline, baselineName: 'bare prepared SELECT of the same terms row', higherIsBetter: true },
    ];
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
