import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { httpTransport } from '../../main/sync/peerClient';
import type { PushRequest } from '../../main/sync/wire';

/** A peer that answers every request with `answer`, recording what it was sent. */
async function aPeer(answer: (req: IncomingMessage, body: string, res: ServerResponse) => void) {
  const seen: { url: string; apikey: string | undefined; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', apikey: req.headers.apikey as string | undefined, body });
      answer(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, seen, server };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const push = { origin: 'o', instanceNo: 2, schema: { min: 1, max: 1 }, ops: [] } as unknown as PushRequest;

describe('the peer transport (the exchange over HTTP)', () => {
  it('posts JSON with the key in the apikey header, parses the answer and counts the bytes both ways', async () => {
    const peer = await aPeer((_req, _body, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"applied":3,"note":"é"}'));
    const counter = { sent: 0, received: 0 };
    const answer = await httpTransport(peer.url, 'secret-key', { counter }).push(push);
    expect(answer).toEqual({ applied: 3, note: 'é' });
    expect(peer.seen).toEqual([{ url: '/v1/sync/push', apikey: 'secret-key', body: JSON.stringify(push) }]);
    expect(counter).toEqual({ sent: Buffer.byteLength(JSON.stringify(push)), received: Buffer.byteLength('{"applied":3,"note":"é"}') });
  });

  it('keeps its connection alive for a run of requests (not one connection per page)', async () => {
    const sockets = new Set<unknown>();
    const peer = await aPeer((req, _body, res) => {
      sockets.add(req.socket);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    const transport = httpTransport(peer.url, 'k');
    for (let i = 0; i < 10; i++) await transport.push(push);
    expect(peer.seen).toHaveLength(10);
    // fetch may open a second socket while the first is being released; never one per request.
    expect(sockets.size).toBeLessThanOrEqual(2);
  });

  it("says what the peer refused, in the peer's own words", async () => {
    const peer = await aPeer((_req, _body, res) =>
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ requestStatus: { success: false, error: { errorMessage: 'This key may not sync' } } })),
    );
    const failure = httpTransport(peer.url, 'k').push(push);
    await expect(failure).rejects.toMatchObject({ refusal: 'PEER_UNREACHABLE' });
    await expect(failure).rejects.toThrow(/refused: This key may not sync/);
  });

  it('refuses an answer that is not JSON, naming its status', async () => {
    const peer = await aPeer((_req, _body, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>'));
    await expect(httpTransport(peer.url, 'k').push(push)).rejects.toThrow(/answered 502 with something that is not TourDesk JSON/);
  });

  it('says a peer that is not listening is not reachable', async () => {
    const peer = await aPeer(() => {});
    const url = peer.url;
    servers.splice(servers.indexOf(peer.server), 1);
    await new Promise((resolve) => peer.server.close(resolve));
    await expect(httpTransport(url, 'k').push(push)).rejects.toThrow(/is not reachable \(.*ECONNREFUSED/);
  });

  it('names the error code when every address of the host refused (an AggregateError has no message)', async () => {
    const refused = Object.assign(new AggregateError([new Error('connect ECONNREFUSED ::1:7391'), new Error('connect ECONNREFUSED 127.0.0.1:7391')], ''), { code: 'ECONNREFUSED' });
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('fetch failed', { cause: refused })));
    try {
      await expect(httpTransport('http://localhost:7391', 'k').push(push)).rejects.toThrow('http://localhost:7391 is not reachable (ECONNREFUSED)');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('says https:// to a peer that serves plain HTTP in words, not in OpenSSL’s', async () => {
    const peer = await aPeer((_req, _body, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    const https = peer.url.replace('http://', 'https://');
    await expect(httpTransport(https, 'k').push(push)).rejects.toThrow(`${https.replace(/\/$/, '')} is not reachable (it does not answer HTTPS at this address; try http://)`);
  });

  it('gives up on a peer that does not answer within the deadline', async () => {
    let arrived!: () => void;
    const asked = new Promise<void>((resolve) => (arrived = resolve));
    const peer = await aPeer(() => arrived()); // has the request, never answers
    // The deadline is the request's timeout signal: it is made here, and passes when the test says so.
    const deadline = new AbortController();
    const deadlines = vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => deadline.signal);
    try {
      const failure = httpTransport(peer.url, 'k', { timeoutMs: 200 }).push(push);
      await asked;
      deadline.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
      await expect(failure).rejects.toThrow(/is not reachable \(no answer within 200 ms\)/);
      expect(deadlines.mock.calls).toEqual([[200]]);
    } finally {
      deadlines.mockRestore();
    }
  });

  it('names the connection error behind a deadline (fetch puts back a request whose connection was reset before it was written)', async () => {
    // A peer that resets every connection it accepts, as the fault proxy does.
    const resetting = createNetServer((socket) => socket.resetAndDestroy());
    await new Promise<void>((resolve) => resetting.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(resetting.address() as AddressInfo).port}`;
    const realFetch = globalThis.fetch;
    // What fetch does on a loaded machine: the reset reaches the connection, the request waits in
    // fetch's queue, and the deadline ends it; here the real connection meets the real reset first.
    vi.stubGlobal('fetch', async (input: string) => {
      await realFetch(input, { method: 'POST', body: '{}' }).catch(() => undefined);
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    });
    try {
      await expect(httpTransport(url, 'k', { timeoutMs: 200 }).push(push)).rejects.toThrow(`${url} is not reachable (no answer within 200 ms; its connections failed: ECONNRESET)`);
    } finally {
      vi.unstubAllGlobals();
      await new Promise((resolve) => resetting.close(resolve));
    }
  });

  it('fails, not hangs, when the peer cuts the answer short', async () => {
    const peer = await aPeer((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"ops":[');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    await expect(httpTransport(peer.url, 'k').push(push)).rejects.toMatchObject({ refusal: 'PEER_UNREACHABLE' });
  });
});
