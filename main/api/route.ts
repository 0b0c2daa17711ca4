import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Actor, ChangeObservation } from '../domain/context';
import type { Engine } from '../engine';
import { DomainError } from '../domain/errors';
import { keyFrom, requireRight, type FailedKeyLimiter, type Right } from './auth';
import { successStatus, toErrorResponse, warningOf } from './envelope';
import { EMPTY_JSON_BODY } from './wire';
import { catalogueOwnedByHub } from '../sync/errors';
import { isSharedAnswer } from '../domain/sharedAnswers';
import type { Observed } from './observations';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiRequest<Q, P, B> {
  query: Q;
  params: P;
  body: B;
  actor: Actor;
  /** What other processes had committed when the key was checked: handed to the caches the handler asks. */
  seen: ChangeObservation | undefined;
  engine: Engine;
  raw: FastifyRequest;
  reply: FastifyReply;
}

/** A non-JSON answer (an image, a CSV file, a page). */
export class RawResponse {
  constructor(
    readonly contentType: string,
    readonly body: Buffer | string,
    readonly headers: Record<string, string> = {},
  ) {}
}

export interface RouteDef<Q = unknown, P = unknown, B = unknown> {
  method: Method;
  /** fastify syntax: /v1/products/:productCode */
  path: string;
  summary: string;
  tag: string;
  right: Right;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  body?: z.ZodType<B>;
  deprecated?: boolean;
  description?: string;
  /** Other paths answering the same operation; listed as deprecated in the OpenAPI document. */
  aliases?: string[];
  bodyLimit?: number;
  handler(request: ApiRequest<Q, P, B>): Promise<object | RawResponse>;
}

export interface RouteRegistry {
  routes: RouteDef<any, any, any>[];
}

export interface RouteHost {
  app: FastifyInstance;
  engine: Engine;
  registry: RouteRegistry;
  limiter: FailedKeyLimiter;
  /** The observation of other processes' commits a request is answered as of (observations.ts). */
  observe: (then: Observed) => void;
}

function parse<T>(schema: z.ZodType<T> | undefined, value: unknown, where: 'body' | 'query' | 'params'): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(where === 'body' ? (value ?? {}) : value);
  if (!result.success) throw Object.assign(result.error, { where });
  return result.data;
}

/**
 * Writes to the catalogue the hub owns (docs/sync.md): products and their parts, prices, rates,
 * pickups, categories, extras, sessions and resources. External codes, resellers and vouchers are
 * not catalogue (desks may write them), nor is anything outside these paths.
 */
const CATALOGUE_PATHS = /^\/v1\/(products|availability|categories|extra|pickups|rates|resources)(\/|$)/;
function authorsCatalogue(def: { method: string; path: string; right: Right }): boolean {
  return def.method !== 'GET' && (def.right === 'catalog:write' || def.right === 'availability:write') && CATALOGUE_PATHS.test(def.path) && !def.path.endsWith('/externalCodes');
}

type Callers = WeakMap<FastifyRequest, { actor: Actor; seen: ChangeObservation | undefined }>;

/** A refusal before the body is read: the envelope, and a refused upload's connection closed instead of drained. */
function refuse(request: FastifyRequest, reply: FastifyReply, error: unknown): void {
  const mapped = toErrorResponse(error);
  if (mapped.unexpected) request.log.error({ err: error }, 'unexpected error');
  if (request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined) reply.header('connection', 'close');
  reply.status(mapped.status).send(mapped.body);
}

/** A known caller: the right checked, a desk's catalogue write refused before any work, then on to the body. */
function admit(host: RouteHost, def: RouteDef<any, any, any>, callers: Callers, request: FastifyRequest, reply: FastifyReply, done: () => void, actor: Actor, seen: ChangeObservation | undefined): void {
  try {
    requireRight(actor, def.right);
    // The op fold refuses catalogue writes on a desk too; this answers before the body is read.
    if (authorsCatalogue(def) && host.engine.replica.followsHub()) throw catalogueOwnedByHub();
    callers.set(request, { actor, seen });
  } catch (error) {
    return refuse(request, reply, error);
  }
  done();
}

/**
 * Registers one operation: key check, right check, schema validation of params, query and body,
 * then the handler; its result goes out under the requestStatus envelope with 200.
 */
export function defineRoute<Q, P, B>(host: RouteHost, def: RouteDef<Q, P, B>): void {
  host.registry.routes.push(def);
  const paths = [def.path, ...(def.aliases ?? [])];
  const callers: Callers = new WeakMap();
  for (const url of paths) {
    host.app.route({
      method: def.method,
      url,
      bodyLimit: def.bodyLimit,
      // The key and the right are checked before the body is read: a wrong key never makes us read 15 MiB.
      // A callback hook: a key verified before is answered without a promise (the common case).
      onRequest: (request, reply, done) => {
        if (def.right === 'public') return admit(host, def, callers, request, reply, done, ANONYMOUS, undefined);
        // One observation of other processes' commits, made after this request arrived, serves its
        // key check and every cache it asks (shared with the requests read in the same poll phase).
        host.observe((failure, seen) => {
          try {
            if (failure !== undefined) throw failure;
            const key = keyFrom(request);
            const known = key ? host.engine.apiKeys.verifyKnown(key, seen) : undefined;
            if (known) return admit(host, def, callers, request, reply, done, known, seen);
            authenticate(host, request, reply, seen).then(
              (actor) => admit(host, def, callers, request, reply, done, actor, seen),
              (error) => refuse(request, reply, error),
            );
          } catch (error) {
            refuse(request, reply, error);
          }
        });
      },
      handler: async (request, reply) => {
        let where: 'body' | 'query' | 'params' | undefined;
        try {
          const { actor, seen } = callers.get(request)!;
          where = 'params';
          const params = parse(def.params, request.params, 'params');
          where = 'query';
          const query = parse(def.query, request.query, 'query');
          where = 'body';
          let sent: unknown = request.body;
          if (sent === EMPTY_JSON_BODY) {
            // No body where the operation's body is optional (POST /v1/sync/run) is as good as none sent.
            if (def.body && !def.body.safeParse(undefined).success) throw new DomainError('VALIDATION_ERROR', 'The request body is empty; send a JSON object');
            sent = undefined;
          }
          const body = parse(def.body, sent, 'body');
          where = undefined;
          const result = await def.handler({ query, params, body, actor, seen, engine: host.engine, raw: request, reply });
          // "Last used" for the settings screen, noted only for an answered request (a refusal changes nothing),
          // and before the answer leaves, so no write lands after it; a failed note never fails the request.
          if (host.engine.keyUse.isDue(actor.keyId)) await host.engine.keyUse.noteUse(actor.keyId).catch((error) => request.log.warn({ err: error }, 'could not note the key use'));
          if (result instanceof RawResponse) {
            reply.status(200).type(result.contentType).headers(result.headers);
            return reply.send(result.body);
          }
          const warning = warningOf(result);
          const whole = warning === undefined ? sharedEnvelopeBytes(result) : undefined;
          if (whole !== undefined) return reply.status(200).type(JSON_TYPE).send(whole);
          const envelope = { requestStatus: successStatus(warning), ...result };
          const text = jsonWithSharedParts(envelope);
          if (text !== undefined) return reply.status(200).type(JSON_TYPE).send(text);
          return reply.status(200).send(envelope);
        } catch (error) {
          const mapped = toErrorResponse(error, where);
          if (mapped.unexpected) request.log.error({ err: error }, 'unexpected error');
          return reply.status(mapped.status).send(mapped.body);
        }
      },
    });
  }
}

/** What fastify sends with a serialized object, so an answer sent as text carries the same header. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** JSON text of shared (frozen, cached) answers, made once per answer object. */
const sharedJson = new WeakMap<object, string>();

/** The envelope bytes of answers that are one shared part alone, kept with the part (see sharedEnvelopeBytes). */
const sharedEnvelopes = new WeakMap<object, { key: string; bytes: Buffer }>();

/**
 * The whole envelope, as bytes, of an answer that is one shared part and nothing else (a cached
 * product as `{ product }`), with no warning: made once per part, then sent as it is, so a request
 * for it serializes, joins and encodes nothing. Undefined for any other answer.
 */
function sharedEnvelopeBytes(result: object): Buffer | undefined {
  let key: string | undefined;
  for (const name in result) {
    if (key !== undefined) return undefined;
    key = name;
  }
  if (key === undefined) return undefined;
  const part = (result as Record<string, unknown>)[key];
  if (!isSharedAnswer(part)) return undefined;
  const kept = sharedEnvelopes.get(part);
  if (kept?.key === key) return kept.bytes;
  const bytes = Buffer.from(jsonWithSharedParts({ requestStatus: successStatus(), [key]: part })!, 'utf8');
  sharedEnvelopes.set(part, { key, bytes });
  return bytes;
}

/**
 * The envelope's JSON text when a part of it is a shared answer (a cached product, a kept page of
 * vouchers): that part's text is made once and reused, the rest serialized as usual. Exactly the
 * text JSON.stringify(envelope) gives (same keys, same order, undefined/function values left out).
 * Undefined when no part is shared: fastify serializes the object as before.
 */
function jsonWithSharedParts(envelope: Record<string, unknown>): string | undefined {
  const entries = Object.entries(envelope);
  if (!entries.some(([, value]) => isSharedAnswer(value))) return undefined;
  let text = '';
  for (const [key, value] of entries) {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    let json = isSharedAnswer(value) ? sharedJson.get(value) : undefined;
    if (json === undefined) {
      json = JSON.stringify(value);
      if (isSharedAnswer(value)) sharedJson.set(value, json);
    }
    text += `${text ? ',' : '{'}${JSON.stringify(key)}:${json}`;
  }
  return `${text || '{'}}`;
}

/** The caller of a public route (no key): the least-privileged role, and handlers of public routes ignore it. */
const ANONYMOUS: Actor = Object.freeze({ keyId: null, role: 'checkin', resellerId: null, name: 'anonymous (no key)' });

/** Who calls: the actor of a valid key; a wrong key is counted, and refused with 429 once its address has guessed too often. */
async function authenticate(host: RouteHost, request: FastifyRequest, reply: FastifyReply, seen: ChangeObservation | undefined): Promise<Actor> {
  const key = keyFrom(request);
  if (!key) throw new DomainError('UNAUTHORIZED', 'An API key is required: send it as the apiKey header or the apiKey query parameter');
  const actor = await host.engine.apiKeys.verify(key, seen);
  if (actor) return actor;
  const waitSeconds = host.limiter.fail(request.ip);
  if (waitSeconds > 0) {
    reply.header('retry-after', String(waitSeconds));
    throw new DomainError('TOO_MANY_ATTEMPTS', `Too many requests with a wrong API key from this address; wait ${waitSeconds} s and try again`);
  }
  throw new DomainError('UNAUTHORIZED', 'The API key is not valid (unknown or revoked)');
}
