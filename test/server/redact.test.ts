import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../main/api/server';
import { startTestApp } from '../fixtures/app';
import { createServer } from '../../main/api/server';

describe('no secrets in logs', () => {
  it('redacts the apiKey query parameter in any case', () => {
    expect(redactUrl('/v1/products?apiKey=td_secret&limit=5')).toBe('/v1/products?apiKey=[redacted]&limit=5');
    expect(redactUrl('/v1/products?limit=5&APIKEY=td_secret')).toBe('/v1/products?limit=5&APIKEY=[redacted]');
    expect(redactUrl('/v1/products')).toBe('/v1/products');
  });

  it('logs a failing request without its key, from the query or the header', async () => {
    const t = await startTestApp();
    let log = '';
    const stream = new Writable({ write: (chunk, _enc, done) => ((log += chunk.toString()), done()) });
    const app = await createServer({ engine: t.engine, logger: { level: 'info', stream } });
    // A route that fails unexpectedly is logged at error level with its request.
    app.get('/v1/boom', async () => {
      throw new Error('boom');
    });
    try {
      await app.inject({ method: 'GET', url: `/v1/boom?apiKey=${t.keys.supplier}`, headers: { apikey: t.keys.checkin } });
      await app.inject({ method: 'GET', url: `/v1/products?apiKey=${t.keys.supplier}` });
      expect(log.length).toBeGreaterThan(0);
      for (const key of Object.values(t.keys)) expect(log).not.toContain(key);
    } finally {
      await app.close();
      await t.close();
    }
  });
});
