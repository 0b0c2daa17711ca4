import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../db/connection';
import { createEngine } from '../../main/engine';
import { aBookingRow, aSessionRow } from '../../test/fixtures/bookingRows';
import { mergeCopy } from '../../renderer/src/scanner/copies';
import { buildIndex, decide } from '../../renderer/src/scanner/verdict';
import type { BenchRow } from '../types';
import { percentile } from '../percentile';

const SYSTEM = { keyId: null, role: 'system', resellerId: null, name: 'bench' } as const;

/**
 * The scanner's window copy (GET /v1/checkin/device-copy) for a 4-day window of 40 departures and
 * 6,000 participants: its size as the device stores it (goal < 10 MB), what a refresh after 100
 * check-ins moves (goal < 100 KB, against the whole copy again), and the pure offline decision over
 * it (goal p99 ≤ 50 ms; painting it is measured by the scanner rows in Chromium).
 */
export default async function (): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-bench-copy-'));
  const handle = await openDatabase(join(dir, 'tourdesk.sqlite'), { migrate: true });
  const engine = createEngine({ db: handle, config: { dataDir: dir, instanceNo: 1 } });
  try {
    await engine.companies.configure({ companyName: 'Bench Tours', alias: 'bench', currency: 'AUD', timezone: 'Australia/Sydney', locale: 'en_AU', email: 'b@bench.example' });
    const product = await engine.products.create(
      { name: 'Bench Cruise', productType: 'ACTIVITY', bookingMode: 'INVENTORY', confirmMode: 'AUTOCONFIRM', barcodeOutputType: 'PARTICIPANT', qrCodeType: 'INTERNAL', priceOptions: [{ label: 'Adult', price: 50 }] } as never,
      SYSTEM,
    );
    const codes: string[] = [];
    // 40 departures over 4 days (2 to 5 January 2030, Sydney), 50 bookings of 3 each: 6,000 people.
    for (let s = 0; s < 40; s++) {
      const startTime = new Date(Date.UTC(2030, 0, 1, 22 + (s % 10), 0) + Math.floor(s / 10) * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
      const session = aSessionRow(handle.sqlite, { productCode: String(product.productCode), startTime, seats: 200 });
      for (let b = 0; b < 50; b++) {
        const booking = aBookingRow(handle.sqlite, { sessionId: session.id, barcodes: 'PARTICIPANT', quantities: [{ label: 'Adult', value: 3 }], names: ['Ann Example', 'Bob Example', 'Cy Example'], customer: { firstName: 'Pat', lastName: `Guest ${s}-${b}`, phone: '+61 400 123 757' } });
        codes.push(...(booking.participantCodes as string[]));
      }
    }
    // The rows above went in by SQL: the engine's next write folds them into the op log, so one is made first.
    await engine.scanner.scan(SYSTEM as never, { code: codes[codes.length - 1], device: 'bench' } as never);
    const query = { from: '2030-01-02', to: '2030-01-05' };
    const whole = await engine.deviceCopy.get(query);
    const copy = mergeCopy(null, whole, 0);
    const stored = JSON.stringify(copy).length;
    for (const code of codes.slice(0, 100)) await engine.scanner.scan(SYSTEM as never, { code, device: 'bench' } as never);
    const changes = await engine.deviceCopy.get({ ...query, since: whole.cursor });
    if (changes.full) throw new Error(`the refresh started over: ${changes.restart}`);
    const refreshBytes = JSON.stringify(changes).length;
    const merged = mergeCopy(copy, changes, 1);
    const index = buildIndex(merged);
    const samples: number[] = [];
    for (const code of codes.slice(0, 2_000)) {
      const started = performance.now();
      decide({ code, copy: merged, index, sessionFilter: null, day: '2030-01-03', now: Date.UTC(2030, 0, 2) });
      samples.push(performance.now() - started);
    }
    const people = Object.values(merged.bookings).reduce((n, b) => n + b.participants.length, 0);
    return [
      { name: `scanner copy: stored size, ${Object.keys(merged.sessions).length} departures, ${people} people (goal < 10 MB)`, unit: 'MB', subject: stored / 1e6, baseline: 10, baselineName: 'goal', higherIsBetter: false, limit: 10 },
      { name: 'scanner copy: refresh after 100 check-ins (goal < 100 KB)', unit: 'KB', subject: refreshBytes / 1e3, baseline: stored / 1e3, baselineName: 'the whole copy again', higherIsBetter: false, limit: 100 },
      { name: 'scanner copy: offline decision over the copy, p99 of 2,000 (goal ≤ 50 ms)', unit: 'ms', subject: percentile(samples, 99), baseline: percentile(samples, 50), baselineName: 'p50', higherIsBetter: false, limit: 50 },
    ];
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
