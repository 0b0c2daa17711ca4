import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneBackupAtATime } from '../../../main/backups';
import { startTestApp, testDialect, type TestApp } from '../../fixtures/app';
import { aProduct } from '../../fixtures/builders';

/** Backups through the API: made now, listed with size and a download path, downloaded; a PostgreSQL hub says how it is backed up instead. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await t.call('POST', '/v1/products', { body: aProduct({ name: 'Backed Up Walk' }) });
});
afterAll(() => t.close());

const backupFolderFiles = () => {
  try {
    return readdirSync(join(t.dir, 'backups')).sort();
  } catch {
    return [];
  }
};

// Each dialect backs up its own way; each project runs the half for its dialect (nothing reported skipped).
if (testDialect() === 'sqlite') describe('POST /v1/system/backups on a SQLite data folder', () => {
  it('makes a consistent backup now, lists it with its size and download path, and downloads it as the SQLite file', async () => {
    const made = await t.call('POST', '/v1/system/backups');
    expect(made.status).toBe(200);
    const { backup } = made.body;
    expect(backup).toMatchObject({ automatic: false, downloadPath: `/v1/system/backups/${backup.name}` });
    expect(backup.name).toMatch(/^tourdesk-\d{8}T\d{6}Z(-\d+)?\.sqlite$/);
    expect(backup.bytes).toBeGreaterThan(0);
    expect(Date.parse(backup.time)).not.toBeNaN();

    const list = (await t.call('GET', '/v1/system/backups')).body;
    expect(list.backupAdvice).toBeNull();
    expect(list.backups[0]).toMatchObject({ name: backup.name, bytes: backup.bytes, automatic: false, downloadPath: backup.downloadPath });
    expect(list.lastBackup.file.endsWith(backup.name)).toBe(true);

    const download = await t.app.inject({ url: backup.downloadPath, headers: { host: '127.0.0.1', apikey: t.keys.supplier } });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/vnd.sqlite3');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${backup.name}"`);
    expect(download.rawPayload.length).toBe(backup.bytes);
    const copyFile = join(t.dir, 'downloaded.sqlite');
    writeFileSync(copyFile, download.rawPayload);
    const copy = new BetterSqlite3(copyFile, { readonly: true });
    try {
      expect(copy.prepare("SELECT name FROM products WHERE name = 'Backed Up Walk'").get()).toBeTruthy();
      expect(copy.prepare("SELECT value FROM tourdesk_backup_info WHERE key = 'createdAt'").get()).toEqual({ value: backup.time });
    } finally {
      copy.close();
    }
  });

  it('names each backup apart, even two in one second', async () => {
    const first = (await t.call('POST', '/v1/system/backups')).body.backup;
    const second = (await t.call('POST', '/v1/system/backups')).body.backup;
    expect(second.name).not.toBe(first.name);
    const names = (await t.call('GET', '/v1/system/backups')).body.backups.map((b: { name: string }) => b.name);
    expect(names).toEqual(expect.arrayContaining([first.name, second.name]));
  });

  it('refuses a second backup while one is being made (409), making nothing', async () => {
    let finish!: () => void;
    const underWay = oneBackupAtATime(t.dir, () => new Promise<void>((resolve) => (finish = resolve)));
    const before = backupFolderFiles();
    const refused = await t.call('POST', '/v1/system/backups');
    expect(refused.status).toBe(409);
    expect(refused.body.requestStatus.error).toMatchObject({ errorCode: 'CONFLICT', errorMessage: expect.stringMatching(/being made now/) });
    expect(backupFolderFiles()).toEqual(before);
    finish();
    await underWay;
    expect((await t.call('POST', '/v1/system/backups')).status).toBe(200);
  });

  it('refuses a body other than none or an empty JSON object with a 400, making nothing', async () => {
    const before = backupFolderFiles();
    for (const body of ['"now"', '[]', '{"name":']) {
      const res = await t.call('POST', '/v1/system/backups', { body });
      expect(res.status, body).toBe(400);
      expect(res.body.requestStatus.error.errorMessage, body).toBeTruthy();
    }
    const text = await t.app.inject({ method: 'POST', url: '/v1/system/backups', headers: { host: '127.0.0.1', apikey: t.keys.supplier, 'content-type': 'text/plain' }, payload: 'now' });
    expect(text.statusCode).toBeGreaterThanOrEqual(400);
    expect(backupFolderFiles()).toEqual(before);
    expect((await t.call('POST', '/v1/system/backups', { body: {} })).status).toBe(200);
  });

  it('downloads only a backup the list names: no other file, no path', async () => {
    writeFileSync(join(t.dir, 'backups', 'notes.txt'), 'not a backup');
    for (const name of ['tourdesk-20300101T000000Z.sqlite', '..%2Ftourdesk.sqlite', '..%2F..%2Fetc%2Fpasswd', 'tourdesk.sqlite', 'last.json', 'notes.txt', '%2Ftmp%2Ftourdesk-x.sqlite', 'tourdesk-..%2F..%2Fx.sqlite']) {
      const res = await t.call('GET', `/v1/system/backups/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.body.requestStatus.error.errorMessage, name).toMatch(/GET \/v1\/system\/backups lists them/);
    }
    expect((await t.call('GET', `/v1/system/backups/${'x'.repeat(201)}`)).status).toBe(400);
  });
});

else describe('backups on a PostgreSQL hub', () => {
  it('refuses POST with 409 saying the hub is backed up with pg_dump, and the list says so', async () => {
    const refused = await t.call('POST', '/v1/system/backups');
    expect(refused.status).toBe(409);
    expect(refused.body.requestStatus.error).toMatchObject({ errorCode: 'CONFLICT', errorMessage: expect.stringMatching(/PostgreSQL.*pg_dump.*docs\/hub\.md/) });
    expect(backupFolderFiles()).toEqual([]);
    const list = (await t.call('GET', '/v1/system/backups')).body;
    expect(list.backupAdvice).toMatch(/pg_dump/);
    expect(list.backups).toEqual([]);
    expect((await t.call('GET', '/v1/system/backups/tourdesk-20300101T000000Z.sqlite')).status).toBe(404);
  });
});

describe('backups are for supplier keys only', () => {
  it('refuses agent and checkin keys with 403 before making anything', async () => {
    const before = backupFolderFiles();
    for (const role of ['agent', 'checkin'] as const) {
      for (const [method, path] of [['POST', '/v1/system/backups'], ['GET', '/v1/system/backups'], ['GET', '/v1/system/backups/tourdesk-x.sqlite']]) {
        const res = await t.call(method, path, { role });
        expect(res.status, `${method} ${path} as ${role}`).toBe(403);
      }
    }
    expect(backupFolderFiles()).toEqual(before);
  });
});
