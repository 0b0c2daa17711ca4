import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootEngine } from '../../main/boot';
import { SYSTEM_ACTOR } from '../../main/domain/context';

describe('demo data: rates, agents and vouchers', () => {
  it('loads a rate with NET_RATE and PERCENT terms, an agent on it, and vouchers of several types and states', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tourdesk-demo-'));
    const { engine } = await bootEngine({ dataDir: dir, demo: true });
    try {
      const [rate] = await engine.rates.search({ limit: 100, offset: 0 }, SYSTEM_ACTOR);
      expect(rate.productRates.map((p) => p.commissionType).sort()).toEqual(['NET_RATE', 'PERCENT']);
      const agent = (await engine.apiKeys.list()).find((k) => k.role === 'agent')!;
      const reseller = await engine.resellers.get(agent.resellerId!);
      expect(reseller.rateId).toBe(rate.rateId);
      const vouchers = await engine.vouchers.search({ limit: 100, offset: 0 }, SYSTEM_ACTOR);
      const byCode = Object.fromEntries(vouchers.map((v) => [v.code, v]));
      expect(Object.values(byCode).map((v) => v.valueType).sort()).toEqual(['PERCENT', 'PERCENT_LIMITPRODUCT', 'PRODUCT', 'VALUE', 'VALUE', 'VALUE_LIMITPRODUCT']);
      expect(byCode.WINTER25.status).toBe('EXPIRED');
      // The demo bookings pay a museum pass partly with WELCOME50.
      expect(byCode.WELCOME50.status).toBe('PARTIALLY_REDEEMED');
      expect(vouchers.filter((v) => v.status === 'ISSUED')).toHaveLength(4);
    } finally {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
