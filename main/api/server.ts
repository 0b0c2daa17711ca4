import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from '../engine';
import { FailedKeyLimiter } from './auth';
import { errorBody, toErrorResponse } from './envelope';
import type { RouteRegistry } from './route';
import { registerAllRoutes } from './routes';

export interface ServerOptions {
  engine: Engine;
  /** Host names the Host header may carry (DNS-rebinding defence). Empty: any. */
  allowedHosts?: string[];
  /** A built renderer to serve at / (serve mode). */
  webRoot?: string | null;
  logger?: boolean | object;
  bodyLimit?: number;
  /** Serve HTTPS with this certificate (phones need a secure page for the camera and the offline app). */
  https?: { key: string | Buffer; cert: string | Buffer };
}

/** The web app's own routes (renderer/src/store/nav.ts): a reload or a bookmark of one gets the app. */
export const APP_ROUTES = ['/scan', '/pair', '/sessions/*'];

export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]', '::1'];

/** Keys travel in the apiKey query parameter or header: a logged request shows neither. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]api_?key=)[^&#]*/gi, '$1[redacted]');
}

function redactedRequest(request: { method: string; url: string; ip?: string }) {
  return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
}

/** `/latest/...` is `/v1/...`, and a trailing slash is accepted on every path: one rewrite, before routing. */
export function rewriteUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  const search = q === -1 ? '' : url.slice(q);
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

export async function createServer(options: ServerOptions): Promise<TourDeskServer> {
  const app = Fastify({
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
    app.addHook('onRequest', async (request, reply) => {
      const hostHeader = (request.headers.host ?? '').toLowerCase();
      const hostname = hostHeader.startsWith('[') ? hostHeader.slice(0, hostHeader.indexOf(']') + 1) : hostHeader.split(':')[0];
      if (!allowed.has(hostname)) {
        return reply.status(403).send(errorBody('FORBIDDEN', `Host ${hostHeader || '(none)'} is not served here`));
      }
    });
  }

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
  registerAllRoutes({ app, engine: options.engine, registry, limiter: new FailedKeyLimiter() });

  if (options.engine.ctx.dataDir) {
    // Created now, so /media works for the first image uploaded after start (no key: images are public).
    const mediaDir = `${options.engine.ctx.dataDir}/media`;
    mkdirSync(mediaDir, { recursive: true });
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
    const index = join(options.webRoot, 'index.html');
    for (const url of APP_ROUTES) {
      app.get(url, (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(readFileSync(index)));
    }
  }
  return Object.assign(app, { registry }) as unknown as TourDeskServer;
}
