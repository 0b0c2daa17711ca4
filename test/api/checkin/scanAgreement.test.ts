import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBookingRow } from '../../fixtures/bookingRows';
import { aProductWithSession } from '../../fixtures/manifest';
import { SCAN_CASES, type ScanCase } from '../../fixtures/scanCases';
import { SCAN_RULES } from '../../../main/domain/checkin/scanOutcome';
import { OVERRIDABLE_RULES } from '../../../main/contract/manifest';
import { buildIndex, decide, type Verdict } from '../../../renderer/src/scanner/verdict';
import { mergeCopy } from '../../../renderer/src/scanner/copies';
import type { ScanAnswer } from '../../../renderer/src/api/types';
import { formatsFor, type Formats } from '../../../main/domain/format';

/**
 * One table of scan cases (test/fixtures/scanCases.ts), each scanned by the engine on a real
 * database through the API and decided by the scanner device's offline verdict from the window copy
 * the engine serves it (GET /v1/checkin/device-copy): the two agree on every case.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const SESSION_START = '2030-01-02T23:00:00Z'; // 10:00 on 3 January in Sydney
const OTHER_SESSION_START = '2030-01-03T02:00:00Z'; // 13:00 the same day
const ANOTHER_DAY_START = '2030-01-05T02:00:00Z';
const SERVED_DAY = '2030-01-03';

/** The device's copy of 2 to 5 January, as it holds it after its first refresh. */
const copyOfWindow = async () => mergeCopy(null, (await t.call('GET', '/v1/checkin/device-copy?from=2030-01-02&to=2030-01-05', { role: 'checkin' })).body.deviceCopy, 0);
const post = (path: string, body: object) => t.call('POST', path, { body, role: 'checkin' });
/** The company's formats as the device holds them: from the instance's answer (GET /v1/system/instance), as renderer/src/lib/formats.ts keeps them. */
const deviceFormats = async (): Promise<Formats> => formatsFor((await t.call('GET', '/v1/system/instance', { role: 'checkin' })).body.instance.company);
/** The refusals whose sentence carries a time or a sum: the device words them exactly as the engine does. */
const WORDED_ALIKE = ['ALREADY_CHECKED_IN', 'BOOKING_CANCELLED', 'CODE_REVOKED', 'CHECKIN_CLOSED', 'NOT_YET_OPEN'];

/** Builds a case's world; answers the code to scan, what the device holds and serves, and the scan body the device would send. */
async function arrange(c: ScanCase) {
  t.clock.set('2030-01-02T22:30:00Z');
  const own = await aProductWithSession(t, { product: c.product, startTime: c.where === 'another day' ? ANOTHER_DAY_START : SESSION_START });
  const booking = aBookingRow(t.sql, { sessionId: own.sessionId, barcodes: 'PARTICIPANT', names: [{ first: 'Grace', last: 'Hopper' }, 'Alan'], ...c.booking });
  const grace = booking.participantCodes[0] ?? '';
  if (c.before?.graceIn) {
    t.clock.set('2030-01-02T22:10:00Z');
    expect((await post('/v1/manifest/scan', { code: grace, device: 'Bus 2' })).body.scan.checkedIn).toBe(true);
  }
  if (c.before?.closed) await post('/v1/manifest/events', { events: [{ eventId: randomUUID(), kind: 'CLOSE', sessionId: own.sessionId, occurredAt: '2030-01-02T22:20:00Z' }] });
  if (c.before?.reissued) expect((await t.call('POST', `/v1/bookings/${booking.orderNumber}/barcodes/reissue`, { body: { participantId: String(booking.participantIds[0]) } })).status).toBe(200);
  t.clock.set(c.at ?? '2030-01-02T22:30:00Z');

  const other = c.where === 'another session' || c.where === 'another day' ? await aProductWithSession(t, { startTime: OTHER_SESSION_START }) : null;
  const sessionFilter = c.where === 'another day' ? null : (other?.sessionId ?? own.sessionId);
  const code = { grace, 'grace in lower case': grace.toLowerCase(), order: booking.orderCode ?? '', unknown: 'NOBODY-HAS-THIS' }[c.code ?? 'grace'];
  const copy = await copyOfWindow();
  // As the device sends it: the served session, or the served day when it serves all of a day's.
  const body = { code, eventId: randomUUID(), device: 'Gate', ...(sessionFilter !== null ? { sessionId: sessionFilter } : { day: SERVED_DAY }), ...(c.override ? { override: true } : {}) };
  return { copy, sessionFilter, code, body };
}

/** The device agrees with the engine: the same result, admitting or not alike, and an override offered where the engine would take one. */
function expectAgreement(c: ScanCase, verdict: Verdict, answer: ScanAnswer) {
  if (c.override) {
    // The device shows the refusal first; its second action sends the override the engine records
    // first. A rule no scan's override passes (revoked, cancelled) is refused with no second action.
    if (c.engine.checkedIn) expect(verdict).toMatchObject({ admit: false, override: { rule: c.engine.overrides?.[0] } });
    else expect({ kind: verdict.kind, admit: verdict.admit, override: verdict.override }).toEqual({ kind: answer.result, admit: false, override: null });
    return;
  }
  // An order code's people are ticked on the device before they go in; the engine checks them all in.
  if (verdict.kind === 'GROUP') expect(answer).toMatchObject({ result: 'CHECKED_IN', checkedIn: true });
  else expect({ kind: verdict.kind, admit: verdict.admit }).toEqual({ kind: answer.result, admit: answer.checkedIn });
  const overridable = (OVERRIDABLE_RULES as readonly string[]).includes(answer.result);
  expect(verdict.override?.rule ?? null).toBe(answer.checkedIn || !overridable ? null : answer.result);
  if (!answer.checkedIn && WORDED_ALIKE.includes(answer.result)) expect(verdict.message).toBe(answer.message);
}

/** A case scanned by both, the device deciding with the company's formats as the engine serves them. */
async function scanBoth(c: ScanCase) {
  const { copy, sessionFilter, code, body } = await arrange(c);
  const now = Date.parse(c.at ?? '2030-01-02T22:30:00Z');
  const verdict = decide({ code, copy, index: buildIndex(copy), sessionFilter, ...('day' in body ? { day: body.day } : {}), now, formats: await deviceFormats() });
  const answer: ScanAnswer = (await post('/v1/manifest/scan', body)).body.scan;
  return { verdict, answer };
}

describe('the scan rules: the engine and the device agree', () => {
  it.each(SCAN_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { verdict, answer } = await scanBoth(c);
    expect(answer).toMatchObject({ result: c.engine.result, checkedIn: c.engine.checkedIn, ...(c.engine.overrides ? { overrides: c.engine.overrides } : {}) });
    expectAgreement(c, verdict, answer);
  });

  it('has a case for every rule: refusing, and passed by an override or only warning where the rule gives way', () => {
    const refused = new Set(SCAN_CASES.filter((c) => !c.engine.checkedIn).map((c) => c.engine.result));
    const passed = new Set(SCAN_CASES.flatMap((c) => (c.engine.checkedIn ? [...(c.engine.overrides ?? []), c.engine.result] : [])));
    for (const rule of SCAN_RULES) expect(refused, rule).toContain(rule);
    for (const rule of SCAN_RULES.filter((r) => r !== 'CODE_REVOKED' && r !== 'BOOKING_CANCELLED')) expect(passed, rule).toContain(rule);
    expect([...refused, ...passed]).toEqual(expect.arrayContaining(['CHECKED_IN', 'UNKNOWN_CODE']));
  });

  it('are in a module that imports nothing, so the renderer bundle takes it as it is', () => {
    const source = readFileSync(resolve(import.meta.dirname, '../../../main/domain/checkin/scanOutcome.ts'), 'utf8');
    expect(source).not.toMatch(/^\s*(import|export\s+\*|export\s+\{[^}]*\}\s+from)\b|\brequire\(|\bimport\(/m);
  });
});

/** Grace went in at 09:10 (Sydney); the session starts at 10:00, check-in opening 30 minutes before. */
const byName = (name: string) => SCAN_CASES.find((c) => c.name === name)!;
const ALREADY_IN = byName('someone already in is refused, saying when and by whom');
const CLOSED = byName('check-in closed refuses someone not in yet');
const EARLY = byName('a scan before check-in opens is refused');

describe('the engine and the device word times as the company locale reads them', () => {
  // The company's locale is set where `tourdesk company set` sets it (PUT /v1/company does not take it).
  const setLocale = async (locale: string) => t.engine.companies.configure({ ...(await t.engine.companies.supplier()), locale });
  afterAll(() => setLocale('en_AU'));

  it.each([
    ['en_US', '12-hour', { in: 'at 9:10 AM by', closed: 'at 10:00 AM', opens: 'opens at 9:30 AM' }],
    ['en_AU', '12-hour', { in: 'at 9:10 am by', closed: 'at 10:00 am', opens: 'opens at 9:30 am' }],
    ['en_GB', '24-hour', { in: 'at 09:10 by', closed: 'at 10:00', opens: 'opens at 09:30' }],
    ['de_DE', '24-hour', { in: 'at 09:10 by', closed: 'at 10:00', opens: 'opens at 09:30' }],
  ] as const)('%s reads %s', async (locale, _hours, words) => {
    await setLocale(locale);
    for (const [c, word] of [[ALREADY_IN, words.in], [CLOSED, words.closed], [EARLY, words.opens]] as const) {
      const { verdict, answer } = await scanBoth(c);
      expect(answer.message, c.name).toContain(word);
      // The 12-hour word (am/pm) is the only one; a 24-hour answer has none.
      expect(/\b(am|pm)\b/i.test(answer.message), c.name).toBe(_hours === '12-hour');
      expect(verdict.message, c.name).toBe(answer.message);
    }
  });
});
