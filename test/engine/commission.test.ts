import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../fixtures/app';
import { aProduct } from '../fixtures/builders';
import { commissionFor } from '../../main/domain/commerce/commission';
import { SYSTEM_ACTOR } from '../../main/domain/context';
import type { ListedProductRateBody } from '../../main/contract/rates';

let t: TestApp;
let resellerId: number;
let unratedResellerId: number;
const codes: Record<string, string> = {};

/** One product per currency, with two options, and one rate holding terms for each. */
beforeAll(async () => {
  t = await startTestApp();
  const make = async (name: string, currency: string, adult: number, child: number) =>
    (await t.engine.products.create(aProduct({ name, currency: currency as never, priceOptions: [{ label: 'Adult', price: adult }, { label: 'Child', price: child }] }), SYSTEM_ACTOR)).productCode;
  codes.audNet = await make('AUD net', 'AUD', 100, 50);
  codes.audPct = await make('AUD percent', 'AUD', 100, 50);
  codes.audPctExtras = await make('AUD percent with extras', 'AUD', 100, 50);
  codes.jpyNet = await make('JPY net', 'JPY', 12000, 6000);
  codes.jpyPct = await make('JPY percent', 'JPY', 12000, 6000);
  codes.kwdNet = await make('KWD net', 'KWD', 25.5, 12.75);
  codes.kwdPct = await make('KWD percent', 'KWD', 25.5, 12.75);
  codes.unrated = await make('Not on the rate', 'AUD', 100, 50);
  const productRates: ListedProductRateBody[] = [
    { productCode: codes.audNet, commissionType: 'NET_RATE', netRates: [{ priceOptionLabel: 'Adult', netPrice: 80 }, { priceOptionLabel: 'Child', netPrice: 40.5 }] },
    { productCode: codes.audPct, commissionType: 'PERCENT', percentageCommission: 12.5, percentageIncludeExtras: false },
    { productCode: codes.audPctExtras, commissionType: 'PERCENT', percentageCommission: 12.5, percentageIncludeExtras: true },
    { productCode: codes.jpyNet, commissionType: 'NET_RATE', netRates: [{ priceOptionLabel: 'Adult', netPrice: 10000 }] },
    { productCode: codes.jpyPct, commissionType: 'PERCENT', percentageCommission: 7.5, percentageIncludeExtras: true },
    { productCode: codes.kwdNet, commissionType: 'NET_RATE', netRates: [{ priceOptionLabel: 'Adult', netPrice: 20.125 }, { priceOptionLabel: 'Child', netPrice: 10.001 }] },
    { productCode: codes.kwdPct, commissionType: 'PERCENT', percentageCommission: 15, percentageIncludeExtras: false },
  ];
  const rate = await t.engine.rates.create({ name: 'Unit', productRates }, SYSTEM_ACTOR);
  const agents = await t.engine.apiKeys.list();
  resellerId = agents.find((k) => k.role === 'agent')!.resellerId!;
  await t.engine.resellers.attachRate(rate.rateId, resellerId, SYSTEM_ACTOR);
  await t.engine.apiKeys.create({ role: 'agent', name: 'No rate desk' });
  unratedResellerId = (await t.engine.apiKeys.list()).find((k) => k.name === 'No rate desk')!.resellerId!;
});
afterAll(() => t.close());

const commission = (code: string, amountMinor: number, quantities: [string, number][], extrasMinor = 0, reseller = resellerId) =>
  commissionFor(t.engine.ctx.db, reseller, code, { amountMinor, extrasMinor, quantities: quantities.map(([optionLabel, value]) => ({ optionLabel, value })) });

describe('commissionFor', () => {
  it('NET_RATE in AUD: net is the sum of net prices times quantities, commission the rest of the amount', async () => {
    // 2 adults at 100 + 1 child at 50 = 250.00; net 2 × 80.00 + 40.50 = 200.50
    expect(await commission(codes.audNet, 25000, [['Adult', 2], ['Child', 1]], 1500)).toMatchObject({ commissionMinor: 4950, netMinor: 20050 });
  });

  it('NET_RATE matches option labels in any case and skips zero quantities', async () => {
    expect(await commission(codes.audNet, 10000, [['adult', 1], ['Child', 0]])).toMatchObject({ commissionMinor: 2000, netMinor: 8000 });
  });

  it('NET_RATE in JPY (no minor digits)', async () => {
    expect(await commission(codes.jpyNet, 36000, [['Adult', 3]])).toMatchObject({ commissionMinor: 6000, netMinor: 30000 });
  });

  it('NET_RATE in KWD (three minor digits)', async () => {
    // 2 × 25.500 + 12.750 = 63.750 KWD; net 2 × 20.125 + 10.001 = 50.251
    expect(await commission(codes.kwdNet, 63750, [['Adult', 2], ['Child', 1]])).toMatchObject({ commissionMinor: 13499, netMinor: 50251 });
  });

  it('NET_RATE counts a booked option without a net rate at its product price (no commission on it)', async () => {
    // JPY rate lists Adult only: the child is netted at its price 6000
    expect(await commission(codes.jpyNet, 18000, [['Adult', 1], ['Child', 1]])).toMatchObject({ commissionMinor: 2000, netMinor: 16000 });
  });

  it('NET_RATE reports a negative commission when the amount was set below the net total', async () => {
    expect(await commission(codes.audNet, 7000, [['Adult', 1]])).toMatchObject({ commissionMinor: -1000, netMinor: 8000 });
  });

  it('PERCENT in AUD without extras: rounds half up once, on the product amount only', async () => {
    // 12.5 % of 123.45 = 15.43125 → 15.43; of 123.48 = 15.435 → 15.44 (half up)
    expect(await commission(codes.audPct, 12345, [['Adult', 1]], 5000)).toMatchObject({ commissionMinor: 1543, netMinor: 10802 });
    expect(await commission(codes.audPct, 12348, [['Adult', 1]], 5000)).toMatchObject({ commissionMinor: 1544, netMinor: 10804 });
  });

  it('names the commission type, and for PERCENT the base the percentage was taken of', async () => {
    expect(await commission(codes.audNet, 10000, [['Adult', 1]])).toEqual({ commissionMinor: 2000, netMinor: 8000, commissionType: 'NET_RATE' });
    expect(await commission(codes.audPctExtras, 10000, [['Adult', 1]], 2000)).toEqual({ commissionMinor: 1500, netMinor: 8500, commissionType: 'PERCENT', baseMinor: 12000 });
  });

  it('PERCENT in AUD with extras included: the extras count toward the commission', async () => {
    // 12.5 % of (100.00 + 20.00) = 15.00
    expect(await commission(codes.audPctExtras, 10000, [['Adult', 1]], 2000)).toMatchObject({ commissionMinor: 1500, netMinor: 8500 });
  });

  it('PERCENT in JPY rounds to whole yen, half up', async () => {
    // 7.5 % of (12000 + 100) = 907.5 → 908
    expect(await commission(codes.jpyPct, 12000, [['Adult', 1]], 100)).toMatchObject({ commissionMinor: 908, netMinor: 11092 });
  });

  it('PERCENT in KWD rounds to the fils (three digits)', async () => {
    // 15 % of 25.503 = 3.82545 → 3.825 (3825.45 fils → 3825)
    expect(await commission(codes.kwdPct, 25503, [['Adult', 1]])).toMatchObject({ commissionMinor: 3825, netMinor: 21678 });
    // 15 % of 25.510 = 3.8265 → 3.827 (3826.5 fils → 3827)
    expect(await commission(codes.kwdPct, 25510, [['Adult', 1]])).toMatchObject({ commissionMinor: 3827, netMinor: 21683 });
  });

  it('answers null when the product is not on the rate or the reseller has no rate', async () => {
    expect(await commission(codes.unrated, 10000, [['Adult', 1]])).toBeNull();
    expect(await commission(codes.audNet, 10000, [['Adult', 1]], 0, unratedResellerId)).toBeNull();
    expect(await commission(codes.audNet, 10000, [['Adult', 1]], 0, 999999)).toBeNull();
  });

  it('works inside a write transaction through tx.db (as the bookings service calls it)', async () => {
    const result = await t.engine.ctx.write(SYSTEM_ACTOR, (tx) => commissionFor(tx.db, resellerId, codes.audNet, { amountMinor: 10000, extrasMinor: 0, quantities: [{ optionLabel: 'Adult', value: 1 }] }));
    expect(result).toMatchObject({ commissionMinor: 2000, netMinor: 8000 });
  });
});
