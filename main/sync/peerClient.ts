import type { CompactPullResponse, PeerTransport, PullRequest, PullResponse, PushRequest, PushResponse, SnapshotRequest, SnapshotResponse } from './exchange';

/** Every request has a deadline, so an exchange that stalls fails visibly instead of hanging. */
export const REQUEST_TIMEOUT_MS = 30_000;

export class PeerHttpError extends Error {}

/** The exchange over the peer's /v1 API, with its key in the apiKey header. */
export function httpTransport(baseUrl: string, key: string, timeoutMs = REQUEST_TIMEOUT_MS): PeerTransport {
  const base = baseUrl.replace(/\/+$/, '');
  async function post<T>(path: string, body: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, { method: 'POST', headers: { apikey: key, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new PeerHttpError(`${base} is not reachable (${error instanceof Error ? error.message : String(error)})`);
    }
    const text = await response.text();
    let parsed: { requestStatus?: { error?: { errorMessage?: string } } } & T;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new PeerHttpError(`${base} answered ${response.status} with something that is not TourDesk JSON`);
    }
    if (!response.ok) throw new PeerHttpError(`${base} refused: ${parsed.requestStatus?.error?.errorMessage ?? `HTTP ${response.status}`}`);
    return parsed;
  }
  return {
    pull: (request: PullRequest) => post<PullResponse | CompactPullResponse>('/v1/sync/pull', request),
    push: (request: PushRequest) => post<PushResponse>('/v1/sync/push', request),
    snapshot: (request: SnapshotRequest) => post<SnapshotResponse>('/v1/sync/snapshot', request),
  };
}
