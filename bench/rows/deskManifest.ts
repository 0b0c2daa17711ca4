import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../db/connection';
import { createEngine } from '../../main/engine';
import { createServer, LOOPBACK_NAMES } from '../../main/api/server';
import { aBookingRow, aSessionRow } from '../../test/fixtures/bookingRows';
import { ensureWebBuild, launchChromium } from '../../test/fixtures/browser';
import type { BenchRow } from '../types';

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];

/** The same people as plain HTML rows (name, state, a button each): what a page with no app would show. */
function staticManifest(rows: { order: string; names: string[] }[]): string {
  const body = rows
    .map((b) => `<section><h3>${b.order}</h3>${b.names.map((n) => `<div class="mf-person"><b>${n}</b> <small>Expected</small> <button>Check in</button> <button>No-show</button></div>`).join('')}</section>`)
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>static</title></head><body><h2>Manifest</h2>${body}</body></html>`;
}

// Records, in the page, when the first passenger row is painted (the frame after it is in the DOM).
const FIRST_ROW_PAINTED = `(() => {
  const seen = () => { requestAnimationFrame(() => requestAnimationFrame(() => { window.__firstRows = performance.now(); })); };
  const observer = new MutationObserver(() => { if (document.querySelector('.mf-person')) { observer.disconnect(); seen(); } });
  observer.observe(document, { subtree: true, childList: true });
})()`;

/**
 * The desk's manifest for 1,000 participants in Chromium, from navigation to the first passenger
 * rows painted (app start, key, fetch of the manifest, virtualised render), against the same rows
 * as a static HTML page from the same server in the same browser (goal ≤ 2×).
 */
export default async function (): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-bench-desk-'));
  const handle = await openDatabase(join(dir, 'tourdesk.sqlite'), { migrate: true });
  const engine = createEngine({ db: handle, config: { dataDir: dir, instanceNo: 1 } });
  const browser = await launchChromium();
  try {
    await engine.companies.configure({ companyName: 'Bench Tours', alias: 'bench', currency: 'AUD', timezone: 'Australia/Sydney', locale: 'en_AU', email: 'b@bench.example' });
    const { key } = await engine.apiKeys.create({ role: 'supplier', name: 'Bench desk' });
    const product = await engine.products.create(
      { name: 'Bench Ferry', productType: 'ACTIVITY', bookingMode: 'INVENTORY', confirmMode: 'AUTOCONFIRM', barcodeOutputType: 'PARTICIPANT', qrCodeType: 'INTERNAL', priceOptions: [{ label: 'Adult', price: 50 }] } as never,
      { keyId: null, role: 'system', resellerId: null, name: 'bench' },
    );
    const start = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const session = aSessionRow(handle.sqlite, { productCode: String(product.productCode), startTime: start, seats: 1000 });
    const rows: { order: string; names: string[] }[] = [];
    for (let b = 0; b < 100; b++) {
      const names = Array.from({ length: 10 }, (_, p) => `Rider ${b * 10 + p + 1}`);
      const booking = aBookingRow(handle.sqlite, { sessionId: session.id, barcodes: 'PARTICIPANT', quantities: [{ label: 'Adult', value: 10 }], names });
      rows.push({ order: booking.orderNumber, names });
    }
    const app = await createServer({ engine, allowedHosts: LOOPBACK_NAMES, webRoot: await ensureWebBuild() });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const html = staticManifest(rows);
    // bypassCSP: the page's CSP (rightly) refuses the string-evaluated measuring code.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    await context.addInitScript(`localStorage.setItem('tourdesk.apiKey', ${JSON.stringify(key)});`);
    await context.addInitScript(FIRST_ROW_PAINTED);
    // The static page comes from the same origin and connection, as a plain HTML answer.
    await context.route(`${baseUrl}/static-manifest.html`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
    const page = await context.newPage();

    const firstRows = async (url: string) => {
      await page.goto(url);
      await page.waitForFunction('window.__firstRows !== undefined', undefined, { timeout: 60_000 });
      return page.evaluate('window.__firstRows') as Promise<number>;
    };
    // Warm both (build cached, JIT, SQLite pages), then alternate so drift hits both alike.
    await firstRows(`${baseUrl}/sessions/${session.id}`);
    await firstRows(`${baseUrl}/static-manifest.html`);
    const app5: number[] = [];
    const static5: number[] = [];
    for (let i = 0; i < 7; i++) {
      app5.push(await firstRows(`${baseUrl}/sessions/${session.id}`));
      static5.push(await firstRows(`${baseUrl}/static-manifest.html`));
    }
    const domRows = await (async () => {
      await page.goto(`${baseUrl}/sessions/${session.id}`);
      await page.waitForSelector('.mf-person');
      return page.evaluate(() => document.querySelectorAll('.mf-row').length);
    })();
    await context.close();
    await app.close();
    return [
      {
        name: `desk manifest: first passenger rows painted, 1,000 participants, median of 7 (${domRows} rows in the DOM)`,
        unit: 'ms',
        subject: median(app5),
        baseline: median(static5),
        baselineName: 'the same 1,000 rows as static HTML, same server and browser',
        higherIsBetter: false,
        goal: 2,
      },
    ];
  } finally {
    await browser.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
