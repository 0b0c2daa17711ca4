import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli, startServe, type RunningServer } from '../../fixtures/cli';
import { aProduct } from '../../fixtures/builders';
import { backupsAnswerSchema } from '../../../main/contract/settings';

/** Files, backups and restores against real `tourdesk` processes on real data folders. */
const dirs: string[] = [];
const servers: RunningServer[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-backup-'));
  dirs.push(dir);
  return dir;
};
// Each test starts real `tourdesk` processes (serve, backup, restore): slow on a shared machine.
vi.setConfig({ testTimeout: 180_000 });
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const KEY = 'td_backup_test_key_0000000001';
const mode = (path: string) => statSync(path).mode & 0o777;

async function api(server: RunningServer, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { apiKey: KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}

async function uploadImage(server: RunningServer, productCode: string): Promise<void> {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3080c0' } }).png().toBuffer();
  const res = await fetch(`${server.baseUrl}/v1/products/${productCode}/images?filename=boat.png`, { method: 'POST', headers: { apiKey: KEY, 'content-type': 'image/png' }, body: new Uint8Array(png) });
  expect(res.status).toBe(200);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [join(dir, e.name), ...filesUnder(join(dir, e.name))] : [join(dir, e.name)]));
}

describe('the data folder', () => {
  it('is 0700 with its database, WAL, SHM, key file and media 0600 (dirs 0700), though it existed with looser modes', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'tourdesk.sqlite'), '', { mode: 0o644 });
    writeFileSync(join(dir, 'api-key.txt'), 'td_old_key\n', { mode: 0o644 });
    mkdirSync(join(dir, 'media', 'old'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dir, 'media', 'old', 'original.jpg'), 'jpeg', { mode: 0o644 });
    chmodSync(join(dir, 'media'), 0o755);

    const server = await startServe(['--data-dir', dir], { TOURDESK_API_KEY: KEY });
    servers.push(server);
    const product = (await api(server, 'POST', '/v1/products', aProduct())).product;
    await uploadImage(server, product.productCode);

    expect(mode(dir)).toBe(0o700);
    for (const name of ['tourdesk.sqlite', 'tourdesk.sqlite-wal', 'tourdesk.sqlite-shm', 'api-key.txt']) expect(mode(join(dir, name)), name).toBe(0o600);
    const media = filesUnder(join(dir, 'media'));
    expect(media.length).toBeGreaterThan(3);
    for (const path of [join(dir, 'media'), ...media]) expect(mode(path), path).toBe(statSync(path).isDirectory() ? 0o700 : 0o600);
  });
});

describe('tourdesk backup and restore', () => {
  it('copies a consistent database while bookings are written, holding every booking acknowledged before it began', async () => {
    const dir = tempDir();
    const server = await startServe(['--data-dir', dir], { TOURDESK_API_KEY: KEY });
    servers.push(server);
    const product = (await api(server, 'POST', '/v1/products', aProduct({ name: 'Busy Cruise' }))).product;
    await api(server, 'POST', '/v1/availability', { productCode: product.productCode, startTimeLocal: '2031-02-01 09:00:00', seats: 100000 });
    await uploadImage(server, product.productCode);

    const acknowledged: string[] = [];
    let writing = true;
    const writer = async (n: number) => {
      for (let i = 0; writing; i++) {
        const res = await api(server, 'POST', '/v1/bookings', {
          customer: { firstName: `Writer${n}`, lastName: `Guest${i}` },
          items: [{ productCode: product.productCode, startTimeLocal: '2031-02-01 09:00:00', quantities: [{ optionLabel: 'Adult', value: 1 }] }],
        });
        expect(res.requestStatus.success, JSON.stringify(res)).toBe(true);
        acknowledged.push(res.booking.orderNumber);
      }
    };
    const writers = [writer(1), writer(2), writer(3)];
    while (acknowledged.length < 30) await new Promise((r) => setTimeout(r, 20));

    const copies: { file: string; before: string[] }[] = [];
    for (let round = 0; round < 2; round++) {
      const before = [...acknowledged];
      const file = join(dir, `..`, `${dir.split('/').pop()}-copy-${round}.sqlite`);
      dirs.push(file);
      const result = await runCli(['backup', file, '--data-dir', dir]);
      expect(result.code, result.out).toBe(0);
      copies.push({ file, before });
    }
    writing = false;
    await Promise.all(writers);

    for (const { file, before } of copies) {
      const copy = new BetterSqlite3(file, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        const present = new Set((copy.prepare('SELECT order_number FROM bookings').all() as { order_number: string }[]).map((r) => r.order_number));
        expect(before.filter((orderNumber) => !present.has(orderNumber))).toEqual([]);
        expect((copy.prepare('SELECT count(*) AS n FROM tourdesk_backup_media').get() as { n: number }).n).toBeGreaterThan(0);
      } finally {
        copy.close();
      }
      expect(mode(file)).toBe(0o600);
    }

    // The server made its daily backup on start, and tells a supplier about the last one.
    const backups = await api(server, 'GET', '/v1/system/backups');
    const { requestStatus: _status, ...answer } = backups;
    expect(backupsAnswerSchema.strict().parse(answer)).toEqual(answer);
    expect(backups.lastBackup.file).toBe(copies[1].file);
    expect(backups.lastBackup.automatic).toBe(false);
    expect(backups.automaticBackups.length).toBe(1);
    expect(existsSync(backups.automaticBackups[0].file)).toBe(true);
  });

  it('refuses to restore into a folder a running server holds, and restores into it once stopped', async () => {
    const dir = tempDir();
    const server = await startServe(['--data-dir', dir], { TOURDESK_API_KEY: KEY });
    servers.push(server);
    const product = (await api(server, 'POST', '/v1/products', aProduct({ name: 'Kept Cruise' }))).product;
    await uploadImage(server, product.productCode);
    const file = `${dir}-saved.sqlite`;
    dirs.push(file);
    expect((await runCli(['backup', file, '--data-dir', dir])).code).toBe(0);
    await api(server, 'POST', '/v1/products', aProduct({ name: 'Made after the backup' }));

    const refused = await runCli(['restore', file, '--data-dir', dir]);
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/in use/);

    servers.splice(0).forEach((s) => s.child.kill('SIGTERM'));
    await server.exited;
    const restored = await runCli(['restore', file, '--data-dir', dir]);
    expect(restored.code, restored.out).toBe(0);
    expect(readdirSync(dir).some((name) => name.startsWith('tourdesk.sqlite.before-restore-'))).toBe(true);

    const again = await startServe(['--data-dir', dir], { TOURDESK_API_KEY: KEY });
    servers.push(again);
    const names = (await api(again, 'GET', '/v1/products')).products.map((p: any) => p.name);
    expect(names).toContain('Kept Cruise');
    expect(names).not.toContain('Made after the backup');
    const images = (await api(again, 'GET', `/v1/products/${product.productCode}`)).product.images;
    expect(images.length).toBe(1);
    const imageFile = await fetch(new URL(images[0].itemUrl, again.baseUrl));
    expect(imageFile.status).toBe(200);
  });

  it('refuses a file that is not a TourDesk backup', async () => {
    const dir = tempDir();
    const notBackup = join(dir, 'other.sqlite');
    const other = new BetterSqlite3(notBackup);
    other.exec('CREATE TABLE t (x)');
    other.close();
    const res = await runCli(['restore', notBackup, '--data-dir', join(dir, 'data')]);
    expect(res.code).toBe(2);
    expect(res.out).toMatch(/not a TourDesk backup/);
  });
});
