import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../fixtures/cli';
import { aFolder, aHubAndTwoDesks, expectSameSales, holdings, restart, restoreDeskThenSell, runCleanup, sell, stop, syncUntilClean, type Sale } from './faultsServe';

/**
 * Restores in the middle of a partitioned workload (issue 38), on real `tourdesk serve` processes: a
 * hub and two desks, the proxy resetting every connection while sales go on at the desks; then the
 * hub's database is copied back by hand from yesterday and desk A is put back with `tourdesk restore`.
 * After healing, nothing any surviving instance held is lost, no order number is issued twice, and no
 * desk is paired again.
 */
afterAll(runCleanup);

describe('restores in a partitioned workload', () => {
  it('a hub copied back by hand and a desk restored from its backup rejoin: nothing a survivor held is lost, no number re-issued, no re-pairing', { timeout: 300_000 }, async () => {
    const { hub, deskA, deskB, proxy, productCode } = await aHubAndTwoDesks();
    for (const desk of [deskA, deskB]) await syncUntilClean(desk);
    const sales: Sale[] = [];
    for (const n of [hub, deskA, deskB]) sales.push(await sell(n, productCode));
    for (const desk of [deskA, deskB, deskA]) await syncUntilClean(desk);

    // Yesterday's copies: the hub's file copied aside while it is stopped; desk A's backup while it runs.
    const copies = aFolder('copies');
    await stop(hub, 'SIGTERM');
    copyFileSync(join(hub.dir, 'tourdesk.sqlite'), join(copies, 'hub.sqlite'));
    await restart(hub);
    proxy.target = hub.server.baseUrl;
    const backedUp = await runCli(['backup', join(copies, 'deskA.tdbackup'), '--data-dir', deskA.dir]);
    expect(backedUp.code, backedUp.out).toBe(0);

    // The day goes on, synced everywhere: each survivor holds what the restored ones will lose.
    for (const n of [hub, deskA, deskB, deskA]) sales.push(await sell(n, productCode, 2));
    for (const desk of [deskA, deskB, deskA, deskB]) await syncUntilClean(desk);

    // A partition: every connection reset. Sales go on at both desks.
    proxy.onConnection = 'reset';
    const neverSent = await sell(deskA, productCode); // desk A's own, made after its backup and seen by no one: lost with its restore
    sales.push(await sell(deskB, productCode, 3));
    const cut = await runCli(['sync', '--data-dir', deskB.dir]);
    expect(cut.code, cut.out).toBe(1);
    expect(cut.out).toMatch(/sync failed: .*not reachable/);
    const given = new Set([...sales.map((s) => s.orderNumber), neverSent.orderNumber]);

    // The hub: stopped, yesterday's file copied over today's, started. Desk A: restored from its backup.
    await stop(hub, 'SIGTERM');
    copyFileSync(join(copies, 'hub.sqlite'), join(hub.dir, 'tourdesk.sqlite'));
    await restart(hub);
    expect(hub.server.output()).toMatch(/copied back by hand\): it continues as a new incarnation/);
    proxy.target = hub.server.baseUrl;
    // Both sell before anyone heals: numbers never given out before.
    const fresh = await restoreDeskThenSell(deskA, join(copies, 'deskA.tdbackup'), 'SIGTERM', hub, productCode, given);
    sales.push(...fresh);

    // Healed: the same pairings as before, only exchanges.
    proxy.onConnection = 'pass';
    for (const desk of [deskB, deskA, deskB, deskA]) await syncUntilClean(desk);
    for (const n of [deskA, deskB, hub]) await stop(n, 'SIGTERM');
    expectSameSales([hub.dir, deskA.dir, deskB.dir], sales);
    expect(holdings(hub.dir).bookings).not.toContain(neverSent.orderNumber);
  });
});
