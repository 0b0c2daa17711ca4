import type { AddressInfo, Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import QRCode from 'qrcode';
import { defineRoute, type RouteHost } from '../route';
import { DomainError } from '../../domain/errors';
import { pairingBodySchema, type PairingAnswer } from '../../contract/pairing';

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

/** This machine's addresses on the local networks (what a phone on the same Wi-Fi can open). */
function lanHosts(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && a.family === 'IPv4' && !a.internal)
    .map((a) => a!.address);
}

/** Whether the server this request came in on is bound to a loopback address (unknown, as in a test's injected request: no). */
function listensOnLoopbackOnly(socket: Socket): boolean {
  const bound = (socket as Socket & { server?: { address(): AddressInfo | string | null } }).server?.address();
  return typeof bound === 'object' && bound !== null && /^(127\.|::1$|::ffff:127\.)/.test(bound.address);
}

/**
 * Pairing a guide's phone: the desk mints a new `checkin` key (listed and revocable like any key)
 * and shows a QR code of `<origin>/scan#key=…`. The key rides in the URL fragment, which browsers
 * never send to a server and the app removes from the address bar on arrival.
 */
export function registerPairingRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'POST',
    path: '/v1/pairing/checkin',
    summary: "A new check-in key for a guide's phone, as a scanner link and its QR code (TourDesk extension)",
    tag: 'Keys',
    right: 'any',
    // A POST with nothing to say (a JSON content type and no body, as generic clients send it) is `{}`.
    body: pairingBodySchema.optional().default({}),
    handler: async ({ body, actor, engine, raw }): Promise<{ pairing: PairingAnswer }> => {
      // Minting keys is the supplier's alone (a check-in key must not multiply itself).
      if (actor.role !== 'supplier' && actor.role !== 'system') throw new DomainError('FORBIDDEN', `This API key (${actor.role}) may not create keys`);
      // A desk that listens on this computer only cannot be opened by a phone: say so before a key is made.
      if (!body.origin && listensOnLoopbackOnly(raw.socket)) {
        throw new DomainError(
          'CONFLICT',
          'This desk listens only on this computer (127.0.0.1), so a phone cannot open a pairing link. Restart it reachable on the network, `tourdesk serve --host 0.0.0.0 --tls`, and pair again (or give the address the phone opens).',
        );
      }
      const name = body.name ?? `Phone ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
      const hostHeader = raw.headers.host ?? '';
      const port = hostHeader.match(/:(\d+)$/)?.[1];
      const own = `${raw.protocol}://${hostHeader}`;
      // A desk on localhost cannot hand a phone "localhost": offer this machine's network addresses instead.
      const origins = body.origin ? [body.origin] : LOOPBACK.test(hostHeader) ? lanHosts().map((ip) => `${raw.protocol}://${ip}${port ? `:${port}` : ''}`) : [own];
      const origin = origins[0] ?? own;
      const { id, key } = await engine.apiKeys.create({ role: 'checkin', name }, actor);
      const url = `${origin}/scan#key=${encodeURIComponent(key)}&device=${encodeURIComponent(name)}`;
      const qrSvg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return { pairing: { keyId: id, name, url, origins, secure: origin.startsWith('https:') || LOOPBACK.test(new URL(origin).host), qrSvg } };
    },
  });
}
