import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/cli';
import { startFaultyProxy, type ProxyFault } from '../fixtures/faultyProxy';
import { aHubAndTwoDesks, catalogue, cleanup, expectSameSales, pair, runCleanup, sell, startNode, stop, restart, syncProcess, syncUntilClean, type Sale } from './faultsServe';

/**
 * A season's faults (issue 38) on real `tourdesk serve` processes syncing with the CLI through a
 * proxy that drops, cuts and resets: a proxy that takes the request and resets the connection before
 * or part-way through its answer, and a compaction run while desks are killed mid-exchange and one
 * is left behind what was compacted. Nothing acknowledged is lost, nothing doubled, and every
 * instance ends holding the same sales.
 */
afterAll(runCleanup);

describe('a season of faults between real serve processes', () => {
  it('a proxy that takes the request and resets the connection before or part-way through its answer: each exchange fails with a reason, the next ones finish, nothing lost or doubled', { timeout: 180_000 }, async () => {
    const hub = await startNode(1);
    const desk = await startNode(2);
    const proxy = await startFaultyProxy(hub.server.baseUrl);
    cleanup.push(() => proxy.close());
    const productCode = await catalogue(hub);
    await pair(desk, proxy.url, hub);
    await syncUntilClean(desk);
    const sales: Sale[] = [];
    for (let i = 0; i < 3; i++) sales.push(await sell(desk, productCode), await sell(hub, productCode, 2));

    // Every pull answered half, then reset: nothing gets through, and `tourdesk sync` says why.
    proxy.decide = (_n, path) => (path.includes('/pull') ? 'resetPartway' : 'pass');
    const halfAnswered = await runCli(['sync', '--data-dir', desk.dir]);
    expect(halfAnswered.code, halfAnswered.out).toBe(1);
    expect(halfAnswered.out).toMatch(/sync failed: \S/);
    // Pulls pass; every push reaches the hub, which applies it, and its answer is never sent. A sale made
    // after the faults are set always waits to be pushed (the desk's background sync may have sent the others).
    // The desk's own background sync (every 5 s) may push the sale first: its answer is reset too, the
    // hub applied it, and the CLI's pull then learns that, so it has nothing to push and rightly exits 0.
    // Then a new sale is made and synced again, until the CLI's own push meets the reset.
    proxy.decide = (_n, path) => (path.includes('/push') ? 'reset' : 'pass');
    let unanswered = { code: 0 as number | null, out: '' };
    for (let attempt = 0; attempt < 5 && unanswered.code !== 1; attempt++) {
      const pushesBefore = proxy.seen.filter((s) => s.path.includes('/push')).length;
      sales.push(await sell(desk, productCode));
      unanswered = await runCli(['sync', '--data-dir', desk.dir]);
      if (unanswered.code !== 1) {
        expect(unanswered.out).toMatch(/sent 0/);
        // Only a push that reached the hub (the background's) can have carried the sale.
        expect(proxy.seen.filter((s) => s.path.includes('/push')).length).toBeGreaterThan(pushesBefore);
      }
    }
    expect(unanswered.code, unanswered.out).toBe(1);
    expect(unanswered.out).toMatch(/sync failed: \S/);
    expect(proxy.seen.some((s) => s.fault === 'reset')).toBe(true);
    expect(proxy.seen.some((s) => s.fault === 'resetPartway')).toBe(true);

    // Healed: the desk sends again what the hub already applied, and that is no double.
    proxy.decide = () => 'pass';
    await syncUntilClean(desk);
    await syncUntilClean(desk);
    const status = (await (await fetch(`${desk.server.baseUrl}/v1/sync/status`, { headers: { apikey: desk.key } })).json()) as any;
    expect(status.peers[0]).toMatchObject({ lastError: null, opsToSend: 0 });
    await stop(desk, 'SIGTERM');
    await stop(hub, 'SIGTERM');
    expectSameSales([hub.dir, desk.dir], sales);
  });

  it('compaction while desks sync through faults and are killed: a desk left behind what was compacted rejoins by itself, nothing lost or doubled', { timeout: 300_000 }, async () => {
    const { hub, deskA, deskB, proxy, productCode } = await aHubAndTwoDesks();
    // One request in three meets a fault: drops, cuts and resets before and part-way through an answer.
    const cycle: ProxyFault[] = ['drop', 'pass', 'pass', 'cut', 'pass', 'pass', 'reset', 'pass', 'pass', 'resetPartway', 'pass', 'pass'];
    proxy.decide = (n) => cycle[n % cycle.length];
    for (const desk of [deskA, deskB, deskA, deskB]) await syncUntilClean(desk);
    const sales: Sale[] = [];
    for (const n of [hub, deskA, deskB]) sales.push(await sell(n, productCode), await sell(n, productCode, 2));
    for (const desk of [deskA, deskB, deskA, deskB]) await syncUntilClean(desk);

    // Desk B dies (a power cut) and stays away; the hub forgets it, so it no longer holds compaction back.
    await stop(deskB, 'SIGKILL');
    const forgot = await runCli(['peer', 'forget', '3', '--data-dir', hub.dir]);
    expect(forgot.code, forgot.out).toBe(0);

    // The season goes on at the hub and desk A; desk A's exchange is killed while its push is held in the proxy.
    for (let i = 0; i < 3; i++) sales.push(await sell(deskA, productCode), await sell(hub, productCode));
    proxy.delayMs = 1_500;
    proxy.decide = (_n, path) => (path.includes('/push') ? 'delay' : 'pass');
    const pushesBefore = proxy.seen.filter((s) => s.path.includes('/push')).length;
    const killed = syncProcess(deskA);
    for (let waited = 0; proxy.seen.filter((s) => s.path.includes('/push')).length === pushesBefore && waited < 60_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    killed.child.kill('SIGKILL');
    expect(await killed.exited).toBeNull();
    await stop(deskA, 'SIGKILL');
    await restart(deskA);
    proxy.decide = (n) => cycle[n % cycle.length];
    for (const desk of [deskA, deskA]) await syncUntilClean(desk);

    // Compaction now (a horizon of 0 days), beside the running servers: what every known instance holds goes.
    for (const n of [hub, deskA]) {
      const compacted = await runCli(['compact', '--horizon-days', '0', '--data-dir', n.dir]);
      expect(compacted.code, compacted.out).toBe(0);
      expect(compacted.out).toMatch(/^Compacted: removed [1-9]\d* ops/);
    }

    // Desk B comes back with a sale of its own it made offline; behind what was compacted, it rejoins by itself.
    await restart(deskB);
    sales.push(await sell(deskB, productCode, 3));
    for (let i = 0; i < 3; i++) sales.push(await sell(hub, productCode));
    // Every second snapshot request is reset part-way (its snapshot is two pages: the rows, then the
    // tombstones), the other requests meet the cycle above: starting over, every attempt would lose its
    // last page; each resumes after the last page it took, so the rejoin finishes.
    let snapshots = 0;
    const seenBefore = proxy.seen.length;
    proxy.decide = (n, path) => (path.includes('/snapshot') ? (++snapshots % 2 === 0 ? 'resetPartway' : 'pass') : cycle[n % cycle.length]);
    const log = await syncUntilClean(deskB);
    // The rejoin may be begun by the CLI or by desk B's own background sync (every 5 s; it logs only
    // failures), so what shows the resume is the requests: no two snapshot requests in a row passed, and
    // the rejoin finished, which it could not have done had any attempt started over from the first page.
    const snapshotRequests = proxy.seen.slice(seenBefore).filter((s) => s.path.includes('/snapshot'));
    expect(snapshotRequests.some((s) => s.fault === 'resetPartway')).toBe(true);
    expect(snapshotRequests.length).toBeGreaterThanOrEqual(3);
    expect(log).toMatch(/received \d+, sent \d+/);
    for (const desk of [deskB, deskA, deskB]) await syncUntilClean(desk);

    for (const n of [deskA, deskB, hub]) await stop(n, 'SIGTERM');
    expectSameSales([hub.dir, deskA.dir, deskB.dir], sales);
  });
});
