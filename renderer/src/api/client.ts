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
