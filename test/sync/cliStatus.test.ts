// What `tourdesk sync` and `tourdesk peer list` tell an operator: failures with their reason, times in the company's zone.
import { describe, expect, it } from 'vitest';
import { aFolder, aListeningHub, cleanup, tourdesk } from './cliInProcess';
import { bootEngine } from '../../main/boot';
import { TEST_COMPANY } from '../fixtures/app';
import { runCli } from '../fixtures/cli';
import { startFaultyProxy } from '../fixtures/faultyProxy';
import { markSeen, recordRefusal } from '../../db/queries/syncPeers';

/** A desk folder paired with `url` (its first start, then `peer add`), not synced yet. */
async function aPairedDesk(url: string, key: string): Promise<string> {
  const deskDir = aFolder('desk');
  await (await bootEngine({ dataDir: deskDir, instanceNo: 2 })).engine.close();
  const paired = await tourdesk('peer', 'add', url, '--key', key, '--data-dir', deskDir);
  expect(paired, paired.out).toMatchObject({ code: 0 });
  return deskDir;
}

describe('tourdesk sync and peer list tell the truth', () => {
  it('exits 1 with the reason when the peer accepts the connection and closes or resets it (a real process: nothing else keeps it waiting)', { timeout: 180_000 }, async () => {
    const { hub, url } = await aListeningHub();
    const proxy = await startFaultyProxy(url);
    cleanup.push(() => proxy.close());
    const deskDir = await aPairedDesk(proxy.url, hub.key);
    // The words depend on where the cut meets the request, which the kernel's timing decides, not TourDesk:
    // a reset before fetch wrote the request puts it back in fetch's queue until the deadline (the reason
    // then names the connections' error when fetch saw one), a close that beats the request's bytes makes
    // the write meet a reset, a close after them is "the other side closed". Each is a reason a person can act on.
    const reason = /ECONNRESET|no answer within 30 s|other side closed/;
    for (const fault of ['reset', 'close'] as const) {
      proxy.onConnection = fault;
      const synced = await runCli(['sync', '--data-dir', deskDir]);
      expect(synced.code, `${fault}: ${synced.out}`).toBe(1);
      expect(synced.out).toContain(`${proxy.url}: sync failed: ${proxy.url} is not reachable (`);
      expect(synced.out, `${fault}: ${synced.out}`).toMatch(reason);
      expect(synced.out).not.toMatch(/fetch failed|\(\)/);
    }
  });

  it('says a paired desk waits for its first sync, then shows its last sync in the company’s zone', async () => {
    const { hub, url } = await aListeningHub();
    const deskDir = await aPairedDesk(url, hub.key);
    const before = await tourdesk('peer', 'list', '--data-dir', deskDir);
    expect(before).toEqual({ code: 0, out: `${url}\tinstance 1\tNever synced: waits for its first sync` });
    expect((await tourdesk('sync', '--data-dir', deskDir)).code).toBe(0);
    const after = await tourdesk('peer', 'list', '--data-dir', deskDir);
    expect(after.out).toMatch(new RegExp(`^${url}\tinstance 1\tSynced at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d \\(${TEST_COMPANY.timezone}\\)$`));
  });

  it('lists on a hub the instances that sync with it and those it refused, with their last exchange and refusal in the company’s zone', async () => {
    const hubDir = aFolder('hub');
    const { engine } = await bootEngine({ dataDir: hubDir, instanceNo: 1 });
    await engine.companies.configure(TEST_COMPANY);
    await markSeen(engine.ctx.db, 'DE5C0000AAAA1111', 42, Date.parse('2030-01-01T00:05:00Z'));
    await recordRefusal(engine.ctx.db, { origin: 'DE5C0000AAAA1111', instance_no: 42, refused_at: Date.parse('2030-01-01T00:06:00Z'), reason: 'CLOCK_AHEAD', message: 'An op is stamped 600 s ahead' });
    await recordRefusal(engine.ctx.db, { origin: 'DE5C0000BBBB2222', instance_no: 42, refused_at: Date.parse('2030-01-01T00:07:00Z'), reason: 'PAIRING', message: 'Instance number 42 is already used' });
    await engine.close();
    const listed = await tourdesk('peer', 'list', '--data-dir', hubDir);
    expect(listed).toEqual({
      code: 0,
      out: [
        'No peers of its own (desks pair with it).',
        'Instances that sync with this one:',
        'instance 42\tDE5C0000AAAA1111\tlast exchange 2030-01-01 11:05 (Australia/Sydney) · refused 2030-01-01 11:06 (Australia/Sydney): An op is stamped 600 s ahead (CLOCK_AHEAD)',
        'Instances refused here:',
        'instance 42\tDE5C0000BBBB2222\tnever exchanged here · refused 2030-01-01 11:07 (Australia/Sydney): Instance number 42 is already used (PAIRING)',
      ].join('\n'),
    });

    // A desk that will not come back is forgotten: it leaves the list, with the refusals of its number.
    expect(await tourdesk('peer', 'forget', '42', '--data-dir', hubDir)).toEqual({ code: 0, out: 'Forgot instance 42: it no longer shows in `tourdesk peer list`. Its number stays taken; if it syncs here again, it shows again.' });
    expect(await tourdesk('peer', 'list', '--data-dir', hubDir)).toEqual({ code: 0, out: 'No peers.' });
    expect(await tourdesk('peer', 'forget', '42', '--data-dir', hubDir)).toEqual({ code: 1, out: 'No instance 42 syncs with this one or was refused here; `tourdesk peer list` shows them.' });
    const bad = await tourdesk('peer', 'forget', 'desk-2', '--data-dir', hubDir);
    expect(bad).toEqual({ code: 2, out: 'peer forget needs the instance number `tourdesk peer list` shows (1 to 999)' });
  });
});
