import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFaultyProxy, type FaultyProxy } from '../../test/fixtures/faultyProxy';
import { stopServers } from '../hubProcess';
import { runAgent, jittered, type AgentTally } from './agents';
import { checkSales, hubCountsByMarker, type DayCheck } from './check';
import { processCpuMs, processTreeCpuMs } from './cpu';
import { openDesk, type Desk, type ExchangeTally } from './desks';
import { startOfficeHub, warmUp, type OfficeHub } from './hub';
import { Ledger } from './ledger';

export interface OfficeDayOptions {
  /** An empty PostgreSQL database for the hub. */
  databaseUrl: string;
  desks: number;
  agents: number;
  /** The busy day: agents booking, desks selling walk-ups, everyone syncing. */
  daySeconds: number;
  /** Desks polling with nothing to exchange (the hub's CPU per idle poll). */
  idleSeconds: number;
  /** Agents booking before the desks open (the hub's CPU per booking, taken out of the day's to leave the exchanges'). */
  agentsAloneSeconds: number;
  /** Each desk's background sync interval (the product's is 5 s). */
  everyMs: number;
  /** Each agent books about this often. */
  agentEveryMs: number;
  /** Each desk sells a walk-up about this often. */
  walkUpEveryMs: number;
  /** During the day, every Nth push's answer is cut on its way back (the hub applied it; the desk retries): 0 for none. */
  cutEvery: number;
  /** The PostgreSQL server's postmaster, when its CPU is to be read too. */
  postgresPid?: number;
  say?: (line: string) => void;
}

/** CPU the hub (and its database, when known) used over a phase, in ms. */
export interface PhaseCpu {
  hubMs: number;
  postgresMs: number | null;
}

export interface OfficeDayResult {
  ledger: Ledger;
  check: DayCheck;
  exchanges: ExchangeTally;
  agents: AgentTally;
  walkUps: number;
  /** Push answers the proxy cut (each an exchange the desk had to retry). */
  cutAnswers: number;
  idle: PhaseCpu & { polls: number };
  agentsAlone: PhaseCpu & { bookings: number };
  day: PhaseCpu & { exchanges: number; bookings: number };
}

/**
 * A day of an office on a PostgreSQL hub: a real `tourdesk serve --database` process, `desks`
 * real desk engines syncing with it every `everyMs` through the product's background sync and
 * HTTP peer client (behind a proxy that cuts some push answers), agents booking through
 * POST /v1/bookings with their own keys, and desks selling walk-ups. Measures propagation, every
 * failed exchange, the hub's CPU per idle poll and per busy exchange; ends with every sale checked
 * on the hub and on every desk.
 */
export async function simulateOfficeDay(options: OfficeDayOptions): Promise<OfficeDayResult> {
  const say = options.say ?? (() => {});
  const dirs: string[] = [];
  const desks: Desk[] = [];
  let hub: OfficeHub | null = null;
  let proxy: FaultyProxy | null = null;
  try {
    hub = await startOfficeHub(options.databaseUrl, dirs);
    const cpu = cpuReader(hub.server.child.pid!, options.postgresPid);
    const ledger = new Ledger();
    const agents: AgentTally = { booked: 0, refused: 0 };
    const agentKeys: string[] = [];
    for (let a = 0; a < options.agents; a++) agentKeys.push(await hub.newKey('agent', `Agent ${a + 1}`));
    await warmUp(hub, agentKeys[0], 30);
    say(`agents alone for ${options.agentsAloneSeconds} s…`);
    const alone = await phase(cpu, () => busyDay(options.agentsAloneSeconds, agentKeys.map((key, a) => (day) => runAgent(a + 1, 'a', key, hub!, ledger, options.agentEveryMs, agents, day))));
    const agentsAlone = { ...alone, bookings: agents.booked };

    proxy = await startFaultyProxy(hub.server.baseUrl);
    const exchanges: ExchangeTally = { total: 0, failed: 0, busy: 0 };
    for (let d = 0; d < options.desks; d++) {
      // Desk numbers from 2: the hub is instance 1.
      desks.push(await openDesk(d + 2, proxy.url, await hub.newKey('sync', `Desk ${d + 2}`), ledger, exchanges, dirs));
      say(`desk ${d + 2} joined`);
    }
    desks.forEach((desk, i) => desk.start(options.everyMs, (i * options.everyMs) / desks.length));
    await sleep(options.everyMs * 1.5); // every desk polling in its rhythm
    say(`idle for ${options.idleSeconds} s…`);
    const pollsBefore = exchanges.total;
    const idleCpu = await phase(cpu, () => sleep(options.idleSeconds * 1000));
    const idle = { ...idleCpu, polls: exchanges.total - pollsBefore };

    say(`the day, ${options.daySeconds} s…`);
    const cut = cutPushes(proxy, options.cutEvery);
    const [exchangesBefore, bookedBefore] = [exchanges.total, agents.booked];
    let walkUps = 0;
    const sellers = desks.map((desk) => async (day: { over: boolean }) => {
      for (let n = 0; ; n++) {
        await sleep(jittered(options.walkUpEveryMs));
        if (day.over) return;
        await desk.sell(`OD-D${desk.no}-${n}`, hub!.productCode, hub!.startTimes[n % hub!.startTimes.length]);
        walkUps++;
      }
    });
    const agentsAtWork = agentKeys.map((key, a) => (day: { over: boolean }) => runAgent(a + 1, '', key, hub!, ledger, options.agentEveryMs, agents, day));
    const dayCpu = await phase(cpu, () => busyDay(options.daySeconds, [...agentsAtWork, ...sellers]));
    const day = { ...dayCpu, exchanges: exchanges.total - exchangesBefore, bookings: agents.booked - bookedBefore };
    cut.stop();

    say('end of day: every desk exchanges until all hold every sale…');
    for (const desk of desks) await desk.pause();
    await drain(desks, ledger);
    const check = checkSales(ledger.sales, [await hubCountsByMarker(options.databaseUrl), ...desks.map((desk) => desk.countsByMarker())]);
    return { ledger, check, exchanges, agents, walkUps, cutAnswers: cut.count(), idle, agentsAlone, day };
  } finally {
    for (const desk of desks) await desk.pause().then(() => desk.close());
    await proxy?.close();
    if (hub) await stopServers([hub.server]);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

function cpuReader(hubPid: number, postgresPid: number | undefined): () => PhaseCpu {
  return () => ({ hubMs: processCpuMs(hubPid), postgresMs: postgresPid === undefined ? null : processTreeCpuMs(postgresPid) });
}

/** The CPU the hub (and PostgreSQL) used while `work` ran. */
async function phase(cpu: () => PhaseCpu, work: () => Promise<unknown>): Promise<PhaseCpu> {
  const before = cpu();
  await work();
  const after = cpu();
  return { hubMs: after.hubMs - before.hubMs, postgresMs: after.postgresMs === null || before.postgresMs === null ? null : after.postgresMs - before.postgresMs };
}

/** Runs the workers for `seconds`, then tells them the day is over and waits for them; the first failure ends it early and is thrown. */
async function busyDay(seconds: number, workers: ((day: { over: boolean }) => Promise<void>)[]): Promise<void> {
  const day = { over: false };
  let failure: unknown = null;
  const running = workers.map((work) =>
    work(day).catch((error: unknown) => {
      failure ??= error;
      day.over = true;
    }),
  );
  const end = Date.now() + seconds * 1000;
  while (!day.over && Date.now() < end) await sleep(100);
  day.over = true;
  await Promise.all(running);
  if (failure) throw failure;
}

/** Every `every`th push through the proxy has its answer cut after the hub applied it, until stopped. */
function cutPushes(proxy: FaultyProxy, every: number): { stop(): void; count(): number } {
  let pushes = 0;
  let cut = 0;
  proxy.decide = (_n, path) => {
    if (every <= 0 || !path.startsWith('/v1/sync/push') || ++pushes % every !== 0) return 'pass';
    cut++;
    return 'cut';
  };
  return { stop: () => void (proxy.decide = () => 'pass'), count: () => cut };
}

/** Exchanges, desk after desk, until every desk holds every sale (a round pushes each desk's own, the next brings them to all). */
async function drain(desks: readonly Desk[], ledger: Ledger): Promise<void> {
  for (let round = 0; round < 6; round++) {
    for (const desk of desks) await desk.syncNow();
    if (round >= 1 && ledger.stillUnseen() === 0) return;
  }
}
