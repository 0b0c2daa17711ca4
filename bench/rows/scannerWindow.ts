import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../db/connection';
import { createEngine } from '../../main/engine';
import { createServer, LOOPBACK_NAMES } from '../../main/api/server';
import { aBookingRow, aSessionRow } from '../../test/fixtures/bookingRows';
import { ensureWebBuild, launchChromium } from '../../test/fixtures/browser';
import type { BenchRow } from '../types';
import { percentile } from '../percentile';
import { timeWedgeScans } from '../wedgeScans';

const SYSTEM = { keyId: null, role: 'system', resellerId: null, name: 'bench' } as const;
const DAY_MS = 86_400_000;

/**
 * The guide's scanner in Chromium at 390x844, offline, over the window copy of issue 36: 40
 * departures over 4 days (yesterday to 2 days ahead), 6,000 people. A wedge scan to its verdict
 * painted (goal p99 ≤ 50 ms; the p50 beside it), today's tickets checking in (queued in the outbox,
 * laid over the copy) and other days' refused. bench/rows/scanner.ts has the same for one 400-person day.
 */
export default async function (): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-bench-window-'));
  const handle = await openDatabase(join(dir, 'tourdesk.sqlite'), { migrate: true });
  const engine = createEngine({ db: handle, config: { dataDir: dir, instanceNo: 1 } });
  const browser = await launchChromium();
  try {
    await engine.companies.configure({ companyName: 'Bench Tours', alias: 'bench', currency: 'AUD', timezone: 'UTC', locale: 'en_AU', email: 'b@bench.example' });
    const { key } = await engine.apiKeys.create({ role: 'checkin', name: 'Bench phone' });
    const product = await engine.products.create(
      { name: 'Bench Cruise', productType: 'ACTIVITY', bookingMode: 'INVENTORY', confirmMode: 'AUTOCONFIRM', barcodeOutputType: 'PARTICIPANT', qrCodeType: 'INTERNAL', priceOptions: [{ label: 'Adult', price: 50 }] } as never,
      SYSTEM,
    );
    // The company's today (UTC here) from 08:00, 10 departures a day from yesterday to 2 days ahead, 50 bookings of 3 each.
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    const todays: string[] = [];
    const others: string[] = [];
    for (let s = 0; s < 40; s++) {
      const day = Math.floor(s / 10) - 1;
      const startTime = new Date(today + day * DAY_MS + (8 + (s % 10)) * 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
      const session = aSessionRow(handle.sqlite, { productCode: String(product.productCode), startTime, seats: 200 });
      for (let b = 0; b < 50; b++) {
        const booking = aBookingRow(handle.sqlite, { sessionId: session.id, barcodes: 'PARTICIPANT', quantities: [{ label: 'Adult', value: 3 }], names: ['Ann Example', 'Bob Example', 'Cy Example'] });
        (day === 0 ? todays : others).push(...(booking.participantCodes as string[]));
      }
    }
    const app = await createServer({ engine, allowedHosts: LOOPBACK_NAMES, webRoot: await ensureWebBuild() });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/scan#key=${encodeURIComponent(key)}`);
    // The whole window on the device: its 40 departures.
    await page.waitForFunction(`/ 40 departures on this device/.test(document.querySelector('.served')?.textContent ?? '')`, undefined, { timeout: 120_000 });
    await context.setOffline(true);
    await page.waitForFunction(`/Offline/.test(document.querySelector('.conn')?.textContent ?? '')`, undefined, { timeout: 30_000 });

    const SCANS = 200;
    // Every 4th scan another day's ticket (refused), the rest today's (checked in and queued).
    const list = Array.from({ length: SCANS }, (_, i) => (i % 4 === 3 ? others[i * 7] : todays[i * 3]));
    const samples = await timeWedgeScans(page, list, 30);
    const kinds: Record<string, number> = await page.evaluate(`(() => ({ waiting: Number(document.querySelector('[aria-label="Waiting to send"]')?.textContent?.match(/\\d+/)?.[0]) }))()`);
    if (kinds.waiting !== SCANS - SCANS / 4) throw new Error(`expected ${SCANS - SCANS / 4} check-ins waiting, saw ${kinds.waiting}`);
    await context.close();
    await app.close();
    return [
      { name: `scanner window copy (40 departures, 6,000 people), offline: scan to verdict painted, p99 of ${SCANS} (goal ≤ 50 ms)`, unit: 'ms', subject: percentile(samples, 99), baseline: percentile(samples, 50), baselineName: 'p50', higherIsBetter: false, limit: 50 },
    ];
  } finally {
    await browser.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
