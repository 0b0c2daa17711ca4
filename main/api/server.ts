import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { join } from 'node:path';
import type { Engine } from '../engine';
import { FailedKeyLimiter } from './auth';
import { errorBody, toErrorResponse } from './envelope';
import { crossSiteRefusal, EMPTY_JSON_BODY, findBadText, jsonTextOf, redactUrl } from './wire';
import { DomainError } from '../domain/errors';
import type { RouteRegistry } from './route';
import { registerAllRoutes } from './routes';
import { observationsFor } from './observations';

export interface ServerOptions {
  engine: Engine;
  /** Host names the Host header may carry (DNS-rebinding defence). Empty: any. */
  allowedHosts?: string[];
  /** A built renderer to serve at / (serve mode). */
  webRoot?: string | null;
  logger?: boolean | object;
  bodyLimit?: number;
  /** Origins allowed besides the app's own pages (e.g. a desktop shell's renderer), exactly as browsers send them. */
  allowedOrigins?: string[];
  /** How long a whole request (headers and body) may take to arrive; a trickled body is cut off with 408. */
  requestTimeoutMs?: number;
  /** Serve HTTPS with this certificate (phones need a secure page for the camera and the offline app). */
  https?: { key: string | Buffer; cert: string | Buffer };
}

/** Long enough for a 15 MiB image over a slow Wi-Fi; short enough that trickled bodies do not pile up. */
export const REQUEST_TIMEOUT_MS = 60_000;

/** The web app's own routes (renderer/src/store/nav.ts): a reload or a bookmark of one gets the app. */
export const APP_ROUTES = ['/scan', '/pair', '/sessions/*', '/walkup', '/bookings', '/bookings/*', '/settings', '/week', '/overrides'];

export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]', '::1'];

export { redactUrl };

function redactedRequest(request: { method: string; url: string; ip?: string }) {
  return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
}

/** `/latest/...` is `/v1/...`, repeated slashes are one, and a trailing slash is accepted on every path: one rewrite, before routing. */
export function rewriteUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  const search = q === -1 ? '' : url.slice(q);
  // Clients that join a base URL ending in / with a path starting with / send `/v1//products`.
  path = path.replace(/\/{2,}/g, '/');
  if (path === '/latest' || path.startsWith('/latest/')) path = `/v1${path.slice('/latest'.length)}`;
  while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path + search;
}

/**
 * The query parser: repeated parameters become arrays, and a parameter sent empty or without
 * a value (`search=`, `&orderStatus&`) counts as absent.
 */
export function parseQuery(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (value.trim() === '') continue;
    const existing = out[key];
    if (existing === undefined) out[key] = value;
    else out[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

export type TourDeskServer = FastifyInstance & { registry: RouteRegistry };

/**
 * What Node's HTTP parser refuses before fastify sees a request (a URL or headers over 16 KB, bytes
 * a request line may not hold, a request that took too long) still answers the envelope.
 */
function clientErrorAnswer(error: NodeJS.ErrnoException, socket: import('node:net').Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'REQUEST_TIMEOUT', 'The request took too long to arrive; send it again']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'VALIDATION_ERROR', 'The URL and headers are too long (at most 16 KB together)']
        : [400, 'VALIDATION_ERROR', 'The request line or a header is malformed (a URL may hold only percent-encoded bytes outside printable ASCII)'];
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

export async function createServer(options: ServerOptions): Promise<TourDeskServer> {
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const app = Fastify({
    requestTimeout,
    // Node arms the request timeout only when it is given at construction, and checks for overdue
    // requests this often (its default, 30 s, would let a trickle run far past the timeout).
    http: { requestTimeout, connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(requestTimeout / 4))) },
    clientErrorHandler: clientErrorAnswer,
    ...(options.https ? { https: options.https } : {}),
    logger: options.logger ? { ...(options.logger === true ? {} : options.logger), serializers: { req: redactedRequest } } : false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    rewriteUrl: (req) => rewriteUrl(req.url ?? '/'),
    routerOptions: { querystringParser: parseQuery, maxParamLength: 500 },
    // A path fastify cannot route (bad percent-encoding, an over-long parameter) still answers the envelope.
    frameworkErrors: (error, _request, reply) => {
      const mapped = toErrorResponse(error);
      return (reply as FastifyReply).status(mapped.status).send(mapped.body);
    },
  });

  const allowed = new Set((options.allowedHosts ?? []).map((h) => h.toLowerCase()));
  if (allowed.size > 0) {
    // Callback-style hooks (here and below): a check that never waits costs no promise per request.
    app.addHook('onRequest', (request, reply, done) => {
      const hostHeader = (request.headers.host ?? '').toLowerCase();
      const hostname = hostHeader.startsWith('[') ? hostHeader.slice(0, hostHeader.indexOf(']') + 1) : hostHeader.split(':')[0];
      if (!allowed.has(hostname)) {
        reply.status(403).send(errorBody('FORBIDDEN', `Host ${hostHeader || '(none)'} is not served here`));
        return;
      }
      done();
    });
  }

  // Cross-site requests are refused, whatever they carry (also bodyless ones with the key in the URL).
  const extraOrigins = new Set((options.allowedOrigins ?? []).map((o) => o.toLowerCase()));
  app.addHook('onRequest', (request, reply, done) => {
    const refusal = crossSiteRefusal(request.headers, extraOrigins);
    if (refusal) {
      reply.status(403).send(errorBody('FORBIDDEN', refusal));
      return;
    }
    done();
  });

  // JSON bodies: an empty body is no body on an operation without one (see EMPTY_JSON_BODY), and
  // text no field may hold (NUL, unpaired surrogates, bytes that are not UTF-8) is refused naming the field.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const text = jsonTextOf(body as Buffer);
    if (text.trim() === '') return done(null, EMPTY_JSON_BODY);
    defaultJson(request, text, (error, parsed) => {
      if (error) return done(error);
      const badField = findBadText(parsed);
      if (badField !== null) return done(new DomainError('VALIDATION_ERROR', `Invalid request body: ${badField}: must be text without NUL characters, unpaired surrogates or bytes that are not UTF-8`));
      done(null, parsed);
    });
  });

  // No CORS headers are ever sent: browsers keep other sites' pages away from the local API.
  app.setErrorHandler((error, request, reply) => {
    const mapped = toErrorResponse(error);
    if (mapped.unexpected) request.log.error({ err: error }, 'unexpected error');
    return reply.status(mapped.status).send(mapped.body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(errorBody('NOT_FOUND', `No such endpoint: ${request.method} ${request.url.split('?')[0]}`)),
  );

  const registry: RouteRegistry = { routes: [] };
  registerAllRoutes({ app, engine: options.engine, registry, limiter: new FailedKeyLimiter(), observe: observationsFor(options.engine.ctx) });

  if (options.engine.ctx.dataDir) {
    // Created now, so /media works for the first image uploaded after start (no key: images are public).
    const mediaDir = `${options.engine.ctx.dataDir}/media`;
    mkdirSync(mediaDir, { recursive: true, mode: 0o700 });
    chmodSync(mediaDir, 0o700);
    await app.register(fastifyStatic, { root: mediaDir, prefix: '/media/', decorateReply: false, index: false });
  }
  if (options.webRoot && existsSync(options.webRoot)) {
    await app.register(fastifyStatic, {
      root: options.webRoot,
      prefix: '/',
      decorateReply: false,
      wildcard: false,
      // The page and the service worker are checked on every load, so a new build reaches devices at once;
      // hashed assets never change under their name.
      setHeaders: (res, path) => res.setHeader('cache-control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    });
    // Assets of a build made while this server runs (a developer's `npm run build:web`): the routes
    // above are the files found at start, and the fresh index.html names new hashed files.
    const assets = join(options.webRoot, 'assets');
    if (existsSync(assets)) {
      await app.register(fastifyStatic, { root: assets, prefix: '/assets/', decorateReply: false, wildcard: true, index: false, maxAge: '365d', immutable: true });
    }
    const index = join(options.webRoot, 'index.html');
    for (const url of APP_ROUTES) {
      app.get(url, (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(readFileSync(index)));
    }
  }
  return Object.assign(app, { registry }) as unknown as TourDeskServer;
}
