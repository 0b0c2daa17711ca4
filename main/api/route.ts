import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Actor, ChangeObservation } from '../domain/context';
import type { Engine } from '../engine';
import { DomainError } from '../domain/errors';
import type { Right } from './auth';
import { EMPTY_JSON_BODY } from './wire';
import { admission, noteKeyUse, type AdmissionHost } from './admission';
import { sendAnswer, sendFailure, type RawResponse } from './answer';

// A handler's non-JSON answer, for the routes that define one.
export { RawResponse } from './answer';

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

export interface RouteHost extends AdmissionHost {
  app: FastifyInstance;
  registry: RouteRegistry;
}

function parse<T>(schema: z.ZodType<T> | undefined, value: unknown, where: 'body' | 'query' | 'params'): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(where === 'body' ? (value ?? {}) : value);
  if (!result.success) throw Object.assign(result.error, { where });
  return result.data;
}

/**
 * Registers one operation: key check, right check (admission.ts), schema validation of params, query
 * and body, then the handler; its result goes out under the requestStatus envelope with 200 (answer.ts).
 */
export function defineRoute<Q, P, B>(host: RouteHost, def: RouteDef<Q, P, B>): void {
  host.registry.routes.push(def);
  const admitted = admission(host, def);
  for (const url of [def.path, ...(def.aliases ?? [])]) {
    host.app.route({
      method: def.method,
      url,
      bodyLimit: def.bodyLimit,
      onRequest: admitted.onRequest,
      handler: async (request, reply) => {
        let where: 'body' | 'query' | 'params' | undefined;
        try {
          const { actor, seen } = admitted.callerOf(request);
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
          const noting = noteKeyUse(host.engine, actor, request);
          if (noting) await noting;
          return sendAnswer(reply, result);
        } catch (error) {
          return sendFailure(request, reply, error, where);
        }
      },
    });
  }
}
