import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '../db/connection';
import { createEngine, type Engine } from '../main/engine';
import { createServer, type TourDeskServer } from '../main/api/server';

/** A real engine and server on a temp SQLite file, listening on a loopback port. */
export async function benchServer(): Promise<{ engine: Engine; app: TourDeskServer; baseUrl: string; key: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-bench-'));
  const handle = await openDatabase(join(dir, 'tourdesk.sqlite'), { migrate: true });
  const engine = createEngine({ db: handle, config: { dataDir: dir, instanceNo: 1 } });
  await engine.companies.configure({ companyName: 'Bench Tours', alias: 'bench', currency: 'AUD', timezone: 'Australia/Sydney' });
  const { key } = await engine.apiKeys.create({ role: 'supplier', name: 'bench' });
  const app = await createServer({ engine });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    engine,
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    key,
    async close() {
      await app.close();
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Requests per second from autocannon (bounded: a few seconds, loopback only). */
export async function requestsPerSecond(url: string, headers: Record<string, string> = {}, seconds = 4, connections = 10): Promise<number> {
  const result = await autocannon({ url, headers, duration: seconds, connections });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

/**
 * Requests per second of a subject and its baseline, measured in alternating slices (baseline,
 * subject, baseline, …) rather than one after the other: on a shared machine the load changes
 * within seconds, and each side then sees the same conditions. Each figure is its requests over
 * its own measured time.
 */
export async function interleavedRequestsPerSecond(
  subject: { url: string; headers?: Record<string, string> },
  baseline: { url: string; headers?: Record<string, string> },
  { rounds = 8, seconds = 1, connections = 10 } = {},
): Promise<{ subject: number; baseline: number }> {
  const totals = { subject: { requests: 0, seconds: 0 }, baseline: { requests: 0, seconds: 0 } };
  for (let round = 0; round < rounds; round++) {
    for (const side of ['baseline', 'subject'] as const) {
      const { url, headers = {} } = side === 'subject' ? subject : baseline;
      const result = await autocannon({ url, headers, duration: seconds, connections });
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
      totals[side].requests += result.requests.total;
      totals[side].seconds += result.duration;
    }
  }
  return { subject: totals.subject.requests / totals.subject.seconds, baseline: totals.baseline.requests / totals.baseline.seconds };
}

/** p50 and p99 of an async operation's latency, in milliseconds. */
export async function latency(times: number, operation: (i: number) => Promise<unknown> | unknown): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = process.hrtime.bigint();
    await operation(i);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(times * 0.5)], p99: samples[Math.floor(times * 0.99)] };
}

/**
 * A bare baseline server's answer, made where the engine makes its own: in the check phase after
 * the poll phase that read the request (the engine's key check waits there for its one
 * observation of other processes' commits, main/api/observations.ts). Answers written after all
 * of a poll phase's reads batch the socket writes, which alone gives a bare server ~20-40% more
 * requests a second here (external autocannon, 10 connections); the baselines answer the same
 * way, so a ratio measures the work done and not that batching.
 */
export function afterPoll(answer: () => void): void {
  setImmediate(answer);
}
