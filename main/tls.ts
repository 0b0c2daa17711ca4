import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

/**
 * HTTPS for phones on the desk's network: a phone's browser allows the camera and the offline app
 * shell only on a secure page, and http://192.168.x.y is not one. Either the operator's own
 * certificate (--tls-cert/--tls-key), or one TourDesk makes once and keeps in the data folder;
 * its SHA-256 fingerprint is printed so a guide can check the warning the phone shows for it.
 */
export interface TlsMaterial {
  key: string;
  cert: string;
  fingerprint: string;
  /** Where it came from, for the start-up line. */
  source: string;
}

export const fingerprintOf = (certPem: string) => new X509Certificate(certPem).fingerprint256;

export function readCertificate(certPath: string, keyPath: string): TlsMaterial {
  const cert = readFileSync(certPath, 'utf8');
  return { cert, key: readFileSync(keyPath, 'utf8'), fingerprint: fingerprintOf(cert), source: certPath };
}

/** The machine's own names and addresses, so the certificate matches whatever address a phone opens. */
function altNames(extraHosts: string[]) {
  const ips = new Set(['127.0.0.1', ...Object.values(networkInterfaces()).flat().filter((a) => a && a.family === 'IPv4').map((a) => a!.address)]);
  const dns = new Set(['localhost', ...extraHosts.filter((h) => !/^[\d.]+$/.test(h) && !h.includes(':'))]);
  for (const h of extraHosts) if (/^[\d.]+$/.test(h)) ips.add(h);
  return [...[...dns].map((value) => ({ type: 2 as const, value })), ...[...ips].map((ip) => ({ type: 7 as const, ip }))];
}

/** The data folder's certificate, made on first use (kept, so phones that trusted it keep trusting it). */
export async function selfSignedCertificate(dataDir: string, hosts: string[] = []): Promise<TlsMaterial & { created: boolean }> {
  const dir = join(dataDir, 'tls');
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  if (existsSync(certPath) && existsSync(keyPath)) return { ...readCertificate(certPath, keyPath), created: false };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const now = new Date();
  const pems = await generate([{ name: 'commonName', value: 'TourDesk desk' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    // Browsers refuse server certificates valid for more than 825 days.
    notAfterDate: new Date(now.getTime() + 800 * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: altNames(hosts) },
    ],
  });
  writeFileSync(keyPath, pems.private, { mode: 0o600 });
  writeFileSync(certPath, pems.cert, { mode: 0o644 });
  return { cert: pems.cert, key: pems.private, fingerprint: fingerprintOf(pems.cert), source: certPath, created: true };
}
