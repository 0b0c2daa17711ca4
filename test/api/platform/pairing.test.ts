import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { startServe } from '../../fixtures/cli';
import { pairingAnswerSchema } from '../../../main/contract/pairing';
import type { AddressInfo } from 'node:net';
import { createServer, LOOPBACK_NAMES } from '../../../main/api/server';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe("pairing a guide's phone", () => {
  it('mints a new check-in key and answers a scanner link with the key in the fragment, and its QR code', async () => {
    const res = await t.call('POST', '/v1/pairing/checkin', { body: { name: 'Pier phone', origin: 'https://192.168.1.20:8443' } });
    expect(res.status).toBe(200);
    const { pairing } = res.body;
    // The answer is exactly the contract's shape (the desk's pairing screen reads it by that type).
    expect(pairingAnswerSchema.strict().parse(pairing)).toEqual(pairing);
    expect(pairing.url).toMatch(/^https:\/\/192\.168\.1\.20:8443\/scan#key=td_[^&]+&device=Pier%20phone$/);
    expect(pairing.secure).toBe(true);
    expect(pairing.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const key = decodeURIComponent(new URL(pairing.url).hash.match(/key=([^&]+)/)![1]);
    // A working check-in key, no more: it reads manifests and scans, and may not make keys or products.
    expect((await t.call('GET', '/v1/manifest/day', { key })).status).toBe(200);
    expect((await t.call('POST', '/v1/pairing/checkin', { key, body: {} })).status).toBe(403);
    expect((await t.call('GET', '/v1/products', { key })).status).toBe(403);
    // Listed and revocable like any key.
    const listed = (await t.engine.apiKeys.list()).find((k) => k.id === pairing.keyId)!;
    expect(listed).toMatchObject({ role: 'checkin', name: 'Pier phone', revoked: false });
    await t.engine.apiKeys.revoke(String(pairing.keyId));
    expect((await t.call('GET', '/v1/manifest/day', { key })).status).toBe(401);
  });

  it('refuses, before making a key, on a desk that listens on this computer only, unless told the address the phone opens', async () => {
    const web = await createServer({ engine: t.engine, allowedHosts: LOOPBACK_NAMES });
    await web.listen({ host: '127.0.0.1', port: 0 });
    try {
      const base = `http://127.0.0.1:${(web.server.address() as AddressInfo).port}`;
      const post = (body: object) => fetch(`${base}/v1/pairing/checkin`, { method: 'POST', headers: { apikey: t.keys.supplier, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const keysBefore = (await t.engine.apiKeys.list()).length;
      const refused = await post({ name: 'Pier phone' });
      expect(refused.status).toBe(409);
      expect((await refused.json()).requestStatus.error.errorMessage).toMatch(/listens only on this computer.*--host 0\.0\.0\.0 --tls/);
      expect((await t.engine.apiKeys.list()).length).toBe(keysBefore);
      // Behind a proxy or a port forward, the desk is told what the phone opens: that is taken as it is.
      const told = await post({ name: 'Pier phone', origin: 'https://desk.example:8443' });
      expect(told.status).toBe(200);
      expect((await told.json()).pairing.url).toMatch(/^https:\/\/desk\.example:8443\/scan#key=/);
    } finally {
      await web.close();
    }
  });

  it('refuses agents and an origin that is not a scheme and host', async () => {
    expect((await t.call('POST', '/v1/pairing/checkin', { role: 'agent', body: {} })).status).toBe(403);
    expect((await t.call('POST', '/v1/pairing/checkin', { body: { origin: 'https://desk/scan?x=1' } })).status).toBe(400);
  });
});

describe('tourdesk serve --tls', () => {
  it('makes a certificate once, keeps it in the data folder, prints its fingerprint and serves HTTPS with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tourdesk-tls-'));
    try {
      const server = await startServe(['--data-dir', dir, '--tls']);
      expect(server.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const printed = server.output().match(/SHA-256 fingerprint ([0-9A-F:]{95})/)![1];
      expect(statSync(join(dir, 'tls', 'key.pem')).mode & 0o777).toBe(0o600);
      const served = await new Promise<{ status: number; fingerprint: string }>((resolve, reject) => {
        const req = request(`${server.baseUrl}/v1/manifest/day`, { rejectUnauthorized: false }, (res) => {
          resolve({ status: res.statusCode!, fingerprint: (res.socket as TLSSocket).getPeerCertificate().fingerprint256 });
          res.resume();
        });
        req.on('error', reject);
        req.end();
      });
      expect(served).toEqual({ status: 401, fingerprint: printed }); // no key: refused, over the printed certificate
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      // The next start keeps the same certificate (phones that accepted it keep working).
      const cert = readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8');
      const again = await startServe(['--data-dir', dir, '--tls']);
      expect(again.output()).toContain(printed);
      expect(readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8')).toBe(cert);
      again.child.kill('SIGTERM');
      await again.exited;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
