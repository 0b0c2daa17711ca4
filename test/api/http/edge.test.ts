import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aProduct, aSession } from '../../fixtures/builders';
import { expectError, expectRefusedUnchanged } from '../../fixtures/refusals';
import { createServer, LOOPBACK_NAMES, redactUrl } from '../../../main/api/server';

/** The HTTP edge as an attacker or a careless client meets it: keys, origins, bodies, bytes. */
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(() => t.close());

/** Writes raw bytes to the server and answers what comes back until it closes (or `waitMs` passes). */
function rawExchange(bytes: Buffer | string, waitMs = 5000): Promise<{ text: string; status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const json = text.slice(text.indexOf('\r\n\r\n') + 4);
      let body: unknown = null;
      try {
        body = JSON.parse(json);
      } catch {
        /* not JSON */
      }
      resolve({ text, status, body });
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      // One answer is enough: stop once its body (by Content-Length) is complete.
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      const head = text.indexOf('\r\n\r\n');
      if (length !== undefined && head !== -1 && Buffer.byteLength(text.slice(head + 4), 'latin1') >= Number(length)) done();
    });
    socket.on('end', done);
    socket.on('error', (error) => (text ? done() : reject(error)));
    socket.write(bytes);
  });
}

describe('wrong keys', () => {
  it('never lock out the holder of a right key: 30 wrong keys get the guesser 429, the right key still passes', async () => {
    const other = await startTestApp();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 32; i++) statuses.push((await other.call('GET', '/v1/products', { key: `td_wrong_${i}` })).status);
      expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
      const refused = await other.call('GET', '/v1/products', { key: 'td_wrong_again' });
      expectError(refused, 429, 'TOO_MANY_ATTEMPTS');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Same address, right key: served, and the guesser stays refused.
      expect((await other.call('GET', '/v1/products')).status).toBe(200);
      expect((await other.call('GET', '/v1/products', { key: 'td_wrong_after' })).status).toBe(429);
    } finally {
      await other.close();
    }
  });
});

describe('cross-site requests', () => {
  it('refuses a POST from another site with 403 and the envelope, and creates nothing', async () => {
    await expectRefusedUnchanged(t, ['customers'], 403, () => t.call('POST', '/v1/customers', { body: { firstName: 'Eve' }, headers: { origin: 'https://evil.example' } }), 'FORBIDDEN');
  });

  it('refuses Sec-Fetch-Site: cross-site, also on a bodyless request with the key in the URL', async () => {
    const product = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product;
    const refused = await t.call('DELETE', `/v1/products/${product.productCode}?apiKey=${t.keys.supplier}`, { role: null, headers: { 'sec-fetch-site': 'cross-site' } });
    expectError(refused, 403, 'FORBIDDEN');
    expect((await t.call('GET', `/v1/products/${product.productCode}`)).status).toBe(200);
    expectError(await t.call('GET', `/v1/products?apiKey=${t.keys.supplier}`, { role: null, headers: { origin: 'null' } }), 403, 'FORBIDDEN');
    // Another local port is another origin.
    expectError(await t.call('GET', '/v1/products', { headers: { origin: 'http://127.0.0.1:3000', host: `127.0.0.1:${port}` } }), 403, 'FORBIDDEN');
  });

  it("serves the app's own pages (Origin = the Host it was served from) and callers without Origin", async () => {
    const own = await fetch(`http://127.0.0.1:${port}/v1/customers`, {
      method: 'POST',
      headers: { apiKey: t.keys.supplier, origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Own', lastName: 'Page' }),
    });
    expect(own.status).toBe(200);
    expect((await fetch(`http://localhost:${port}/v1/products`, { headers: { apiKey: t.keys.supplier, origin: `http://localhost:${port}` } })).status).toBe(200);
    expect((await t.call('GET', '/v1/products')).status).toBe(200);
  });

  it('accepts origins the server was told about', async () => {
    const app = await createServer({ engine: t.engine, allowedHosts: LOOPBACK_NAMES, allowedOrigins: ['app://tourdesk'] });
    try {
      const res = await app.inject({ method: 'GET', url: '/v1/products', headers: { host: '127.0.0.1', apikey: t.keys.supplier, origin: 'app://tourdesk' } });
      expect(res.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('uploads and slow bodies', () => {
  it('refuses a 14 MiB image with a wrong key before reading its body', async () => {
    const product = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product;
    // Headers announce 14 MiB but only 1 KiB follows: the answer must come without the rest.
    const head = `POST /v1/products/${product.productCode}/images?filename=a.jpg HTTP/1.1\r\nHost: 127.0.0.1\r\napiKey: td_wrong_key\r\nContent-Type: image/jpeg\r\nContent-Length: ${14 * 1024 * 1024}\r\n\r\n`;
    const res = await rawExchange(Buffer.concat([Buffer.from(head), Buffer.alloc(1024)]), 3000);
    expect(res.status).toBe(401);
    expect(res.body.requestStatus.error.errorCode).toBe('UNAUTHORIZED');
  });

  it('cuts off a request that never finishes arriving (headers or body) with 408 and the envelope', async () => {
    const slow = await createServer({ engine: t.engine, allowedHosts: LOOPBACK_NAMES, requestTimeoutMs: 300 });
    await slow.listen({ host: '127.0.0.1', port: 0 });
    const address = slow.server.address();
    const slowPort = typeof address === 'object' && address ? address.port : 0;
    const trickles = {
      body: `POST /v1/customers HTTP/1.1\r\nHost: 127.0.0.1\r\napiKey: ${t.keys.supplier}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"firstName":`,
      headers: `GET /v1/products HTTP/1.1\r\nHost: 127.0.0.1\r\napiKey: ${t.keys.supplier}\r\n`,
      'request line': 'GET /v1/pro',
      nothing: '',
    };
    try {
      for (const [what, partial] of Object.entries(trickles)) {
        const answer = await new Promise<string>((resolve) => {
          const socket = connect(slowPort, '127.0.0.1');
          let text = '';
          socket.on('data', (c) => (text += c.toString()));
          socket.on('close', () => resolve(text));
          if (partial) socket.write(partial);
          setTimeout(() => socket.destroy(), 4000);
        });
        expect(answer, what).toMatch(/^HTTP\/1\.1 408/);
        expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).requestStatus.error.errorCode, what).toBe('REQUEST_TIMEOUT');
      }
    } finally {
      await slow.close();
    }
  });
});

describe('secrets and echoes', () => {
  it('redacts the key however its name is percent-encoded', () => {
    expect(redactUrl('/v1/products?%61piKey=td_secret&limit=5')).toBe('/v1/products?%61piKey=[redacted]&limit=5');
    expect(redactUrl('/v1/products?api%4Bey=td_secret')).toBe('/v1/products?api%4Bey=[redacted]');
    expect(redactUrl('/v1/products?api_key=td_secret')).toBe('/v1/products?api_key=[redacted]');
    expect(redactUrl('/v1/products?limit=5')).toBe('/v1/products?limit=5');
  });

  it('accepts %61piKey= and logs it redacted', async () => {
    let log = '';
    const stream = new Writable({ write: (chunk, _enc, done) => ((log += chunk.toString()), done()) });
    const app = await createServer({ engine: t.engine, logger: { level: 'info', stream } });
    try {
      const res = await app.inject({ method: 'GET', url: `/v1/products?%61piKey=${t.keys.supplier}` });
      expect(res.statusCode).toBe(200);
      expect(log).toContain('[redacted]');
      expect(log).not.toContain(t.keys.supplier);
    } finally {
      await app.close();
    }
  });

  it('cuts an echoed 100 KB input short in the error message', async () => {
    const huge = 'x'.repeat(100_000);
    const res = await t.call('GET', `/v1/products/${huge.slice(0, 400)}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    const booking = await t.call('POST', '/v1/bookings', { body: { items: [{ productCode: huge, quantities: [{ value: 1 }] }] } });
    expect(booking.status).toBeGreaterThanOrEqual(400);
    expect(booking.body.requestStatus.error.errorMessage.length).toBeLessThan(1200);
    const notFound = await t.call('GET', `/v1/${huge.slice(0, 10_000)}`);
    expect(notFound.status).toBe(404);
    expect(notFound.body.requestStatus.error.errorMessage.length).toBeLessThan(200);
  });
});

describe('the API description', () => {
  it('/docs and /v1/openapi.json both answer without a key', async () => {
    expect((await t.call('GET', '/docs', { role: null })).status).toBe(200);
    const openapi = await t.call('GET', '/v1/openapi.json', { role: null });
    expect(openapi.status).toBe(200);
    expect(openapi.body.paths['/v1/openapi.json'].get.security).toEqual([]);
  });
});

describe('hostile URLs and bytes', () => {
  it('refuses a resourceOrder outside 0..2^31-1 with 400 and the envelope', async () => {
    const product = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product;
    const session = (await t.call('POST', '/v1/availability', { body: aSession(product.productCode) })).body.session;
    const resource = (await t.call('POST', '/v1/resources', { body: { name: 'Guide Ann' } })).body.resource;
    for (const order of ['99999999999999999999', '9007199254740993', '-1', '2147483648']) {
      await expectRefusedUnchanged(t, ['session_resources'], 400, () => t.call('PUT', `/v1/resources/${resource.id}/session/${session.id}?resourceOrder=${order}`));
    }
    expect((await t.call('PUT', `/v1/resources/${resource.id}/session/${session.id}?resourceOrder=2147483647`)).status).toBe(200);
  });

  it('refuses int32 fields outside int32', async () => {
    const product = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product;
    await expectRefusedUnchanged(t, ['sessions'], 400, () => t.call('POST', '/v1/availability', { body: aSession(product.productCode, { seats: 2 ** 31 }) }));
    const tooMany = await t.call('POST', '/v1/products', { body: aProduct({ quantityRequiredMax: 2 ** 31 } as never) });
    expect(expectError(tooMany, 400, 'VALIDATION_ERROR')).toMatch(/quantityRequiredMax/);
    expect(expectError(await t.call('POST', '/v1/products', { body: aProduct({ durationMinutes: 2 ** 31 } as never) }), 400, 'VALIDATION_ERROR')).toMatch(/durationMinutes/);
    expect(expectError(await t.call('POST', '/v1/resources', { body: { name: 'Bus', seats: 2 ** 31 } }), 400, 'VALIDATION_ERROR')).toMatch(/seats/);
    expect((await t.call('POST', '/v1/resources', { body: { name: 'Bus', seats: 2 ** 31 - 1 } })).status).toBe(200);
  });

  it('answers a URL over 16 KB with the envelope', async () => {
    const res = await rawExchange(`GET /v1/products?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.body.requestStatus.success).toBe(false);
  });

  it('answers bytes a request line may not hold (0xFF, 0xC0 0xAF, NUL) with the envelope', async () => {
    for (const bytes of [[0xff], [0xc0, 0xaf], [0x00]]) {
      const line = Buffer.concat([Buffer.from('GET /v1/products/'), Buffer.from(bytes), Buffer.from(' HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')]);
      const res = await rawExchange(line);
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      expect(res.body?.requestStatus?.success, res.text).toBe(false);
    }
  });
});

describe('text in JSON bodies', () => {
  it('refuses NUL, an unpaired surrogate and bytes that are not UTF-8, naming the field', async () => {
    for (const raw of ['{"firstName":"Ann\\u0000e","lastName":"Lee"}', '{"firstName":"Ann","lastName":"L\\ud800ee"}']) {
      const message = await expectRefusedUnchanged(t, ['customers'], 400, () => t.call('POST', '/v1/customers', { body: raw }));
      expect(message).toMatch(/firstName|lastName/);
    }
    const invalid = Buffer.concat([Buffer.from('{"firstName":"Ann","lastName":"L'), Buffer.from([0xc0, 0xaf]), Buffer.from('e"}')]);
    const before = t.snapshot('customers');
    const res = await t.app.inject({ method: 'POST', url: '/v1/customers', headers: { host: '127.0.0.1', apikey: t.keys.supplier, 'content-type': 'application/json' }, payload: invalid });
    expect(res.statusCode).toBe(400);
    expect(res.json().requestStatus.error.errorMessage).toMatch(/lastName/);
    expect(t.snapshot('customers')).toEqual(before);
  });

  it('stores text outside the BMP (a surrogate pair) as sent', async () => {
    const res = await t.call('POST', '/v1/customers', { body: '{"firstName":"\\ud83d\\ude00 Ann","lastName":"Lee"}' });
    expect(res.status).toBe(200);
    expect(res.body.customer.firstName).toBe('😀 Ann');
  });
});
