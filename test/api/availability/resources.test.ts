import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../fixtures/refusals';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aProduct, aSession } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TABLES = ['resources', 'session_resources', 'op_log'];
const resource = async (body: Record<string, unknown> = {}) => {
  const res = await t.call('POST', '/v1/resources', { body: { name: 'Skipper Sam', resourceType: 'GUIDE', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resource;
};
/** A product with sessions at the given local starts (120 minutes each). */
const sessions = async (...starts: string[]) => {
  const p = (await t.call('POST', '/v1/products', { body: aProduct() })).body.product;
  const res = await t.call('POST', '/v1/availability/batch', { body: starts.map((s) => aSession(p.productCode, { startTimeLocal: s })) });
  expect(res.status).toBe(200);
  return res.body.sessions as any[];
};
const assign = (resourceId: number, sessionId: number, query = '') => t.call('PUT', `/v1/resources/${resourceId}/session/${sessionId}${query}`);
const expectRefused = expectError;

describe('resources (supplier-managed list, TourDesk extension writes)', () => {
  it('creates, lists, updates and deletes a resource', async () => {
    const r = await resource({ name: 'MV Bluewater', resourceType: 'BOAT', seats: '40' });
    expect(r).toEqual({ id: expect.any(Number), name: 'MV Bluewater', resourceType: 'BOAT', seats: 40 });
    expect((await t.call('GET', '/v1/resources')).body.resources).toContainEqual(r);
    const updated = await t.call('PUT', `/v1/resources/${r.id}`, { body: { seats: 38 } });
    expect(updated.body.resource).toEqual({ ...r, seats: 38 });
    expect((await t.call('DELETE', `/v1/resources/${r.id}`)).status).toBe(200);
    expect((await t.call('GET', '/v1/resources/')).body.resources.map((x: any) => x.id)).not.toContain(r.id);
    expectRefused(await t.call('PUT', `/v1/resources/${r.id}`, { body: { seats: 1 } }), 404, 'NOT_FOUND');
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['an empty name', { name: '' }],
    ['an unknown resourceType', { resourceType: 'SPACESHIP' }],
    ['negative seats', { seats: -1 }],
  ];
  it.each(invalid)('refuses %s with 400 and writes nothing', async (_name, body) => {
    const before = t.snapshot(...TABLES);
    expectRefused(await t.call('POST', '/v1/resources', { body: { name: 'Guide', ...body } }), 400, 'VALIDATION_ERROR');
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('refuses an invalid update (400) and answers 404 for an unknown resource, changing nothing', async () => {
    const r = await resource();
    const before = t.snapshot(...TABLES);
    expectRefused(await t.call('PUT', `/v1/resources/${r.id}`, { body: { resourceType: 'SPACESHIP' } }), 400, 'VALIDATION_ERROR');
    expectRefused(await t.call('PUT', `/v1/resources/${r.id}`, { body: { name: '  ' } }), 400, 'VALIDATION_ERROR');
    expectRefused(await t.call('PUT', '/v1/resources/424242', { body: { name: 'X' } }), 404, 'NOT_FOUND');
    expectRefused(await t.call('DELETE', '/v1/resources/424242'), 404, 'NOT_FOUND');
    expectRefused(await t.call('DELETE', '/v1/resources/abc'), 400, 'VALIDATION_ERROR');
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('answers 401 without a key', async () => {
    expectRefused(await t.call('GET', '/v1/resources', { role: null }), 401, 'UNAUTHORIZED');
  });

  it('lets agent and checkin keys list resources but not change them', async () => {
    const r = await resource();
    expect((await t.call('GET', '/v1/resources', { role: 'agent' })).status).toBe(200);
    expect((await t.call('GET', '/v1/resources', { role: 'checkin' })).status).toBe(200);
    const before = t.snapshot(...TABLES);
    for (const role of ['agent', 'checkin'] as const) {
      expectRefused(await t.call('POST', '/v1/resources', { role, body: { name: 'X' } }), 403, 'FORBIDDEN');
      expectRefused(await t.call('PUT', `/v1/resources/${r.id}`, { role, body: { name: 'X' } }), 403, 'FORBIDDEN');
      expectRefused(await t.call('DELETE', `/v1/resources/${r.id}`, { role }), 403, 'FORBIDDEN');
    }
    expect(t.snapshot(...TABLES)).toEqual(before);
  });
});

describe('session resources', () => {
  it('assigns resources to a session in resourceOrder and lists them by sessionId or by product + start', async () => {
    const [s] = await sessions('2030-02-01 09:00:00');
    const guide = await resource({ name: 'Guide Gail' });
    const boat = await resource({ name: 'MV Reef', resourceType: 'BOAT' });
    expect((await assign(guide.id, s.id, '?resourceOrder=2')).body.resources.map((r: any) => r.name)).toEqual(['Guide Gail']);
    const res = await assign(boat.id, s.id, '?resourceOrder=1');
    expect(res.status).toBe(200);
    expect(res.body.requestStatus.warning).toBeUndefined();
    expect(res.body.resources).toEqual([
      { ...boat, resourceOrder: 1 },
      { ...guide, resourceOrder: 2 },
    ]);
    for (const query of [`sessionId=${s.id}`, `productCode=${s.productCode}&startTime=${s.startTime}`, `productCode=${s.productCode}&startTimeLocal=2030-02-01%2009:00:00`]) {
      const found = await t.call('GET', `/v1/resources/session?${query}`, { role: 'checkin' });
      expect(found.status, query).toBe(200);
      expect(found.body.resources.map((r: any) => r.name), query).toEqual(['MV Reef', 'Guide Gail']);
    }
  });

  it('numbers a resource after the others when no resourceOrder is sent, and re-orders on a second PUT', async () => {
    const [s] = await sessions('2030-02-02 09:00:00');
    const a = await resource({ name: 'A' });
    const b = await resource({ name: 'B' });
    await assign(a.id, s.id);
    expect((await assign(b.id, s.id)).body.resources.map((r: any) => [r.name, r.resourceOrder])).toEqual([['A', 1], ['B', 2]]);
    expect((await assign(a.id, s.id, '?resourceOrder=5')).body.resources.map((r: any) => [r.name, r.resourceOrder])).toEqual([['B', 2], ['A', 5]]);
  });

  it('allows a resource on two overlapping sessions, with a warning naming the other session', async () => {
    const [first, overlapping, later] = await sessions('2030-02-03 09:00:00', '2030-02-03 10:30:00', '2030-02-03 11:00:00');
    const guide = await resource({ name: 'Guide Omar' });
    expect((await assign(guide.id, first.id)).body.requestStatus.warning).toBeUndefined();
    expect((await assign(guide.id, later.id)).body.requestStatus.warning).toBeUndefined(); // 11:00 starts when 09:00 ends
    const res = await assign(guide.id, overlapping.id);
    expect(res.status).toBe(200);
    expect(res.body.requestStatus.warning.warningMessage).toContain(`session ${first.id}`);
    expect(res.body.requestStatus.warning.warningMessage).toContain(`session ${later.id}`);
    expect(t.snapshot('session_resources')[0]).toContainEqual({ resource_id: guide.id, session_id: overlapping.id, resource_order: 1 });
  });

  it('removes a resource from a session; removing it again is a 404', async () => {
    const [s] = await sessions('2030-02-04 09:00:00');
    const r = await resource();
    await assign(r.id, s.id);
    const res = await t.call('DELETE', `/v1/resources/${r.id}/session/${s.id}`);
    expect(res.status).toBe(200);
    expect(res.body.resources).toEqual([]);
    expectRefused(await t.call('DELETE', `/v1/resources/${r.id}/session/${s.id}`), 404, 'NOT_FOUND');
  });

  it('answers 404 for an unknown resource or session, 400 for bad ids or resourceOrder, and changes nothing', async () => {
    const [s] = await sessions('2030-02-05 09:00:00');
    const r = await resource();
    const before = t.snapshot(...TABLES);
    expectRefused(await assign(424242, s.id), 404, 'NOT_FOUND');
    expectRefused(await assign(r.id, 424242), 404, 'NOT_FOUND');
    expectRefused(await t.call('PUT', `/v1/resources/abc/session/${s.id}`), 400, 'VALIDATION_ERROR');
    expectRefused(await assign(r.id, s.id, '?resourceOrder=first'), 400, 'VALIDATION_ERROR');
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('lets only supplier keys assign and remove', async () => {
    const [s] = await sessions('2030-02-06 09:00:00');
    const r = await resource();
    await assign(r.id, s.id);
    const before = t.snapshot(...TABLES);
    for (const role of ['agent', 'checkin'] as const) {
      expectRefused(await t.call('PUT', `/v1/resources/${r.id}/session/${s.id}`, { role }), 403, 'FORBIDDEN');
      expectRefused(await t.call('DELETE', `/v1/resources/${r.id}/session/${s.id}`, { role }), 403, 'FORBIDDEN');
    }
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('GET /v1/resources/session refuses a lookup without a session (400) and answers 404 for no such session', async () => {
    expectRefused(await t.call('GET', '/v1/resources/session'), 400, 'VALIDATION_ERROR');
    expectRefused(await t.call('GET', '/v1/resources/session?productCode=PNOPE00&startTime=2030-02-01T09:00:00Z'), 404, 'NOT_FOUND');
    expectRefused(await t.call('GET', '/v1/resources/session?sessionId=424242'), 404, 'NOT_FOUND');
    const [s] = await sessions('2030-02-07 09:00:00');
    expectRefused(await t.call('GET', `/v1/resources/session?productCode=${s.productCode}&startTimeLocal=2030-02-07%2010:00:00`), 404, 'NOT_FOUND');
    expect((await t.call('GET', `/v1/resources/session?sessionId=${s.id}`)).body.resources).toEqual([]);
  });

  it('GET /v1/resources/{id}/sessions lists its sessions by start within a time range (ISO or local)', async () => {
    const list = await sessions('2030-03-01 09:00:00', '2030-03-02 09:00:00', '2030-03-03 09:00:00');
    const r = await resource();
    for (const s of [...list].reverse()) await assign(r.id, s.id);
    const all = await t.call('GET', `/v1/resources/${r.id}/sessions`, { role: 'agent' });
    expect(all.body.sessions.map((s: any) => s.startTimeLocal)).toEqual(['2030-03-01 09:00:00', '2030-03-02 09:00:00', '2030-03-03 09:00:00']);
    expect(all.body.sessions[0]).toMatchObject({ seats: 20, seatsAvailable: 20, productCode: list[0].productCode });
    const iso = await t.call('GET', `/v1/resources/${r.id}/sessions?startTime=2030-03-01T21:00:00Z&endTime=2030-03-02`);
    expect(iso.body.sessions.map((s: any) => s.id)).toEqual([list[1].id]);
    const local = await t.call('GET', `/v1/resources/${r.id}/sessions/?startTimeLocal=2030-03-02%2009:00:00&endTimeLocal=2030-03-03`);
    expect(local.body.sessions.map((s: any) => s.id)).toEqual([list[1].id, list[2].id]);
    expectRefused(await t.call('GET', `/v1/resources/${r.id}/sessions?startTime=whenever`), 400, 'INVALID_TIME');
    expectRefused(await t.call('GET', '/v1/resources/424242/sessions'), 404, 'NOT_FOUND');
  });

  it('deleting a resource frees it from sessions that have not ended, keeping past assignments', async () => {
    t.clock.set('2030-02-10T00:00:00Z');
    const [past, future] = await sessions('2030-02-08 09:00:00', '2030-02-20 09:00:00');
    const r = await resource();
    await assign(r.id, past.id);
    await assign(r.id, future.id);
    expect((await t.call('DELETE', `/v1/resources/${r.id}`)).status).toBe(200);
    const rows = t.sql.prepare('SELECT session_id FROM session_resources WHERE resource_id = ?').all(r.id);
    expect(rows).toEqual([{ session_id: past.id }]);
    t.clock.set('2030-01-01T00:00:00Z');
  });

  it('a deleted session takes its resource assignments with it', async () => {
    const [s] = await sessions('2030-02-09 09:00:00');
    const r = await resource();
    await assign(r.id, s.id);
    expect((await t.call('DELETE', `/v1/availability/${s.id}`)).status).toBe(200);
    expect((await t.call('GET', `/v1/resources/${r.id}/sessions`)).body.sessions).toEqual([]);
  });
});
