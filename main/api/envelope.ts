import type { FastifyError } from 'fastify';
import { ZodError } from 'zod';
import { DomainError } from '../domain/errors';
import { TooManyAttempts } from '../domain/failedAttempts';

export const VERSION = 'v1';

export interface ErrorBody {
  requestStatus: { success: false; version: string; error: { errorCode: string; errorMessage: string } };
}

export const successStatus = (warning?: string) =>
  warning ? { success: true as const, version: VERSION, warning: { warningMessage: warning } } : { success: true as const, version: VERSION };

/** Longest run of non-space characters a message may echo; no word or path of ours is this long. */
const MAX_ECHO = 80;
const MAX_MESSAGE = 1000;
const cut = (text: string, length: number) => [...text].slice(0, length).join('');

/**
 * Messages echo what was sent (a code, a name) so the caller sees which one; a long input is cut
 * short, so a 100 KB field never gives a 100 KB answer (or log line).
 */
export function shortenEchoes(message: string): string {
  const shortened = message.replace(new RegExp(`\\S{${MAX_ECHO + 1},}`, 'gu'), (run) => `${cut(run, 60)}… (${[...run].length} characters)`);
  return shortened.length > MAX_MESSAGE ? `${cut(shortened, MAX_MESSAGE)}…` : shortened;
}

export const errorBody = (errorCode: string, errorMessage: string): ErrorBody => ({
  requestStatus: { success: false, version: VERSION, error: { errorCode, errorMessage: shortenEchoes(errorMessage) } },
});

const WARNING = Symbol('warning');
/** Lets a handler attach a requestStatus.warning to a successful answer. */
export function withWarning<T extends object>(payload: T, warning: string | undefined): T {
  if (warning) Object.defineProperty(payload, WARNING, { value: warning, enumerable: false });
  return payload;
}
export const warningOf = (payload: object): string | undefined => (payload as Record<symbol, string>)[WARNING];

/**
 * Runs a handler's work; when it fails with a wait (429 TOO_MANY_ATTEMPTS), the reply carries that
 * wait in seconds as Retry-After, and the error goes on to be mapped to the envelope as any other.
 */
export async function withRetryAfter<T>(reply: { header(name: string, value: string): unknown }, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TooManyAttempts) reply.header('retry-after', String(error.retryAfterSeconds));
    throw error;
  }
}

function describeZod(error: ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
      let message = issue.message;
      if (issue.code === 'invalid_union') message = 'has the wrong type or value';
      if (issue.code === 'invalid_value' && 'values' in issue) message = `must be one of ${(issue.values as unknown[]).join(', ')}`;
      return path ? `${path}: ${message}` : message;
    })
    .join('; ');
}

/** Maps anything thrown to a status and the envelope; never leaks a stack trace or SQL. */
export function toErrorResponse(error: unknown, where?: 'body' | 'query' | 'params'): { status: number; body: ErrorBody; unexpected: boolean } {
  if (error instanceof DomainError) return { status: error.status, body: errorBody(error.code, error.message), unexpected: false };
  if (error instanceof ZodError) {
    const prefix = where === 'query' ? 'Invalid query parameter ' : where === 'params' ? 'Invalid path parameter ' : 'Invalid request body: ';
    return { status: 400, body: errorBody('VALIDATION_ERROR', `${prefix}${describeZod(error)}`), unexpected: false };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError && typeof fastifyError.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    switch (fastifyError.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return { status: 400, body: errorBody('PAYLOAD_TOO_LARGE', 'The request body is too large'), unexpected: false };
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return { status: 415, body: errorBody('VALIDATION_ERROR', 'Send the request body as application/json'), unexpected: false };
      case 'FST_ERR_BAD_URL':
        return { status: 400, body: errorBody('VALIDATION_ERROR', 'The URL is not valid: a path segment is not well-formed percent-encoded UTF-8'), unexpected: false };
      case 'FST_ERR_MAX_PARAM_LENGTH':
        return { status: 414, body: errorBody('VALIDATION_ERROR', 'A path parameter is too long (at most 500 characters)'), unexpected: false };
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return { status: 400, body: errorBody('VALIDATION_ERROR', 'The request body is empty; send a JSON object'), unexpected: false };
      default:
        if (fastifyError instanceof SyntaxError || /JSON/i.test(fastifyError.message)) {
          return { status: 400, body: errorBody('VALIDATION_ERROR', 'The request body is not valid JSON'), unexpected: false };
        }
        return { status: fastifyError.statusCode, body: errorBody('VALIDATION_ERROR', fastifyError.message), unexpected: false };
    }
  }
  return { status: 500, body: errorBody('INTERNAL_ERROR', 'Something went wrong inside TourDesk; the request was not completed'), unexpected: true };
}
