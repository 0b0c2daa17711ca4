import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aProduct } from '../fixtures/builders';
import { aListeningHub, cleanup, tourdesk } from './cliInProcess';
import { bootEngine } from '../../main/boot';
import { TEST_COMPANY } from '../fixtures/app';
import { peerUrl } from '../../main/sync/peers';

describe('a desk paired from the command line, before its first sync', () => {
  it('runs every command after `peer add` (no placeholder company of its own), and `sync` brings the hub’s catalogue', async () => {
    const { hub, url } = await aListeningHub();
    const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
    const deskDir = mkdtempSync(join(tmpdir(), 'tourdesk-cli-desk-'));
    cleanup.push(() => rmSync(deskDir, { recursive: true, force: true }));

    // The desk's folder as its first start leaves it (a placeholder company); `peer add` drops the placeholder.
    await (await bootEngine({ dataDir: deskDir, instanceNo: 2 })).engine.close();
    const paired = await tourdesk('peer', 'add', url, '--key', hub.key, '--data-dir', deskDir);
    expect(paired, paired.out).toMatchObject({ code: 0 });
    expect(paired.out).toMatch(/Paired with .*this desk’s hub/);

    // Each command boots the engine again: none may make a company the hub owns.
    const early = await tourdesk('company', 'show', '--data-dir', deskDir);
    expect(early.code).not.toBe(0);
    expect(early.out).toMatch(/follows its hub’s catalogue and has not synced with it yet: run `tourdesk sync`/);
    const listed = await tourdesk('peer', 'list', '--data-dir', deskDir);
    expect(listed, listed.out).toMatchObject({ code: 0 });
    expect(listed.out).toContain('Never synced');

    const synced = await tourdesk('sync', '--data-dir', deskDir);
    expect(synced, synced.out).toMatchObject({ code: 0 });
    expect(synced.out).toMatch(/joined from a snapshot of [1-9]\d* rows/);
    expect(synced.out).not.toMatch(/failed/);

    const shown = await tourdesk('company', 'show', '--data-dir', deskDir);
    expect(shown, shown.out).toMatchObject({ code: 0 });
    expect(shown.out).toContain(TEST_COMPANY.companyName);
    const { engine } = await bootEngine({ dataDir: deskDir });
    try {
      expect((await engine.products.get(product.productCode)).name).toBe(product.name);
      expect((await engine.sync.peers())[0]).toMatchObject({ lastError: null });
    } finally {
      await engine.close();
    }
    // Now the desk has the hub's company: the last sync in its time, not UTC.
    const after = await tourdesk('peer', 'list', '--data-dir', deskDir);
    expect(after.out).toMatch(new RegExp(`^${url}\tinstance 1\tSynced at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d \\(${TEST_COMPANY.timezone}\\)$`));

    // A mistyped address is an error a script sees; the right one is removed.
    const mistyped = await tourdesk('peer', 'remove', `${url}9`, '--data-dir', deskDir);
    expect(mistyped).toMatchObject({ code: 1, out: expect.stringMatching(/^No peer .*; `tourdesk peer list` shows the peers\.$/) });
    expect(await tourdesk('peer', 'remove', `${url}/`, '--data-dir', deskDir)).toEqual({ code: 0, out: `Removed ${url}.` });
  });

  it('leaves no folder behind when `peer add` made it for a pairing that failed, and keeps the one it paired', async () => {
    const { hub, url } = await aListeningHub();
    const parent = mkdtempSync(join(tmpdir(), 'tourdesk-cli-parent-'));
    cleanup.push(() => rmSync(parent, { recursive: true, force: true }));
    const mistyped = join(parent, 'desk-a');
    const refused = await tourdesk('peer', 'add', url, '--key', 'td_not_a_key_of_the_hub', '--data-dir', mistyped);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toMatch(/refused: The API key is not valid/);
    expect(existsSync(mistyped)).toBe(false);
    const desk = join(parent, 'desk-b');
    expect((await tourdesk('peer', 'add', url, '--key', hub.key, '--data-dir', desk)).code).toBe(0);
    expect(existsSync(join(desk, 'tourdesk.sqlite'))).toBe(true);
  });

  it('starts `serve --demo` on a paired desk without loading the demo, and says why', async () => {
    const { hub, url } = await aListeningHub();
    const deskDir = mkdtempSync(join(tmpdir(), 'tourdesk-cli-desk-'));
    cleanup.push(() => rmSync(deskDir, { recursive: true, force: true }));
    await (await bootEngine({ dataDir: deskDir, instanceNo: 2 })).engine.close();
    expect((await tourdesk('peer', 'add', url, '--key', hub.key, '--data-dir', deskDir)).code).toBe(0);

    const said: string[] = [];
    const { engine } = await bootEngine({ dataDir: deskDir, demo: true, say: (line) => said.push(line) });
    try {
      expect(said.join('\n')).toMatch(/follows its hub’s catalogue: --demo is not loaded/);
      expect(await engine.companies.supplierOrNull()).toBeNull();
      expect(await engine.products.search({ limit: 1, offset: 0 })).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  it('refuses a peer address that is not an http(s) URL, in words, before contacting anything', async () => {
    const deskDir = mkdtempSync(join(tmpdir(), 'tourdesk-cli-desk-'));
    cleanup.push(() => rmSync(deskDir, { recursive: true, force: true }));
    for (const [address, why] of [
      ['not-a-url', /“not-a-url” is not a peer address: give the peer's URL, like http:\/\/192\.168\.1\.20:8080/],
      ['ftp://10.0.0.2/', /is not a peer address: a peer is reached over http:\/\/ or https:\/\//],
      ['http://admin:secret@10.0.0.2:8080', /must not hold a user name or password/],
    ] as const) {
      const refused = await tourdesk('peer', 'add', address, '--key', 'td_any', '--data-dir', deskDir);
      expect(refused.code, address).not.toBe(0);
      expect(refused.out).toMatch(why);
    }
    expect((await tourdesk('peer', 'list', '--data-dir', deskDir)).out).toBe('No peers.');
    expect(peerUrl('http://10.0.0.2:8080/')).toBe('http://10.0.0.2:8080');
    expect(peerUrl('https://hub.example.test/tourdesk/')).toBe('https://hub.example.test/tourdesk');
  });
});

