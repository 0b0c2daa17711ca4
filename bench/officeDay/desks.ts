import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../db/connection';
import type { Actor } from '../../main/domain/context';
import { createEngine, type Engine } from '../../main/engine';
import { startBackgroundSync, type BackgroundSync, type PeerRun } from '../../main/sync/background';
import type { Ledger } from './ledger';
import { saleBody } from './hub';

/** Every desk's exchanges, as the background sync ran them. */
export interface ExchangeTally {
  total: number;
  /** Refused or failed half-way (a cut answer, a refusal): the background retries after its back-off. */
  failed: number;
  /** Went through and moved ops (pulled or pushed some). */
  busy: number;
}

/** One simulated desk: a real engine on its own SQLite file, paired with the hub, synced by the product's background loop. */
export interface Desk {
  no: number;
  engine: Engine;
  /** Starts the background sync (every `everyMs`), after `offsetMs` so desks do not all poll at once. */
  start(everyMs: number, offsetMs: number): void;
  /** Stops the background sync and waits for an exchange under way. */
  pause(): Promise<void>;
  /** One exchange now (the end of day's drain), tallied and checked like the background's. */
  syncNow(): Promise<PeerRun[]>;
  /** A walk-up sold at this desk (its own write, pushed with its next exchange). */
  sell(marker: string, productCode: string, startTime: string): Promise<void>;
  /** How many bookings this desk holds for each marker of the day. */
  countsByMarker(): Map<string, number>;
  close(): Promise<void>;
}

/** Bookings per marker (the customer's last name); `OD-` marks the day's sales. */
const COUNT_BY_MARKER = "SELECT c.last_name AS marker, count(*) AS n FROM bookings b JOIN customers c ON c.id = b.customer_id WHERE c.last_name LIKE 'OD-%' GROUP BY c.last_name";
const HELD = 'SELECT c.last_name AS marker FROM bookings b JOIN customers c ON c.id = b.customer_id WHERE c.last_name IN (SELECT value FROM json_each(?))';

/**
 * Opens desk `no` in a fresh folder and pairs it with the hub through `hubUrl` with its own sync
 * key, as `tourdesk peers add` does; its first exchange (a snapshot join) runs here. The desks
 * share this process: no background checkpoint worker each (SQLite's automatic checkpoints instead).
 */
export async function openDesk(no: number, hubUrl: string, syncKey: string, ledger: Ledger, tally: ExchangeTally, dirs: string[]): Promise<Desk> {
  const dir = mkdtempSync(join(tmpdir(), `tourdesk-bench-office-desk${no}-`));
  dirs.push(dir);
  const handle = await openDatabase(join(dir, 'tourdesk.sqlite'), { migrate: true });
  const engine = createEngine({ db: handle, config: { dataDir: dir, instanceNo: no } });
  const { id } = await engine.apiKeys.create({ role: 'supplier', name: `Desk ${no}` });
  const actor: Actor = { keyId: id, role: 'supplier', resellerId: null, name: `Desk ${no}` };
  await engine.sync.addPeer(hubUrl, syncKey);
  ledger.addDesk(no);
  const held = handle.sqlite.prepare(HELD).pluck();
  const counts = handle.sqlite.prepare(COUNT_BY_MARKER);
  let background: BackgroundSync | null = null;
  let starting: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();

  async function syncOnce(): Promise<PeerRun[]> {
    const run = engine.sync.syncAll();
    running = run.catch(() => {});
    const results = await run;
    for (const result of results) {
      tally.total++;
      if (result.error !== null) tally.failed++;
      else if (result.report && result.report.received + result.report.sent > 0) tally.busy++;
    }
    const unseen = ledger.unseenBy(no);
    if (unseen.length > 0) ledger.seen(no, held.all(JSON.stringify(unseen)) as string[], performance.now());
    return results;
  }

  const first = await syncOnce();
  if (first[0]?.error) throw new Error(`desk ${no} could not join the hub: ${first[0].error}`);
  return {
    no,
    engine,
    start(everyMs, offsetMs) {
      starting = setTimeout(() => {
        starting = null;
        background = startBackgroundSync(syncOnce, () => {}, { everyMs });
      }, offsetMs);
    },
    async pause() {
      if (starting) clearTimeout(starting);
      starting = null;
      background?.stop();
      background = null;
      await running;
    },
    syncNow: syncOnce,
    async sell(marker, productCode, startTime) {
      await engine.bookings.create(saleBody(productCode, startTime, marker, true), actor);
      ledger.record({ marker, deskNo: no, at: performance.now() });
    },
    countsByMarker: () => new Map((counts.all() as { marker: string; n: number }[]).map((r) => [r.marker, r.n])),
    close: () => engine.close(),
  };
}
