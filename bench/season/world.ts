import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../db/connection';
import { createEngine, type Engine } from '../../main/engine';
import { createServer, LOOPBACK_NAMES, type TourDeskServer } from '../../main/api/server';
import type { Actor, Clock } from '../../main/domain/context';

export const DAY_MS = 86_400_000;
/** The season's first day (a Sydney morning): every instance's clock starts here and moves together. */
export const SEASON_START = Date.parse('2030-01-06T22:00:00Z');

/** One clock for the whole simulation: instances' clocks moving together, so no stamp is refused as ahead. */
export interface SeasonClock extends Clock {
  advance(ms: number): void;
  at(): number;
}

export function seasonClock(): SeasonClock {
  let now = SEASON_START;
  return { now: () => new Date(now), advance: (ms) => void (now += ms), at: () => now };
}

/** An instance as `tourdesk serve` runs one: a real engine on its own SQLite file (background checkpoints), behind the real server. */
export interface SeasonNode {
  name: string;
  engine: Engine;
  app: TourDeskServer;
  dir: string;
  file: string;
  key: string;
  /** The actor of `key`, as admission finds it: what the season's own writes pass to the engine's services in process. */
  actor: Actor;
  /** The API through fastify's inject (no socket), with this node's supplier key; throws on anything but 200. */
  call(method: string, url: string, body?: unknown): Promise<any>;
  close(): Promise<void>;
}

export async function aSeasonNode(root: string, name: string, instanceNo: number, clock: SeasonClock): Promise<SeasonNode> {
  const dir = mkdtempSync(join(root, `${name}-`));
  const file = join(dir, 'tourdesk.sqlite');
  const handle = await openDatabase(file, { migrate: true, checkpointInBackground: true });
  const engine = createEngine({ db: handle, clock, config: { dataDir: dir, instanceNo } });
  if (instanceNo === 1) await engine.companies.configure({ companyName: 'Season Tours', alias: 'season', currency: 'AUD', timezone: 'Australia/Sydney', locale: 'en_AU', email: 'office@season.example' });
  const { id, key } = await engine.apiKeys.create({ role: 'supplier', name: `${name} desk` });
  const actor: Actor = { keyId: id, role: 'supplier', resellerId: null, name: `${name} desk` };
  const app = await createServer({ engine, allowedHosts: LOOPBACK_NAMES });
  await app.ready();
  return {
    name,
    engine,
    app,
    dir,
    file,
    key,
    actor,
    async call(method, url, body) {
      const response = await app.inject({ method: method as 'GET', url, headers: { host: '127.0.0.1', apikey: key }, ...(body === undefined ? {} : { payload: body as object }) });
      if (response.statusCode !== 200) throw new Error(`${name}: ${method} ${url} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
      return response.json();
    },
    async close() {
      await app.close();
      await engine.close();
    },
  };
}

/** The hub listening on loopback, so desks pair with it and exchange over HTTP as in the field. */
export async function listen(node: SeasonNode): Promise<string> {
  await node.app.listen({ port: 0, host: '127.0.0.1' });
  const address = node.app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/** One exchange of `desk` with every peer (its hub); answers the ops received; throws on a failed exchange. */
export async function syncDesk(desk: SeasonNode): Promise<number> {
  let received = 0;
  for (const result of await desk.engine.sync.syncAll()) {
    if (result.error !== null) throw new Error(`${desk.name}: exchange failed: ${result.error}`);
    received += result.report?.received ?? 0;
  }
  return received;
}

/** Runs `work` over `items`, `width` at a time (writes waiting together share a commit, as a busy desk's do). */
export async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}
