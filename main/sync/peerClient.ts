import { subscribe } from 'node:diagnostics_channel';
import type { PullRequest, SnapshotRequest } from '../contract/sync';
import type { PeerTransport } from './exchange';
import { SyncError } from './errors';
import type { CompactPullResponse, PullResponse, PushRequest, PushResponse, SnapshotResponse } from './wire';

/** Every request has a deadline, so an exchange that stalls fails visibly instead of hanging. */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface TransportOptions {
  timeoutMs?: number;
  /** Counts the bytes of every request body sent and answer received (the sync bench's bytes per op). */
  counter?: { sent: number; received: number };
}

/**
 * The last error a connection to each host:port met, and when. fetch puts a request back in its queue
 * when its connection fails before the request was written (a peer that resets every connection as it
 * accepts it, on a loaded machine), so the request ends at its deadline and the reset that caused it
 * would be lost; undici's diagnostics channels see each connection, so the deadline's reason can name it.
 */
const connectionTrouble = new Map<string, { code: string; at: number }>();
/** What undici's channels say of the connection's target (hostname, and port: '' for the URL's default). */
type ConnectParams = { hostname?: string; port?: string | number } | undefined;
let watchingConnections = false;

function watchConnections(): void {
  if (watchingConnections) return;
  watchingConnections = true;
  const note = (params: ConnectParams, error: NodeJS.ErrnoException) => {
    if (!params?.hostname) return;
    connectionTrouble.set(`${params.hostname}:${params.port ?? ''}`, { code: error.code ?? error.message, at: Date.now() });
  };
  subscribe('undici:client:connected', (message) => {
    const { connectParams, socket } = message as { connectParams?: ConnectParams; socket?: NodeJS.EventEmitter };
    socket?.on('error', (error: NodeJS.ErrnoException) => note(connectParams, error));
  });
  subscribe('undici:client:connectError', (message) => {
    const { connectParams, error } = message as { connectParams?: ConnectParams; error: NodeJS.ErrnoException };
    note(connectParams, error);
  });
}

/** host:port as undici's connect parameters name it (the URL's default port is '' there). */
function hostPortOf(base: string): string {
  const url = new URL(base);
  return `${url.hostname}:${url.port}`;
}

/** Why a request failed, in words a person can act on: fetch's own message is "fetch failed", its cause says why (ECONNREFUSED, ENOTFOUND, a certificate). */
function reasonOf(error: unknown, timeoutMs: number, trouble?: { code: string }): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') {
    const waited = `no answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`;
    return trouble ? `${waited}; its connections failed: ${trouble.code}` : waited;
  }
  const cause = error.cause;
  // https:// to a peer that serves plain HTTP: OpenSSL's words ("ssl3_get_record:wrong version number") say nothing to a person.
  if (cause instanceof Error && ((cause as NodeJS.ErrnoException).code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/.test(cause.message))) return 'it does not answer HTTPS at this address; try http://';
  // A host with several addresses fails with an AggregateError, whose message is empty but whose code is not.
  if (cause instanceof Error) return cause.message || (cause as NodeJS.ErrnoException).code || error.message;
  return error.message;
}

/** The exchange over the peer's /v1 API, with its key in the apiKey header. */
export function httpTransport(baseUrl: string, key: string, options: TransportOptions = {}): PeerTransport {
  const base = baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const hostPort = hostPortOf(base);
  watchConnections();
  /** The connection error met since `since`, if any (for a deadline's reason). */
  const troubleSince = (since: number) => {
    const trouble = connectionTrouble.get(hostPort);
    return trouble && trouble.at >= since ? trouble : undefined;
  };
  async function call<T>(path: string, body: unknown): Promise<T> {
    const text = JSON.stringify(body);
    let answer: { status: number; body: string };
    // The timeout signal's timer does not keep the process alive, and a peer that accepts the
    // connection and closes it at once leaves fetch waiting on nothing: the command line's process
    // would end mid-exchange, silently, with exit code 0. This holds it open until the request settles.
    const holdOpen = setInterval(() => {}, timeoutMs);
    const started = Date.now();
    try {
      // fetch, a global: the engine imports no HTTP module (the lint rule); node:http measured ~4% less CPU per op of a catch-up, within noise.
      const response = await fetch(`${base}${path}`, { method: 'POST', headers: { apikey: key, 'content-type': 'application/json' }, body: text, signal: AbortSignal.timeout(timeoutMs) });
      answer = { status: response.status, body: await response.text() };
    } catch (error) {
      throw new SyncError('PEER_UNREACHABLE', `${base} is not reachable (${reasonOf(error, timeoutMs, troubleSince(started))})`);
    } finally {
      clearInterval(holdOpen);
    }
    if (options.counter) {
      options.counter.sent += Buffer.byteLength(text);
      options.counter.received += Buffer.byteLength(answer.body);
    }
    let parsed: { requestStatus?: { error?: { errorMessage?: string } } } & T;
    try {
      parsed = JSON.parse(answer.body);
    } catch {
      throw new SyncError('PEER_UNREACHABLE', `${base} answered ${answer.status} with something that is not TourDesk JSON`);
    }
    if (answer.status < 200 || answer.status > 299) throw new SyncError('PEER_UNREACHABLE', `${base} refused: ${parsed.requestStatus?.error?.errorMessage ?? `HTTP ${answer.status}`}`);
    return parsed;
  }
  /** An image's original by hash: raw bytes, or the peer's refusal in words. */
  async function media(hash: string): Promise<Buffer> {
    const holdOpen = setInterval(() => {}, timeoutMs);
    const started = Date.now();
    try {
      const response = await fetch(`${base}/v1/sync/media/${encodeURIComponent(hash)}`, { headers: { apikey: key }, signal: AbortSignal.timeout(timeoutMs) });
      const bytes = Buffer.from(await response.arrayBuffer());
      if (options.counter) options.counter.received += bytes.length;
      if (response.ok) return bytes;
      let reason = `HTTP ${response.status}`;
      try {
        reason = (JSON.parse(bytes.toString('utf8')) as { requestStatus?: { error?: { errorMessage?: string } } }).requestStatus?.error?.errorMessage ?? reason;
      } catch {
        // not TourDesk JSON: the status says it
      }
      throw new SyncError('PEER_UNREACHABLE', `${base} refused the image: ${reason}`);
    } catch (error) {
      if (error instanceof SyncError) throw error;
      throw new SyncError('PEER_UNREACHABLE', `${base} is not reachable (${reasonOf(error, timeoutMs, troubleSince(started))})`);
    } finally {
      clearInterval(holdOpen);
    }
  }
  return {
    media,
    pull: (request: PullRequest) => call<PullResponse | CompactPullResponse>('/v1/sync/pull', request),
    push: (request: PushRequest) => call<PushResponse>('/v1/sync/push', request),
    snapshot: (request: SnapshotRequest) => call<SnapshotResponse>('/v1/sync/snapshot', request),
  };
}
