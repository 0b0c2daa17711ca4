import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { openDatabase } from '../../db/connection';
import { createEngine } from '../../main/engine';
import { createServer, LOOPBACK_NAMES } from '../../main/api/server';
import { SYSTEM_ACTOR } from '../../main/domain/context';
import { IMAGE_VARIANTS, renderVariants } from '../../main/domain/catalogue/productImages';
import type { BenchRow } from '../types';

const DESCRIPTION = 'A guided walk through the old town with stories of the port, its ships and the people who built it. Comfortable shoes recommended.';

async function msPerOp(runs: number, op: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(3, runs); i++) await op(); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) await op();
  return Number(process.hrtime.bigint() - start) / 1e6 / runs;
}

/** A photo-like 2400×1600 JPEG (noise over a gradient: neither trivially compressible nor tiny). */
async function samplePhoto(): Promise<Buffer> {
  const width = 2400;
  const height = 1600;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = ((i % (width * 3)) / 12 + ((i * 2654435761) >>> 28)) & 255;
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

/**
 * Catalogue rows. (1) Image variants as TourDesk renders them (one decoder, three resizes in
 * parallel) against the obvious way (a fresh decode per variant, one after another).
 * (2) A category's products over HTTP against the same number of products from GET /v1/products:
 * the category join should cost next to nothing on top of building the product objects.
 */
export default async function catalogueBench(): Promise<BenchRow[]> {
  const photo = await samplePhoto();
  const rendered = await msPerOp(8, () => renderVariants(photo));
  const naive = await msPerOp(8, async () => {
    for (const size of IMAGE_VARIANTS) await sharp(photo).rotate().resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true }).jpeg().toBuffer();
  });

  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-bench-catalogue-'));
  try {
    const engine = createEngine({ db: await openDatabase(join(dir, 'bench.sqlite'), { migrate: true }), config: { dataDir: dir, instanceNo: 1 } });
    await engine.companies.configure({ companyName: 'Bench Tours', currency: 'AUD', timezone: 'Australia/Sydney' });
    const { key } = await engine.apiKeys.create({ role: 'supplier', name: 'bench' });
    const category = await engine.categories.create({ name: 'Everything' }, SYSTEM_ACTOR);
    for (let i = 0; i < 50; i++) {
      const product = await engine.products.create(
        { name: `Tour ${String(i).padStart(2, '0')}`, shortDescription: 'A two-hour guided walk.', description: DESCRIPTION, priceOptions: [{ label: 'Adult', price: 50 }, { label: 'Child', price: 25 }] },
        SYSTEM_ACTOR,
      );
      await engine.categories.addProduct(category.id, product.productCode, SYSTEM_ACTOR);
    }
    const app = await createServer({ engine, allowedHosts: LOOPBACK_NAMES });
    await app.ready();
    const get = (url: string) => async () => {
      const res = await app.inject({ method: 'GET', url, headers: { host: '127.0.0.1', apikey: key } });
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
    };
    const categoryMs = await msPerOp(300, get(`/v1/categories/${category.id}/products?limit=50`));
    const productsMs = await msPerOp(300, get('/v1/products?limit=50'));
    await app.close();
    await engine.close();
    return [
      { name: 'product image: 3 variants of a 2400×1600 JPEG', unit: 'ms/image', subject: rendered, baseline: naive, baselineName: 'a fresh decode per variant, sequential', higherIsBetter: false },
      { name: 'GET /v1/categories/{id}/products (50 products)', unit: 'ms/request', subject: categoryMs, baseline: productsMs, baselineName: 'GET /v1/products?limit=50', higherIsBetter: false },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
