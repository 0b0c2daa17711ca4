import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, LOOPBACK_NAMES, type TourDeskServer } from '../../../main/api/server';
import { startTestApp, type TestApp } from '../../fixtures/app';

let t: TestApp;
let web: TourDeskServer;
let root: string;
beforeAll(async () => {
  t = await startTestApp();
  root = mkdtempSync(join(tmpdir(), 'tourdesk-web-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<script src="/assets/index-old.js"></script>');
  writeFileSync(join(root, 'assets', 'index-old.js'), 'console.log("old")');
  web = await createServer({ engine: t.engine, allowedHosts: LOOPBACK_NAMES, webRoot: root });
  await web.ready();
});
afterAll(async () => {
  await web.close();
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the web UI served by `tourdesk serve`', () => {
  it('serves a build made while it runs: the new page and the new hashed assets it names', async () => {
    expect((await web.inject({ url: '/assets/index-old.js' })).statusCode).toBe(200);
    // A developer rebuilds the web UI under a running server.
    writeFileSync(join(root, 'assets', 'index-new.js'), 'console.log("new")');
    writeFileSync(join(root, 'index.html'), '<script src="/assets/index-new.js"></script>');
    const page = await web.inject({ url: '/settings' });
    expect(page.body).toContain('/assets/index-new.js');
    const asset = await web.inject({ url: '/assets/index-new.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("new")');
    expect(asset.headers['cache-control']).toMatch(/immutable/);
    expect((await web.inject({ url: '/assets/no-such.js' })).statusCode).toBe(404);
    expect((await web.inject({ url: '/assets/../index.html' })).body).not.toContain('<script src="/assets/../');
  });
});
