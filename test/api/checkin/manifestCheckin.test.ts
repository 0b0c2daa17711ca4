import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBookingRow } from '../../fixtures/bookingRows';
import { aProductWithSession, CHECKIN_TABLES } from '../../fixtures/manifest';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const LOCAL = '2030-01-03 10:00:00';
const sessionPath = (productCode: string, extra = '') => `/v1/manifest/checkinSession?productCode=${productCode}&startTimeLocal=${encodeURIComponent(LOCAL)}${extra}`;
const orderPath = (productCode: string, orderNumber: string) => `/v1/manifest/checkinOrderSession?orderNumber=${orderNumber}&productCode=${productCode}&startTimeLocal=${encodeURIComponent(LOCAL)}`;

async function setup() {
  const s = await aProductWithSession(t);
  const a = aBookingRow(t.sql, { sessionId: s.sessionId, quantities: [{ label: 'Adult', value: 2 }] });
  const b = aBookingRow(t.sql, { sessionId: s.sessionId, quantities: [{ label: 'Child', value: 1 }] });
  const gone = aBookingRow(t.sql, { sessionId: s.sessionId, status: 'CANCELLED' });
  return { ...s, a, b, gone };
}

const isCheckedIn = async (path: string, role: 'supplier' | 'checkin' = 'supplier') => {
  const res = await t.call('GET', path, { role });
  expect(res.status).toBe(200);
  return res.body.checkin.isCheckedIn as boolean;
};

describe('PUT/GET/DELETE /v1/manifest/checkinSession', () => {
  it('checks in every participant of live bookings, answers the envelope only, and GET says isCheckedIn', async () => {
    const s = await setup();
    expect(await isCheckedIn(sessionPath(s.productCode))).toBe(false);
    const put = await t.call('PUT', sessionPath(s.productCode));
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ requestStatus: { success: true, version: 'v1' } });
    expect(await isCheckedIn(sessionPath(s.productCode))).toBe(true);
    const events = t.sql.prepare("SELECT participant_id FROM checkin_events WHERE kind = 'CHECK_IN' AND session_id = ?").all(s.sessionId) as { participant_id: number }[];
    expect(events.map((e) => e.participant_id).sort()).toEqual([...s.a.participantIds, ...s.b.participantIds].sort());
  });

  it('accepts startTime as ISO, with the + of an offset decoded to a space, and a sessionless GET for a checkin key', async () => {
    const s = await setup();
    await t.call('PUT', `/v1/manifest/checkinSession?productCode=${s.productCode}&startTime=2030-01-03T10:00:00 11:00`, { role: 'checkin' });
    expect(await isCheckedIn(`/v1/manifest/checkinSession?productCode=${s.productCode}&startTime=2030-01-02T23:00:00Z`, 'checkin')).toBe(true);
  });

  it('is idempotent: a second PUT adds no events', async () => {
    const s = await setup();
    await t.call('PUT', sessionPath(s.productCode));
    const before = t.snapshot('checkin_events');
    await t.call('PUT', sessionPath(s.productCode));
    expect(t.snapshot('checkin_events')).toEqual(before);
  });

  it('undoes exactly the check-ins in force with DELETE, and checkin=false does the same', async () => {
    const s = await setup();
    await t.call('PUT', sessionPath(s.productCode));
    const del = await t.call('DELETE', sessionPath(s.productCode));
    expect(del.status).toBe(200);
    expect(await isCheckedIn(sessionPath(s.productCode))).toBe(false);
    const undos = t.sql.prepare("SELECT undoes_event_id FROM checkin_events WHERE kind = 'UNDO' AND session_id = ?").all(s.sessionId) as { undoes_event_id: string }[];
    const checkIns = t.sql.prepare("SELECT event_id FROM checkin_events WHERE kind = 'CHECK_IN' AND session_id = ?").all(s.sessionId) as { event_id: string }[];
    expect(undos.map((u) => u.undoes_event_id).sort()).toEqual(checkIns.map((c) => c.event_id).sort());
    await t.call('PUT', sessionPath(s.productCode));
    expect(await isCheckedIn(sessionPath(s.productCode))).toBe(true);
    await t.call('PUT', sessionPath(s.productCode, '&checkin=false'));
    expect(await isCheckedIn(sessionPath(s.productCode))).toBe(false);
  });

  it('answers isCheckedIn false for a session without participants', async () => {
    const s = await aProductWithSession(t);
    await t.call('PUT', sessionPath(s.productCode));
    expect(await isCheckedIn(sessionPath(s.productCode))).toBe(false);
  });

  it('refuses an unknown session with 404 and changes nothing', async () => {
    const s = await setup();
    const before = t.snapshot(...CHECKIN_TABLES);
    for (const method of ['PUT', 'GET', 'DELETE']) {
      const res = await t.call(method, `/v1/manifest/checkinSession?productCode=${s.productCode}&startTimeLocal=2030-01-03 11:00:00`);
      expect(res.status).toBe(404);
      expect(res.body.requestStatus.error.errorCode).toBe('NOT_FOUND');
      expect(res.body.requestStatus.error.errorMessage).toMatch(/no session starting at 2030-01-03 11:00:00/);
    }
    const unknownProduct = await t.call('PUT', `/v1/manifest/checkinSession?productCode=PNOPE00&startTimeLocal=${encodeURIComponent(LOCAL)}`);
    expect(unknownProduct.status).toBe(404);
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
  });

  it('refuses a request without productCode or start time, or with a bad time, with 400 and changes nothing', async () => {
    const s = await setup();
    const before = t.snapshot(...CHECKIN_TABLES);
    const noProduct = await t.call('PUT', `/v1/manifest/checkinSession?startTimeLocal=${encodeURIComponent(LOCAL)}`);
    expect(noProduct.status).toBe(400);
    expect(noProduct.body.requestStatus.error.errorMessage).toMatch(/productCode/);
    const noTime = await t.call('PUT', `/v1/manifest/checkinSession?productCode=${s.productCode}`);
    expect(noTime.status).toBe(400);
    expect(noTime.body.requestStatus.error.errorMessage).toMatch(/startTime/);
    const badTime = await t.call('PUT', `/v1/manifest/checkinSession?productCode=${s.productCode}&startTimeLocal=tomorrow`);
    expect(badTime.status).toBe(400);
    expect(badTime.body.requestStatus.error.errorCode).toBe('INVALID_TIME');
    const badFlag = await t.call('PUT', sessionPath(s.productCode, '&checkin=maybe'));
    expect(badFlag.status).toBe(400);
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
  });

  it('refuses agent keys with 403 and no key with 401, changing nothing', async () => {
    const s = await setup();
    const before = t.snapshot(...CHECKIN_TABLES);
    for (const method of ['PUT', 'GET', 'DELETE']) {
      const res = await t.call(method, sessionPath(s.productCode), { role: 'agent' });
      expect(res.status).toBe(403);
      expect(res.body.requestStatus.error.errorCode).toBe('FORBIDDEN');
    }
    expect((await t.call('PUT', sessionPath(s.productCode), { role: null })).status).toBe(401);
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
  });
});

describe('PUT/GET/DELETE /v1/manifest/checkinOrderSession', () => {
  it("checks in only that order's participants, and DELETE undoes them", async () => {
    const s = await setup();
    const put = await t.call('PUT', orderPath(s.productCode, s.a.orderNumber), { role: 'checkin' });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ requestStatus: { success: true, version: 'v1' } });
    expect(await isCheckedIn(orderPath(s.productCode, s.a.orderNumber))).toBe(true);
    expect(await isCheckedIn(orderPath(s.productCode, s.b.orderNumber))).toBe(false);
    expect(await isCheckedIn(sessionPath(s.productCode))).toBe(false);
    expect((await t.call('DELETE', orderPath(s.productCode, s.a.orderNumber))).status).toBe(200);
    expect(await isCheckedIn(orderPath(s.productCode, s.a.orderNumber))).toBe(false);
  });

  it('refuses an unknown order with errorCode 24 and changes nothing', async () => {
    const s = await setup();
    const before = t.snapshot(...CHECKIN_TABLES);
    for (const method of ['PUT', 'GET', 'DELETE']) {
      const res = await t.call(method, orderPath(s.productCode, 'T1-99999'));
      expect(res.status).toBe(404);
      expect(res.body.requestStatus.error).toEqual({ errorCode: '24', errorMessage: 'No order found with orderNumber T1-99999' });
    }
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
  });

  it('refuses an order without an item in that session with 404 and changes nothing', async () => {
    const s = await setup();
    const other = await aProductWithSession(t, { startTime: '2030-01-02T23:00:00Z' });
    const elsewhere = aBookingRow(t.sql, { sessionId: other.sessionId });
    const before = t.snapshot(...CHECKIN_TABLES);
    const res = await t.call('PUT', orderPath(s.productCode, elsewhere.orderNumber));
    expect(res.status).toBe(404);
    expect(res.body.requestStatus.error.errorMessage).toMatch(new RegExp(`Order ${elsewhere.orderNumber} has no item`));
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
  });

  it('refuses to check in or undo a cancelled booking with 409 and changes nothing', async () => {
    const s = await setup();
    const before = t.snapshot(...CHECKIN_TABLES);
    for (const method of ['PUT', 'DELETE']) {
      const res = await t.call(method, orderPath(s.productCode, s.gone.orderNumber));
      expect(res.status).toBe(409);
      expect(res.body.requestStatus.error.errorCode).toBe('INVALID_STATE');
      expect(res.body.requestStatus.error.errorMessage).toMatch(/cancelled/);
    }
    expect(await isCheckedIn(orderPath(s.productCode, s.gone.orderNumber))).toBe(false);
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
  });

  it('refuses a request without orderNumber with 400, and agent keys with 403', async () => {
    const s = await setup();
    const before = t.snapshot(...CHECKIN_TABLES);
    const res = await t.call('PUT', `/v1/manifest/checkinOrderSession?productCode=${s.productCode}&startTimeLocal=${encodeURIComponent(LOCAL)}`);
    expect(res.status).toBe(400);
    expect(res.body.requestStatus.error.errorMessage).toMatch(/orderNumber/);
    expect((await t.call('PUT', orderPath(s.productCode, s.a.orderNumber), { role: 'agent' })).status).toBe(403);
    expect((await t.call('GET', orderPath(s.productCode, s.a.orderNumber), { role: 'agent' })).status).toBe(403);
    expect(t.snapshot(...CHECKIN_TABLES)).toEqual(before);
  });
});
