import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPostgresCluster } from '../../test/fixtures/postgresCluster';
import { createDatabase } from '../hubProcess';
import { percentile } from '../officeDay/ledger';
import { simulateOfficeDay, type OfficeDayOptions, type OfficeDayResult } from '../officeDay/simulate';
import type { BenchRow } from '../types';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** The day's scale: the issue's office (20 desks, 8 agents) for two busy minutes by default. */
export const officeDayDefaults = (): Omit<OfficeDayOptions, 'databaseUrl'> => ({
  desks: env('BENCH_OFFICE_DESKS', 20),
  agents: env('BENCH_OFFICE_AGENTS', 8),
  daySeconds: env('BENCH_OFFICE_SECONDS', 120),
  idleSeconds: env('BENCH_OFFICE_IDLE_SECONDS', 30),
  agentsAloneSeconds: env('BENCH_OFFICE_AGENTS_ALONE_SECONDS', 15),
  everyMs: env('BENCH_OFFICE_SYNC_EVERY_MS', 5_000),
  agentEveryMs: env('BENCH_OFFICE_AGENT_EVERY_MS', 2_000),
  walkUpEveryMs: env('BENCH_OFFICE_WALKUP_EVERY_MS', 30_000),
  cutEvery: env('BENCH_OFFICE_CUT_EVERY', 40),
});

/**
 * A day of an office on a PostgreSQL hub (bench/officeDay/simulate.ts): desk-to-desk propagation
 * p95 against the 15 s goal, the end-of-day check (every sale on the hub and every desk exactly
 * once) with the exchanges that failed and were retried, and the hub's CPU per idle poll and per
 * busy exchange against its CPU per booking. A throwaway cluster with PostgreSQL's default durability.
 */
export default async function (): Promise<BenchRow[]> {
  const cluster = await startPostgresCluster({ durable: true });
  try {
    await createDatabase(cluster.adminUrl, 'office');
    const postgresPid = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const options = { ...officeDayDefaults(), databaseUrl: cluster.urlFor('office'), postgresPid, say: (line: string) => process.stderr.write(`office day: ${line}\n`) };
    const result = await simulateOfficeDay(options);
    process.stderr.write(`${summary(result, options)}\n`);
    return rows(result, options);
  } finally {
    cluster.stop();
  }
}

/** The day in one paragraph: what was sold, what failed and was retried, and the end-of-day check's own counts. */
export function summary(r: OfficeDayResult, o: Omit<OfficeDayOptions, 'databaseUrl'>): string {
  const p = (samples: number[], q: number) => (percentile(samples, q) / 1000).toFixed(1);
  return [
    `office day: ${o.desks} desks syncing every ${o.everyMs / 1000} s, ${o.agents} agents; ${r.agents.booked} agent bookings (${r.agents.refused} refused and retried), ${r.walkUps} walk-ups`,
    `  desk to desk: p50 ${p(r.ledger.deskToDesk, 0.5)} s, p95 ${p(r.ledger.deskToDesk, 0.95)} s, max ${p(r.ledger.deskToDesk, 1)} s over ${r.ledger.deskToDesk.length} arrivals; hub to desk p95 ${p(r.ledger.hubToDesk, 0.95)} s`,
    `  exchanges: ${r.exchanges.total}, ${r.exchanges.failed} failed and retried (${r.cutAnswers} push answers cut by the proxy), ${r.exchanges.busy} moved ops`,
    `  end-of-day check on the hub and ${r.check.places - 1} desks, ${r.check.sales} sales: lost ${r.check.lost}, doubled ${r.check.doubled}, unknown ${r.check.unknown}${r.check.examples.length ? ` (${r.check.examples.join('; ')})` : ''}`,
    `  hub CPU: ${perOne(r.idle.hubMs, r.idle.polls)} ms per idle poll (${r.idle.polls} polls), ${busyExchangeMs(r).toFixed(2)} ms per busy exchange, ${perOne(r.agentsAlone.hubMs, r.agentsAlone.bookings)} ms per booking` +
      (r.idle.postgresMs === null ? '' : `; PostgreSQL ${perOne(r.idle.postgresMs, r.idle.polls)} ms per idle poll, ${perOne(r.agentsAlone.postgresMs!, r.agentsAlone.bookings)} ms per booking`),
  ].join('\n');
}

const perOne = (ms: number, n: number) => (n > 0 ? ms / n : Number.NaN).toFixed(2);

/** The day's hub CPU less its agents' bookings (at the agents-alone phase's cost each), per exchange of the day. */
export function busyExchangeMs(r: OfficeDayResult): number {
  const perBooking = r.agentsAlone.bookings > 0 ? r.agentsAlone.hubMs / r.agentsAlone.bookings : 0;
  return Math.max(0, r.day.hubMs - r.day.bookings * perBooking) / Math.max(1, r.day.exchanges);
}

function rows(r: OfficeDayResult, o: Omit<OfficeDayOptions, 'databaseUrl'>): BenchRow[] {
  const interval = o.everyMs / 1000;
  const perBooking = r.agentsAlone.hubMs / Math.max(1, r.agentsAlone.bookings);
  const scale = `${o.desks} desks, ${o.agents} agents`;
  const checked = r.check.places * r.check.sales;
  return [
    { name: `office day (${scale}): desk-to-desk propagation p95, a walk-up on one desk held by another`, unit: 's', subject: percentile(r.ledger.deskToDesk, 0.95) / 1000, baseline: interval, baselineName: 'the desks\u2019 sync interval', higherIsBetter: false, limit: 15 },
    { name: `office day (${scale}): hub-to-desk propagation p95, an agent\u2019s booking held by a desk`, unit: 's', subject: percentile(r.ledger.hubToDesk, 0.95) / 1000, baseline: interval, baselineName: 'the desks\u2019 sync interval', higherIsBetter: false },
    { name: `office day: exchanges failed and retried (${r.cutAnswers} push answers cut on purpose)`, unit: 'exchanges', subject: r.exchanges.failed, baseline: r.exchanges.total, baselineName: 'all exchanges of the run', higherIsBetter: false },
    { name: `office day: sales lost ${r.check.lost}, doubled ${r.check.doubled}, unknown ${r.check.unknown} (end-of-day check, ${r.check.sales} sales on the hub and every desk)`, unit: 'sales', subject: r.check.lost + r.check.doubled + r.check.unknown, baseline: checked, baselineName: 'sales \u00d7 places checked', higherIsBetter: false, limit: 0 },
    { name: 'office day: hub process CPU per idle poll', unit: 'ms CPU', subject: r.idle.hubMs / Math.max(1, r.idle.polls), baseline: perBooking, baselineName: 'its CPU per agent booking', higherIsBetter: false },
    { name: 'office day: hub process CPU per busy exchange (the day\u2019s CPU less its bookings\u2019)', unit: 'ms CPU', subject: busyExchangeMs(r), baseline: perBooking, baselineName: 'its CPU per agent booking', higherIsBetter: false },
    ...(r.idle.postgresMs === null || r.agentsAlone.postgresMs === null
      ? []
      : [{ name: 'office day: PostgreSQL CPU per idle poll', unit: 'ms CPU', subject: r.idle.postgresMs / Math.max(1, r.idle.polls), baseline: r.agentsAlone.postgresMs / Math.max(1, r.agentsAlone.bookings), baselineName: 'its CPU per agent booking', higherIsBetter: false }]),
  ];
}
