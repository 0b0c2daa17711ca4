import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callServer, runCli, startServe } from '../../fixtures/cli';
import { aBooking, aProduct } from '../../fixtures/builders';

// Each test starts several real CLI processes (tsx compiles at every start): on a busy 2-core machine
// one start can take ~10 s, so these tests get more than the default 30 s.
vi.setConfig({ testTimeout: 120_000 });

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-cli-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const get = async (url: string, key: string) => (await fetch(url, { headers: { apiKey: key } })).json();

describe('tourdesk serve', () => {
  it('creates a supplier key on first start, prints it once, stores it 0600, and says where it listens', async () => {
    const dir = dataDir();
    const server = await startServe(['--data-dir', dir]);
    const key = readFileSync(join(dir, 'api-key.txt'), 'utf8').trim();
    expect(server.output()).toContain(key);
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(statSync(join(dir, 'api-key.txt')).mode & 0o777).toBe(0o600);
    const company = await get(`${server.baseUrl}/v1/companies/alias/mytourcompany`, key);
    expect(company.company.companyName).toBe('My Tour Company');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const again = await startServe(['--data-dir', dir]);
    expect(again.output()).not.toContain(key);
    expect(again.output()).toContain('api-key.txt');
    again.child.kill('SIGTERM');
    await again.exited;
  });

  it('loads the demo company and products with --demo', async () => {
    const dir = dataDir();
    const server = await startServe(['--data-dir', dir, '--demo'], { TOURDESK_API_KEY: 'td_test_key_for_the_demo_0001' });
    const products = await get(`${server.baseUrl}/v1/products`, 'td_test_key_for_the_demo_0001');
    expect(products.products.length).toBeGreaterThanOrEqual(5);
    expect(new Set(products.products.map((p: any) => p.bookingMode))).toEqual(new Set(['INVENTORY', 'NO_DATE']));
    expect((await get(`${server.baseUrl}/v1/companies/alias/bluewater`, 'td_test_key_for_the_demo_0001')).company.timezone).toBe('Australia/Sydney');
    expect(existsSync(join(dir, 'api-key.txt'))).toBe(false);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('serves at once what `tourdesk company set` changed while it runs: name, alias, timezone and the currency of new products', async () => {
    const dir = dataDir();
    const key = 'td_company_cache_test_key_01';
    const server = await startServe(['--data-dir', dir], { TOURDESK_API_KEY: key });
    const first = await runCli(['company', 'show', '--data-dir', dir]);
    const oldAlias = /alias (\S+)\)/.exec(first.out)![1];
    expect((await get(`${server.baseUrl}/v1/companies/alias/${oldAlias}`, key)).company.alias).toBe(oldAlias);
    const set = await runCli(['company', 'set', '--name', 'Harbour Cruises', '--alias', 'harbour', '--currency', 'NZD', '--timezone', 'Pacific/Auckland', '--data-dir', dir]);
    expect(set.code, set.out).toBe(0);
    const company = (await get(`${server.baseUrl}/v1/companies/alias/harbour`, key)).company;
    expect(company).toMatchObject({ companyName: 'Harbour Cruises', alias: 'harbour', currency: 'NZD', timezone: 'Pacific/Auckland' });
    const created = await fetch(`${server.baseUrl}/v1/products`, { method: 'POST', headers: { apiKey: key, 'content-type': 'application/json' }, body: JSON.stringify(aProduct({ name: 'After the change' })) });
    expect((await created.json()).product.currency).toBe('NZD');
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('loses no acknowledged write when the process is killed outright', async () => {
    const dir = dataDir();
    const key = 'td_durability_test_key_000001';
    const server = await startServe(['--data-dir', dir], { TOURDESK_API_KEY: key });
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.baseUrl}/v1/products`, {
        method: 'POST',
        headers: { apiKey: key, 'content-type': 'application/json' },
        body: JSON.stringify(aProduct({ name: `Durable ${i}` })),
      });
      codes.push((await res.json()).product.productCode);
    }
    server.child.kill('SIGKILL');
    await server.exited;
    const again = await startServe(['--data-dir', dir], { TOURDESK_API_KEY: key });
    const found = await get(`${again.baseUrl}/v1/products?search=Durable`, key);
    expect(found.products.map((p: any) => p.productCode).sort()).toEqual(codes.sort());
    again.child.kill('SIGTERM');
    await again.exited;
  });

  it('loses no acknowledged booking when the process is killed outright while bookings arrive together (they share commits)', async () => {
    const dir = dataDir();
    const key = 'td_durability_test_key_000002';
    const server = await startServe(['--data-dir', dir], { TOURDESK_API_KEY: key });
    const product = (await callServer(server, key, 'POST', '/v1/products', aProduct({ name: 'Durable walk', bookingMode: 'NO_DATE' }))).body.product;
    const body = aBooking(product.productCode, undefined, [{ optionLabel: 'Adult', value: 2 }]);
    body.items[0].startTimeLocal = '2030-03-05';
    const answers = await Promise.all(Array.from({ length: 12 }, () => callServer(server, key, 'POST', '/v1/bookings', body)));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    server.child.kill('SIGKILL');
    await server.exited;
    const again = await startServe(['--data-dir', dir], { TOURDESK_API_KEY: key });
    for (const { body: answer } of answers) {
      const found = await callServer(again, key, 'GET', `/v1/bookings/${answer.booking.orderNumber}`);
      expect(found.status).toBe(200);
      expect(found.body.booking.totalAmount).toBe(answer.booking.totalAmount);
    }
    again.child.kill('SIGTERM');
    await again.exited;
  });

  it('checkpoints the WAL on SIGTERM so the data file alone is complete', async () => {
    const dir = dataDir();
    const server = await startServe(['--data-dir', dir]);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const wal = join(dir, 'tourdesk.sqlite-wal');
    expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
  });

  it('refuses a bad port with a clear message', async () => {
    const { code, out } = await runCli(['serve', '--port', 'eighty', '--data-dir', dataDir()]);
    expect(code).toBe(2);
    expect(out).toMatch(/--port eighty is not a port number/);
  });
});

describe('one server per data folder', () => {
  it('refuses a second serve on the folder at once, naming the first, while a serve on another folder and the other commands work beside it', async () => {
    const dir = dataDir();
    const first = await startServe(['--data-dir', dir]);
    const port = new URL(first.baseUrl).port;
    const second = await runCli(['serve', '--port', '0', '--data-dir', dir]);
    expect(second.code).toBe(1);
    expect(second.out).toContain(`The data folder ${dir} is in use by \`tourdesk serve\` (pid ${first.child.pid}), listening on http://127.0.0.1:${port}, since `);
    expect(second.out).toContain('stop it first');
    // Refused before booting: nothing but the refusal (a boot would have said where the key is).
    expect(second.out.trim().split('\n')).toHaveLength(1);

    const elsewhere = await startServe(['--data-dir', dataDir()]);
    const backup = await runCli(['backup', join(dataDir(), 'beside.sqlite'), '--data-dir', dir]);
    expect(backup.code, backup.out).toBe(0);
    expect((await runCli(['keys', 'list', '--data-dir', dir])).code).toBe(0);
    // The first one served on throughout.
    expect((await fetch(`${first.baseUrl}/v1/products`)).status).toBe(401);
    for (const server of [first, elsewhere]) server.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    await elsewhere.exited;
  });

  it('lets a serve start on the folder of one that was killed outright', async () => {
    const dir = dataDir();
    const first = await startServe(['--data-dir', dir]);
    first.child.kill('SIGKILL');
    await first.exited;
    const next = await startServe(['--data-dir', dir]);
    expect(next.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });
});

describe('tourdesk keys', () => {
  it('creates, lists and revokes keys; a revoked key stops working', async () => {
    const dir = dataDir();
    const created = await runCli(['keys', 'create', '--role', 'agent', '--name', 'Hotel desk', '--data-dir', dir]);
    expect(created.code).toBe(0);
    const key = /\n(td_[a-z0-9]+)/.exec(created.out)![1];
    const id = /agent key (\d+)/.exec(created.out)![1];
    const listed = await runCli(['keys', 'list', '--data-dir', dir]);
    expect(listed.out).toContain('Hotel desk');
    expect(listed.out).not.toContain(key);

    const server = await startServe(['--data-dir', dir]);
    expect((await fetch(`${server.baseUrl}/v1/products`, { headers: { apiKey: key } })).status).toBe(200);
    expect((await runCli(['keys', 'revoke', id, '--data-dir', dir])).code).toBe(0);
    expect((await fetch(`${server.baseUrl}/v1/products`, { headers: { apiKey: key } })).status).toBe(401);
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('revokes a key given as itself without printing it back, also when it is not active', async () => {
    const dir = dataDir();
    const created = await runCli(['keys', 'create', '--role', 'checkin', '--name', 'Pier tablet', '--data-dir', dir]);
    const key = /\n(td_[a-z0-9]+)/.exec(created.out)![1];
    const id = /checkin key (\d+)/.exec(created.out)![1];
    const revoked = await runCli(['keys', 'revoke', key, '--data-dir', dir]);
    expect(revoked.code).toBe(0);
    expect(revoked.out).toMatch(new RegExp(`Revoked key ${id} \\(sha256:[0-9a-f]{8}…, checkin, Pier tablet\\)`));
    expect(revoked.out).not.toContain(key);
    const again = await runCli(['keys', 'revoke', key, '--data-dir', dir]);
    expect(again.code).not.toBe(0);
    expect(again.out).toMatch(/No active key matches the key given/);
    expect(again.out).not.toContain(key);
    const byId = await runCli(['keys', 'revoke', id, '--data-dir', dir]);
    expect(byId.out).toMatch(new RegExp(`No active key matches ${id}`));
  });

  it('refuses an unknown role', async () => {
    const { code, out } = await runCli(['keys', 'create', '--role', 'admin', '--name', 'x', '--data-dir', dataDir()]);
    expect(code).not.toBe(0);
    expect(out).toMatch(/role must be one of/);
  });
});

describe('tourdesk company', () => {
  it('shows the supplier company and changes only the fields given', async () => {
    const dir = dataDir();
    const set = await runCli(['company', 'set', '--name', 'Reef Runners', '--timezone', 'Pacific/Auckland', '--currency', 'NZD', '--data-dir', dir]);
    expect(set.code).toBe(0);
    expect(set.out).toContain('Reef Runners (alias mytourcompany) · NZD · Pacific/Auckland');
    const shown = await runCli(['company', 'show', '--data-dir', dir]);
    expect(shown.out).toContain('Reef Runners');
    expect(shown.out).toContain('Pacific/Auckland');
  });

  it('refuses an unknown timezone and keeps the company as it was', async () => {
    const dir = dataDir();
    const bad = await runCli(['company', 'set', '--timezone', 'Mars/Olympus', '--data-dir', dir]);
    expect(bad.code).not.toBe(0);
    expect(bad.out).toMatch(/Mars\/Olympus is not an IANA timezone/);
    expect((await runCli(['company', 'show', '--data-dir', dir])).out).not.toContain('Mars');
  });
});

