import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, ChangeObservation } from '../domain/context';
import type { Engine } from '../engine';
import { DomainError } from '../domain/errors';
import { keyFrom, requireRight, type FailedKeyLimiter, type Right } from './auth';
import { sendFailure } from './answer';
import { catalogueOwnedByHub } from '../sync/errors';
import type { Observed } from './observations';

/** What admitting a request needs of the server. */
export interface AdmissionHost {
  engine: Engine;
  limiter: FailedKeyLimiter;
  /** The observation of other processes' commits a request is answered as of (observations.ts). */
  observe: (then: Observed) => void;
}

/** The operation a request asks for, as far as admitting it goes. */
export interface GuardedOperation {
  method: string;
  path: string;
  right: Right;
}

/** Who a request was admitted as, and what other processes had committed when its key was checked. */
export interface Caller {
  actor: Actor;
  seen: ChangeObservation | undefined;
}

export interface Admission {
  /**
   * fastify's onRequest hook: the key and the right are checked before the body is read (a wrong key
   * never makes us read 15 MiB). A callback hook: a key verified before is answered without a promise.
   */
  onRequest(request: FastifyRequest, reply: FastifyReply, done: () => void): void;
  /** The caller onRequest admitted (the handler runs only for an admitted request). */
  callerOf(request: FastifyRequest): Caller;
}

/**
 * Admission to one operation: the caller's key (the actor of a known key, or checked and counted),
 * its right, and a desk's catalogue write refused before any work; then on to the body.
 */
export function admission(host: AdmissionHost, operation: GuardedOperation): Admission {
  const callers = new WeakMap<FastifyRequest, Caller>();
  const admit = (request: FastifyRequest, reply: FastifyReply, done: () => void, actor: Actor, seen: ChangeObservation | undefined): void => {
    try {
      requireRight(actor, operation.right);
      // The op fold refuses catalogue writes on a desk too; this answers before the body is read.
      if (authorsCatalogue(operation) && host.engine.replica.followsHub()) throw catalogueOwnedByHub();
      callers.set(request, { actor, seen });
    } catch (error) {
      return refuse(request, reply, error);
    }
    done();
  };
  return {
    onRequest(request, reply, done) {
      if (operation.right === 'public') return admit(request, reply, done, ANONYMOUS, undefined);
      // One observation of other processes' commits, made after this request arrived, serves its
      // key check and every cache it asks (shared with the requests read in the same poll phase).
      host.observe((failure, seen) => {
        try {
          if (failure !== undefined) throw failure;
          const key = keyFrom(request);
          const known = key ? host.engine.apiKeys.verifyKnown(key, seen) : undefined;
          if (known) return admit(request, reply, done, known, seen);
          authenticate(host, request, reply, seen).then(
            (actor) => admit(request, reply, done, actor, seen),
            (error) => refuse(request, reply, error),
          );
        } catch (error) {
          refuse(request, reply, error);
        }
      });
    },
    callerOf: (request) => callers.get(request)!,
  };
}

/**
 * "Last used" for the settings screen, noted only for an answered request (a refusal changes nothing),
 * and before the answer leaves, so no write lands after it; a failed note never fails the request.
 * Undefined when no note is due (the common case), so the answer waits for nothing.
 */
export function noteKeyUse(engine: Engine, actor: Actor, request: FastifyRequest): Promise<void> | undefined {
  if (!engine.keyUse.isDue(actor.keyId)) return undefined;
  return engine.keyUse.noteUse(actor.keyId).catch((error) => request.log.warn({ err: error }, 'could not note the key use'));
}

/**
 * Writes to the catalogue the hub owns (docs/sync.md): products and their parts, prices, rates,
 * pickups, categories, extras, sessions and resources. External codes, resellers and vouchers are
 * not catalogue (desks may write them), nor is anything outside these paths.
 */
const CATALOGUE_PATHS = /^\/v1\/(products|availability|categories|extra|pickups|rates|resources)(\/|$)/;
function authorsCatalogue(operation: GuardedOperation): boolean {
  return operation.method !== 'GET' && (operation.right === 'catalog:write' || operation.right === 'availability:write') && CATALOGUE_PATHS.test(operation.path) && !operation.path.endsWith('/externalCodes');
}

/** A refusal before the body is read: the envelope, and a refused upload's connection closed instead of drained. */
function refuse(request: FastifyRequest, reply: FastifyReply, error: unknown): void {
  if (request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined) reply.header('connection', 'close');
  sendFailure(request, reply, error);
}

/** The caller of a public route (no key): the least-privileged role, and handlers of public routes ignore it. */
const ANONYMOUS: Actor = Object.freeze({ keyId: null, role: 'checkin', resellerId: null, name: 'anonymous (no key)' });

/** Who calls: the actor of a valid key; a wrong key is counted, and refused with 429 once its address has guessed too often. */
async function authenticate(host: AdmissionHost, request: FastifyRequest, reply: FastifyReply, seen: ChangeObservation | undefined): Promise<Actor> {
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
