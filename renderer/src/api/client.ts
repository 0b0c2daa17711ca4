import { requestOf, type CallArgs, type Route, type Routes } from './routes';

/** The renderer's API client: plain fetch against /v1 with the key in the apiKey header. */
export interface ApiConfig {
  baseUrl: string;
  apiKey: string;
}

/** An API answer that was not a success; `status` 0 and code NETWORK when the engine could not be reached. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
  get offline(): boolean {
    return this.status === 0;
  }
}

const UNREACHABLE = 'Could not reach the TourDesk engine';

async function send(config: ApiConfig, method: string, path: string, body?: unknown, timeoutMs?: number): Promise<Response> {
  try {
    return await fetch(`${config.baseUrl}${path}`, {
      method,
      headers: { apiKey: config.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      // A scanner never waits long for the network: past the limit the engine counts as unreachable.
      signal: timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined,
    });
  } catch {
    throw new ApiError(0, 'NETWORK', UNREACHABLE);
  }
}

async function failure(response: Response): Promise<ApiError> {
  const json = await response.json().catch(() => null);
  const error = json?.requestStatus?.error;
  return new ApiError(response.status, error?.errorCode ?? 'HTTP', error?.errorMessage ?? `Request failed (${response.status})`);
}

/**
 * A JSON call to one of the routes the renderer knows (api/routes.ts names its answer); resolves with
 * the whole envelope (requestStatus included), throws ApiError otherwise.
 */
export async function api<R extends Route>(config: ApiConfig, route: R, ...[options]: CallArgs<R>): Promise<Routes[R] & { requestStatus: { success: boolean; warning?: string } }> {
  const { method, path } = requestOf(route, options);
  const response = await send(config, method, path, options?.body, options?.timeoutMs);
  const json = await response
    .clone()
    .json()
    .catch(() => null);
  if (!response.ok || !json?.requestStatus?.success) throw await failure(response);
  return json;
}

/** The routes that only read: the ones a retry may ask again without doing anything twice. */
export type ReadRoute = Extract<Route, `GET ${string}`>;

/** How a read is asked again: `tries` in all, the first wait `firstDelayMs`, each next one twice as long. */
export interface RetryPolicy {
  tries: number;
  firstDelayMs: number;
  /** The pause between tries (tests pass their own). */
  wait?: (ms: number) => Promise<void>;
}

/** Five tries over about 7.5 s: long enough for a busy engine or a dropped Wi-Fi to come back, short enough to then say so. */
export const READ_RETRY: RetryPolicy = { tries: 5, firstDelayMs: 500 };

/** A failure that may pass by itself: the engine unreachable (status 0) or failing (5xx). A refusal (4xx) says the same again. */
export const worthRetrying = (error: unknown): boolean => error instanceof ApiError && (error.status === 0 || error.status >= 500);

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `read` run until it succeeds, fails in a way no retry mends, or has had its tries; the last failure is thrown. */
export async function retrying<T>(read: () => Promise<T>, policy: RetryPolicy = READ_RETRY): Promise<T> {
  const wait = policy.wait ?? pause;
  for (let attempt = 1, delay = policy.firstDelayMs; ; attempt++, delay *= 2) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= policy.tries || !worthRetrying(error)) throw error;
      await wait(delay);
    }
  }
}

/**
 * A GET through `api` that asks again, with backoff (READ_RETRY), when the engine could not be reached
 * or answered 5xx; a 4xx is thrown at once. The screens' reads use it so that a busy moment does not
 * leave them showing an error (or nothing) until a reload.
 */
export function getWithRetry<R extends ReadRoute>(config: ApiConfig, route: R, ...args: CallArgs<R>): ReturnType<typeof api<R>> {
  return retrying(() => api(config, route, ...args));
}

/** A file answer (CSV, printable HTML, QR SVG) fetched with the key, as a blob URL the page can show or download. */
export async function apiBlobUrl(config: ApiConfig, path: string): Promise<string> {
  const response = await send(config, 'GET', path);
  if (!response.ok) throw await failure(response);
  return URL.createObjectURL(await response.blob());
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** crypto.randomUUID where the page is a secure context (localhost is); a v4 UUID from getRandomValues otherwise. */
export function newEventId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
