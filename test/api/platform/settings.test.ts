import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** Every refusal answers the envelope with a code and a message a person can act on. */
function refused(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body.requestStatus).toMatchObject({ success: false, error: { errorCode: code } });
  expect(res.body.requestStatus.error.errorMessage).toEqual(expect.any(String));
}

describe('API keys from the settings screen', () => {
  it('creates a key, answers it once, lists it without the key, and revokes it', async () => {
    const created = await t.call('POST', '/v1/apiKeys', { body: { name: 'Front desk tablet', role: 'checkin' } });
    expect(created.status).toBe(200);
    const { apiKey, key } = created.body;
    expect(key).toMatch(/^td_/);
    // The listed prefix is a prefix of the key's hash, never of the key itself (issue 19).
    expect(apiKey).toMatchObject({ name: 'Front desk tablet', role: 'checkin', revoked: false, lastUsedAt: null, prefix: expect.stringMatching(/^sha256:[0-9a-f]{8}$/) });
    expect((await t.call('GET', '/v1/manifest/day', { key })).status).toBe(200);

    const list = await t.call('GET', '/v1/apiKeys');
    expect(list.status).toBe(200);
    const listed = list.body.apiKeys.find((k: any) => k.id === apiKey.id);
    expect(listed.lastUsedAt).toEqual(expect.any(String));
    expect(JSON.stringify(list.body)).not.toContain(key);

    const revoked = await t.call('DELETE', `/v1/apiKeys/${apiKey.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.apiKey.revoked).toBe(true);
    expect((await t.call('GET', '/v1/manifest/day', { key })).status).toBe(401);
    refused(await t.call('DELETE', `/v1/apiKeys/${apiKey.id}`), 409, 'CONFLICT');
  });

  it('makes agent keys with their own reseller', async () => {
    const created = await t.call('POST', '/v1/apiKeys', { body: { name: 'Harbour Hotel', role: 'agent' } });
    expect(created.body.apiKey).toMatchObject({ role: 'agent', resellerName: 'Harbour Hotel' });
  });

  it('refuses bad input with the envelope', async () => {
    refused(await t.call('POST', '/v1/apiKeys', { body: { name: '', role: 'checkin' } }), 400, 'VALIDATION_ERROR');
    refused(await t.call('POST', '/v1/apiKeys', { body: { name: 'x', role: 'root' } }), 400, 'VALIDATION_ERROR');
    refused(await t.call('POST', '/v1/apiKeys', { body: { role: 'checkin' } }), 400, 'VALIDATION_ERROR');
    refused(await t.call('POST', '/v1/apiKeys', { body: { name: 'x'.repeat(101), role: 'checkin' } }), 400, 'VALIDATION_ERROR');
    refused(await t.call('DELETE', '/v1/apiKeys/abc'), 400, 'VALIDATION_ERROR');
    refused(await t.call('DELETE', '/v1/apiKeys/999999999'), 404, 'NOT_FOUND');
  });

  it('refuses to revoke the key the request came with', async () => {
    const own = (await t.call('GET', '/v1/system/instance')).body.instance.key.id;
    refused(await t.call('DELETE', `/v1/apiKeys/${own}`), 409, 'CONFLICT');
  });

  it('is for supplier keys only', async () => {
    for (const role of ['agent', 'checkin'] as const) {
      refused(await t.call('GET', '/v1/apiKeys', { role }), 403, 'FORBIDDEN');
      refused(await t.call('POST', '/v1/apiKeys', { role, body: { name: 'x', role: 'supplier' } }), 403, 'FORBIDDEN');
      refused(await t.call('DELETE', '/v1/apiKeys/1', { role }), 403, 'FORBIDDEN');
    }
    refused(await t.call('GET', '/v1/apiKeys', { role: null }), 401, 'UNAUTHORIZED');
  });
});

describe('the company from the settings screen', () => {
  it('reads the company and changes only the fields sent', async () => {
    const before = (await t.call('GET', '/v1/company')).body.company;
    expect(before).toMatchObject({ companyName: 'Test Tours', timezone: 'Australia/Sydney', currency: 'AUD', email: 'desk@test.example' });
    const res = await t.call('PUT', '/v1/company', { body: { phone: '+61 2 5550 1234', companyName: 'Test Tours & Cruises' } });
    expect(res.status).toBe(200);
    expect(res.body.company).toMatchObject({ companyName: 'Test Tours & Cruises', phone: '+61 2 5550 1234', email: 'desk@test.example', timezone: 'Australia/Sydney', alias: before.alias });
    const cleared = await t.call('PUT', '/v1/company', { body: { phone: null } });
    expect(cleared.body.company.phone).toBeNull();
  });

  it('refuses a timezone or currency it does not know, and non-supplier keys', async () => {
    refused(await t.call('PUT', '/v1/company', { body: { timezone: 'Mars/Olympus' } }), 400, 'VALIDATION_ERROR');
    refused(await t.call('PUT', '/v1/company', { body: { currency: 'XXX' } }), 400, 'VALIDATION_ERROR');
    refused(await t.call('PUT', '/v1/company', { body: { companyName: '  ' } }), 400, 'VALIDATION_ERROR');
    refused(await t.call('PUT', '/v1/company', { role: 'checkin', body: { phone: '1' } }), 403, 'FORBIDDEN');
    expect((await t.call('GET', '/v1/company')).body.company.timezone).toBe('Australia/Sydney');
  });
});

describe('this instance', () => {
  it('names the instance and the key; the data folder only to supplier keys', async () => {
    const supplier = (await t.call('GET', '/v1/system/instance')).body.instance;
    expect(supplier).toMatchObject({ instanceNo: 1, key: { role: 'supplier', name: 'Test supplier' }, dataFolder: t.dir });
    const checkin = (await t.call('GET', '/v1/system/instance', { role: 'checkin' })).body.instance;
    expect(checkin).toMatchObject({ instanceNo: 1, key: { role: 'checkin' } });
    expect(checkin).not.toHaveProperty('dataFolder');
  });
});
