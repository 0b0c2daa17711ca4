import type { FastifyReply, FastifyRequest } from 'fastify';
import { isSharedAnswer, jsonOfSharedAnswer } from '../domain/sharedAnswers';
import { successStatus, toErrorResponse, warningOf } from './envelope';

/** A non-JSON answer (an image, a CSV file, a page). */
export class RawResponse {
  constructor(
    readonly contentType: string,
    readonly body: Buffer | string,
    readonly headers: Record<string, string> = {},
  ) {}
}

/**
 * Sends a handler's result with 200: a raw answer as it is, anything else under the requestStatus
 * envelope (a cached, shared part's JSON text made once: see sharedEnvelopeBytes and jsonWithSharedParts).
 */
export function sendAnswer(reply: FastifyReply, result: object | RawResponse): FastifyReply {
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
}

/** Sends a failure under the error envelope; `where` names the part of the request that failed validation. */
export function sendFailure(request: FastifyRequest, reply: FastifyReply, error: unknown, where?: 'body' | 'query' | 'params'): FastifyReply {
  const mapped = toErrorResponse(error, where);
  if (mapped.unexpected) request.log.error({ err: error }, 'unexpected error');
  return reply.status(mapped.status).send(mapped.body);
}

/** What fastify sends with a serialized object, so an answer sent as text carries the same header. */
const JSON_TYPE = 'application/json; charset=utf-8';

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
    const json = isSharedAnswer(value) ? jsonOfSharedAnswer(value) : JSON.stringify(value);
    text += `${text ? ',' : '{'}${JSON.stringify(key)}:${json}`;
  }
  return `${text || '{'}}`;
}
