import { describe, expect, it } from 'vitest';
import { requestOf } from '../../renderer/src/api/routes';

describe("the renderer's route table", () => {
  it('splits a route into its method and path', () => {
    expect(requestOf('GET /v1/company')).toEqual({ method: 'GET', path: '/v1/company' });
  });
  it('fills each placeholder with its value, URL-encoded', () => {
    expect(requestOf('PUT /v1/bookings/:orderNumber', { params: { orderNumber: 'A/1 b' } })).toEqual({ method: 'PUT', path: '/v1/bookings/A%2F1%20b' });
    expect(requestOf('POST /v1/sync/conflicts/:sessionId/acknowledge', { params: { sessionId: 7 } }).path).toBe('/v1/sync/conflicts/7/acknowledge');
  });
  it('appends the query, leaving out what is undefined and encoding the rest', () => {
    expect(requestOf('GET /v1/manifest/day', { query: { limit: 200, date: undefined } }).path).toBe('/v1/manifest/day?limit=200');
    expect(requestOf('DELETE /v1/sync/peers', { query: { url: 'http://hub:8080/?a=1&b' } }).path).toBe('/v1/sync/peers?url=http%3A%2F%2Fhub%3A8080%2F%3Fa%3D1%26b');
    expect(requestOf('GET /v1/bookings', { query: new URLSearchParams({ limit: '50', search: 'Ann' }) }).path).toBe('/v1/bookings?limit=50&search=Ann');
  });
});
