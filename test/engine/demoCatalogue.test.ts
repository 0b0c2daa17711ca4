import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../db/connection';
import { createEngine, type Engine } from '../../main/engine';
import { loadDemo } from '../../main/demo';
import { fixedClock } from '../fixtures/app';

let engine: Engine;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tourdesk-demo-'));
  engine = createEngine({ db: await openDatabase(join(dir, 'demo.sqlite'), { migrate: true }), clock: fixedClock(), config: { dataDir: dir, instanceNo: 1 } });
  await loadDemo(engine);
});
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('demo catalogue', () => {
  it('has categories, one of them hidden, with products in them', async () => {
    const categories = await engine.categories.search({ limit: 100, offset: 0 });
    expect(categories.map((c) => [c.name, c.visible])).toEqual([
      ['Day tours', true],
      ['Desk only', false],
      ['On the water', true],
    ]);
    for (const category of categories) expect((await engine.categories.products(category.id, { limit: 100, offset: 0 })).length).toBeGreaterThan(0);
  });

  it('has one extra of each price type, each offered by a product', async () => {
    const extras = await engine.extras.search({ limit: 100, offset: 0 });
    expect(extras.map((e) => e.extraPriceType).sort()).toEqual(['ANY', 'FIXED', 'QUANTITY']);
    const products = await engine.products.search({ limit: 100, offset: 0 });
    const offered = new Set(products.flatMap((p) => (p.extras as { id: number }[]).map((e) => e.id)));
    for (const extra of extras) expect(offered.has(extra.id), extra.name).toBe(true);
  });

  it('gives the rainforest tour three hotel pickups with other locations allowed, and the cruise partner-connect settings', async () => {
    const [rainforest] = await engine.products.search({ search: 'Rainforest', limit: 1, offset: 0 });
    const list = await engine.pickups.forProduct(rainforest.productCode);
    expect(list?.pickupLocations).toHaveLength(3);
    expect(list?.otherLocationInstructions).toBeTruthy();
    const [cruise] = await engine.products.search({ search: 'Harbour Sunset', limit: 1, offset: 0 });
    expect(await engine.partnerConnect.get(cruise.productCode)).toMatchObject({ enabled: true, externalProductId: 'HSC-001' });
  });
});
