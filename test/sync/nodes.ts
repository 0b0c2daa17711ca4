import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../db/connection';
import { createEngine, type Engine } from '../../main/engine';
import { createServer, LOOPBACK_NAMES, type TourDeskServer } from '../../main/api/server';
import { answerPull, answerPush, answerSnapshot, exchangeWith, type LocalSide, type PeerTransport } from '../../main/sync/exchange';
import { fixedClock, TEST_COMPANY } from '../fixtures/app';

/** One instance for sync tests: a real engine on its own SQLite file, behind the real HTTP server. */
export interface SyncNode {
  name: string;
  engine: Engine;
  app: TourDeskServer;
  dir: string;
  clock: ReturnType<typeof fixedClock>;
  key: string;
  side: LocalSide;
  call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }>;
  dump(): Promise<string>;
  close(): Promise<void>;
}

/** A hub (configured company) or a desk (no catalogue of its own, following `hub`). */
export async function aSyncNode(name: string, options: { instanceNo: number; hub?: SyncNode; clock?: ReturnType<typeof fixedClock>; dir?: string }): Promise<SyncNode> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), `tourdesk-sync-${name}-`));
  const handle = await openDatabase(join(dir, 'tourdesk.sqlite'), { migrate: true });
  const clock = options.clock ?? fixedClock('2030-01-15T00:00:00Z');
  const engine = createEngine({ db: handle, clock, config: { dataDir: dir, instanceNo: options.instanceNo } });
  if (options.hub) await engine.replica.setHub(options.hub.engine.replica.origin);
  else if (!(await engine.companies.supplierOrNull())) await engine.companies.configure(TEST_COMPANY);
  const { key } = await engine.apiKeys.create({ role: 'supplier', name: `${name} supplier` });
  const app = await createServer({ engine, allowedHosts: LOOPBACK_NAMES });
  await app.ready();
  const side: LocalSide = { replica: engine.replica, instanceNo: options.instanceNo, now: () => clock.now().getTime(), knownInstances: () => ({}) };
  return {
    name,
    engine,
    app,
    dir,
    clock,
    key,
    side,
    async call(method, url, body) {
      const response = await app.inject({ method: method as 'GET', url, headers: { host: '127.0.0.1', apikey: key }, ...(body === undefined ? {} : { payload: body as object }) });
      return { status: response.statusCode, body: response.json() };
    },
    dump: () => engine.replica.canonicalDump(),
    async close() {
      await app.close();
      await engine.close();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A transport straight into another node's answer functions (no HTTP), with optional faults. */
export function directTransport(to: SyncNode, faults: { beforePull?: () => void; beforePush?: () => void; snapshots?: boolean } = {}): PeerTransport {
  return {
    ...(faults.snapshots === false ? {} : { snapshot: async (request) => JSON.parse(JSON.stringify(await answerSnapshot(to.side, request))) }),
    pull: async (request) => {
      faults.beforePull?.();
      return JSON.parse(JSON.stringify(await answerPull(to.side, request)));
    },
    push: async (request) => {
      faults.beforePush?.();
      return answerPush(to.side, JSON.parse(JSON.stringify(request)));
    },
  };
}

/** A full exchange from `from` with `to`. */
export function exchange(from: SyncNode, to: SyncNode) {
  return exchangeWith(from.side, directTransport(to));
}
