import { randomUUID } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../fixtures/app';
import { aBooking, aPickupList, aScannableProduct } from '../fixtures/builders';
import { serveWebUi } from '../fixtures/browser';
import { signedInPage } from '../fixtures/signedInPage';

/**
 * The manager's desk in Chromium: the board's day totals and seats, the week moving week by week,
 * the manifest by pickup stop and the driver's run sheet, the overrides by day, and backups from
 * Settings. The test clock starts 2030-01-01T00:00Z: 11:00 in Sydney, so "today" is 2030-01-01.
 */
let t: TestApp;
let web: Awaited<ReturnType<typeof serveWebUi>>;
let baseUrl: string;
let browser: Browser;
const SHOTS = process.env.TOURDESK_SCREENSHOTS ?? '/tmp/desk-shots';
let walk: number;
let sunset: number;

const FAMILY = { label: 'Family (2+2)', price: 240, seatsUsed: 4, priceGroupType: 'TOTAL' };

async function aDeparture(name: string, startTimeLocal: string, seats: number, extra: Record<string, unknown> = {}) {
  const productCode = (await t.call('POST', '/v1/products', { body: aScannableProduct({ name, priceOptions: [{ label: 'Adult', price: 50 }, FAMILY] as never, ...extra }) })).body.product.productCode as string;
  const session = (await t.call('POST', '/v1/availability', { body: { productCode, startTimeLocal, seats } })).body.session;
  return { productCode, session };
}

async function book(productCode: string, startTimeLocal: string, option: string, value: number, names: string[], extra: { pickup?: string; payments?: unknown[]; phone?: string } = {}) {
  const participants = names.map((n) => ({ fields: [{ label: 'Full Name', value: n }] }));
  const [firstName, lastName] = names[0].split(' ');
  const item = { productCode, startTimeLocal, quantities: [{ optionLabel: option, value }], participants, ...(extra.pickup ? { pickupLocation: { locationName: extra.pickup } } : {}) };
  const res = await t.call('POST', '/v1/bookings', { body: aBooking(productCode, undefined, [], { customer: { firstName, lastName, phone: extra.phone ?? '+61 400 000 000' }, items: [item], payments: extra.payments ?? [{ type: 'CASH', amount: 50 * value }] }) });
  expect(res.status, JSON.stringify(res.body.requestStatus)).toBe(200);
  return res.body.booking;
}

const participantOf = async (sessionId: number, order: string) => (await t.call('GET', `/v1/manifest?sessionId=${sessionId}`)).body.manifest.bookings.find((b: any) => b.orderNumber === order).participants[0];
const sendEvent = async (event: object) => (await t.call('POST', '/v1/manifest/events', { role: 'checkin', body: { events: [{ eventId: randomUUID(), device: 'Pier tablet', ...event }] } })).body.events[0];

beforeAll(async () => {
  t = await startTestApp();
  const pickupId = (await t.call('POST', '/v1/pickups', { body: aPickupList() })).body.pickupList.id;
  const rocks = await aDeparture('Rocks Walk', '2030-01-01 16:30:00', 20, { pickupId });
  walk = rocks.session.id;
  await book(rocks.productCode, '2030-01-01 16:30:00', 'Family (2+2)', 1, ['Rosa Family'], { pickup: 'Grand Hotel', payments: [{ type: 'CREDITCARD', amount: 240 }], phone: '+61 400 111 222' });
  await book(rocks.productCode, '2030-01-01 16:30:00', 'Adult', 2, ['Park One', 'Park Two'], { pickup: 'Park Lodge', phone: '+61 400 333 444' });
  await book(rocks.productCode, '2030-01-01 16:30:00', 'Adult', 1, ['Grant Solo'], { pickup: 'Grand Hotel', phone: '+61 400 555 666' });
  await book(rocks.productCode, '2030-01-01 16:30:00', 'Adult', 1, ['Walker Inn']);
  // Two sold the last seats while apart: capacity cut below what is booked, 2 over.
  const evening = await aDeparture('Sunset Walk', '2030-01-01 17:00:00', 6);
  sunset = evening.session.id;
  const sun = await book(evening.productCode, '2030-01-01 17:00:00', 'Adult', 3, ['Sun One', 'Sun Two', 'Sun Three']);
  await book(evening.productCode, '2030-01-01 17:00:00', 'Adult', 2, ['Dusk One', 'Dusk Two']);
  await t.call('PUT', `/v1/availability/${sunset}`, { body: { seats: 3 } });
  const tomorrow = await aDeparture('Harbour Cruise', '2030-01-02 09:00:00', 12);
  const cruise = await book(tomorrow.productCode, '2030-01-02 09:00:00', 'Adult', 1, ['Cora Cruise']);
  const later = await aDeparture('Island Day', '2030-01-09 08:00:00', 30);
  await book(later.productCode, '2030-01-09 08:00:00', 'Adult', 2, ['Isla One', 'Isla Two']);
  // Overrides: one of the sunset walkers admitted after its check-in closed, and the cruise's a day early, once its check-in was closed too.
  expect(await sendEvent({ kind: 'CLOSE', sessionId: sunset, occurredAt: '2030-01-01T00:30:00Z' })).toMatchObject({ result: 'RECORDED' });
  expect(await sendEvent({ kind: 'CHECK_IN', sessionId: sunset, participantId: (await participantOf(sunset, sun.orderNumber)).id, occurredAt: '2030-01-01T00:40:00Z', override: ['CHECKIN_CLOSED'] })).toMatchObject({ result: 'RECORDED' });
  const cora = (await participantOf(tomorrow.session.id, cruise.orderNumber)).id;
  expect(await sendEvent({ kind: 'CLOSE', sessionId: tomorrow.session.id, occurredAt: '2030-01-01T00:44:00Z' })).toMatchObject({ result: 'RECORDED' });
  expect(await sendEvent({ kind: 'CHECK_IN', sessionId: tomorrow.session.id, participantId: cora, occurredAt: '2030-01-01T00:45:00Z' })).toMatchObject({ result: 'REJECTED', rule: 'CHECKIN_CLOSED' });
  expect(await sendEvent({ kind: 'CHECK_IN', sessionId: tomorrow.session.id, participantId: cora, occurredAt: '2030-01-01T00:45:00Z', override: ['CHECKIN_CLOSED'] })).toMatchObject({ result: 'RECORDED' });
  mkdirSync(SHOTS, { recursive: true });
  web = await serveWebUi(t.engine);
  ({ baseUrl, browser } = web);
});
afterAll(async () => {
  await web?.close();
  await t?.close();
});

const signedIn = (viewport?: { width: number; height: number }) => signedInPage(browser, { key: t.keys.supplier, viewport });

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

describe('the board: seats and the day’s totals', () => {
  it('shows the totals the API answers for the day, seats as availability counts them and "2 over" when oversold', async () => {
    const { context, page, problems } = await signedIn();
    await page.goto(baseUrl);
    const totals = page.getByRole('region', { name: 'Day totals' });
    await totals.waitFor();
    const api = (await t.call('GET', '/v1/manifest/week?days=1')).body.week.days[0].totals;
    expect(api).toMatchObject({ seatsSold: 13, checkedIn: 1 });
    const text = await totals.innerText();
    expect(text).toMatch(new RegExp(`${api.seatsSold}\\s*seats sold[\\s\\S]*${api.checkedIn}\\s*checked in[\\s\\S]*${api.noShow}\\s*no-shows`));
    // The company (en-AU) writes AUD as $: each amount the API answers, in that style.
    for (const m of api.moneyTaken) expect([m.currency, text]).toEqual(['AUD', expect.stringContaining(`$${m.amount.toFixed(2)}`)]);
    expect(text).toMatch(/Cash \$600\.00 \(7\)[\s\S]*Card \$240\.00 \(1\)/);
    const board = (await t.call('GET', '/v1/manifest/day')).body.sessions;
    const row = (name: string) => page.getByRole('list', { name: 'Departures' }).getByRole('listitem').filter({ hasText: name });
    const walkSeats = board.find((s: any) => s.id === walk);
    expect(await row('Rocks Walk').innerText()).toMatch(new RegExp(`20\\s*capacity[\\s\\S]*${walkSeats.seatsBooked}\\s*booked[\\s\\S]*${walkSeats.seatsAvailable}\\s*left`));
    expect(walkSeats.seatsBooked).toBe(8);
    expect(await row('Sunset Walk').innerText()).toMatch(/3\s*capacity[\s\S]*5\s*booked[\s\S]*2\s*over/);
    await shot(page, 'week-board-totals');
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the week', () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    it(`shows seven days from the board's link and moves a week on and back (${viewport.width}px)`, async () => {
      const { context, page, problems } = await signedIn(viewport);
      await page.goto(baseUrl);
      await page.getByRole('link', { name: 'Week' }).click();
      const days = page.getByRole('list', { name: 'Days' });
      await expect.poll(() => days.getByRole('listitem').filter({ has: page.getByRole('heading') }).count()).toBe(7);
      expect(await page.title()).toBe('Week of 2030-01-01 · TourDesk');
      expect(await days.getByRole('list', { name: 'Departures on 2030-01-01' }).innerText()).toMatch(/4:30\spm\s*Rocks Walk\s*8\/20 seats · 12 left\s*0 in · 0 no-show[\s\S]*5:00\spm\s*Sunset Walk\s*5\/3 seats · 2 over\s*1 in/);
      expect(await page.getByLabel('Totals on 2030-01-02').innerText()).toMatch(/1\s*seats · 1\s*in · 0\s*no-shows/);
      await shot(page, `week-${viewport.width}`);
      await page.getByRole('button', { name: 'Next week' }).click();
      await expect.poll(() => page.url()).toBe(`${baseUrl}/week?from=2030-01-08`);
      await expect.poll(() => days.getByRole('list', { name: 'Departures on 2030-01-09' }).innerText().catch(() => '')).toMatch(/8:00\sam\s*Island Day\s*2\/30 seats/);
      expect(await page.getByLabel('Week totals').innerText()).toMatch(/2\s*seats sold[\s\S]*1\s*departure$/);
      await shot(page, `week-next-${viewport.width}`);
      await page.getByRole('button', { name: 'Previous week' }).click();
      await expect.poll(() => page.url()).toBe(`${baseUrl}/week?from=2030-01-01`);
      await days.getByRole('list', { name: 'Departures on 2030-01-01' }).waitFor();
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});

describe('pickups', () => {
  it('groups the manifest by stop in pickup order with seats per stop, and prints the run sheet', async () => {
    const { context, page, problems } = await signedIn();
    await page.goto(`${baseUrl}/sessions/${walk}`);
    const list = page.getByRole('list', { name: 'Passengers' });
    // The stop headings are set in capitals (PM), the same words as the run sheet's.
    await expect.poll(() => list.getByRole('heading').allInnerTexts()).toEqual([expect.stringMatching(/4:00\s(?:pm|PM) · Grand Hotel\s*5 seats · 2 bookings/), expect.stringMatching(/4:20\s(?:pm|PM) · Park Lodge\s*2 seats · 1 booking/), expect.stringMatching(/No pickup\s*1 seat · 1 booking/)]);
    expect(await page.getByRole('article', { name: /Booking/ }).first().innerText()).toMatch(/Pickup: Grand Hotel 4:00\spm/);
    await shot(page, 'pickup-manifest');
    await page.getByRole('link', { name: /Pickup run sheet/ }).click();
    await page.getByRole('heading', { name: 'Pickup run · Rocks Walk' }).waitFor();
    const stops = page.getByRole('region', { name: /^Stop / });
    await expect.poll(() => stops.count()).toBe(2);
    expect(await stops.nth(0).innerText()).toMatch(/4:00\spm · Grand Hotel · 5 seats · 2 bookings[\s\S]*1 George St · Wait at the front entrance\.\s*Main lobby[\s\S]*Rosa Family\s*4\s*\+61 400 111 222[\s\S]*Grant Solo\s*1\s*\+61 400 555 666/);
    expect(await stops.nth(1).innerText()).toMatch(/4:20\spm · Park Lodge[\s\S]*Park One, Park Two\s*2\s*\+61 400 333 444/);
    expect(await page.getByText(/2 stops · 7 seats to collect/).count()).toBe(1);
    expect(await page.title()).toMatch(/^Pickup run · Rocks Walk 4:30\spm · TourDesk$/);
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: 'Print run sheet' }).isVisible()).toBe(false);
    expect(await page.locator('header.top').isVisible()).toBe(false);
    await shot(page, 'pickup-runsheet-print');
    await page.emulateMedia({ media: 'screen' });
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'pickup-runsheet-390');
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('overrides', () => {
  it('lists who admitted whom under which rule from which device, day by day', async () => {
    const { context, page, problems } = await signedIn();
    await page.goto(baseUrl);
    await page.getByRole('link', { name: 'Overrides' }).click();
    const table = page.getByRole('table', { name: 'Overrides' });
    await expect.poll(() => table.getByRole('row').allInnerTexts().catch(() => [])).toEqual([expect.stringMatching(/When/), expect.stringMatching(/Tue,? 1 Jan 2030,? 11:40\sam\s*5:00\spm Sunset Walk\s*Sun One · \S+\s*check-in closed\s*Test checkin\s*Pier tablet/)]);
    await shot(page, 'overrides-today');
    await page.getByLabel('Day of the departures').fill('2030-01-02');
    await expect.poll(() => page.url()).toBe(`${baseUrl}/overrides?date=2030-01-02`);
    await expect.poll(() => table.getByRole('row').allInnerTexts().catch(() => [])).toEqual([expect.stringMatching(/When/), expect.stringMatching(/Tue,? 1 Jan 2030,? 11:45\sam\s*9:00\sam Harbour Cruise\s*Cora Cruise · \S+\s*check-in closed\s*Test checkin\s*Pier tablet/)]);
    await page.getByRole('button', { name: 'Next day' }).click();
    await page.getByText('No check-in was admitted under an override on these departures.').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('backups from Settings', () => {
  it('backs up now, lists the backup with its size, and downloads it', async () => {
    const { context, page, problems } = await signedIn();
    await page.goto(`${baseUrl}/settings`);
    const card = page.getByRole('region', { name: 'Backups and data folder' });
    await card.getByText('No backups yet.').waitFor();
    await card.getByRole('button', { name: 'Back up now' }).click();
    await card.getByText(/✓ Backed up: /).waitFor();
    const [listed] = (await t.call('GET', '/v1/system/backups')).body.backups;
    expect(await card.getByRole('status').innerText()).toContain(listed.name);
    const rows = card.getByRole('table', { name: 'Backups' }).getByRole('row');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(1).innerText()).toMatch(new RegExp(`${listed.name}[\\s\\S]*by hand[\\s\\S]*(KB|MB)`));
    await shot(page, 'backups-settings');
    const downloading = page.waitForEvent('download');
    await card.getByRole('button', { name: /Download the newest backup/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(listed.name);
    const saved = `${SHOTS}/${listed.name}`;
    await download.saveAs(saved);
    expect(statSync(saved).size).toBe(listed.bytes);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('on a hub on PostgreSQL, says how that hub is backed up instead of offering a backup it would refuse', async () => {
    // The hub's answer as GET /v1/system/backups gives it there (test/api/platform/systemBackups.test.ts holds the API side).
    const hub = { ...(await t.call('GET', '/v1/system/backups')).body, backups: [], backupAdvice: 'This hub keeps its data in PostgreSQL, which TourDesk does not copy: back it up with pg_dump' };
    const { context, page, problems } = await signedIn({ width: 390, height: 844 });
    await page.route('**/v1/system/backups', (route) => route.fulfill({ json: hub }));
    await page.goto(`${baseUrl}/settings`);
    const card = page.getByRole('region', { name: 'Backups and data folder' });
    await card.getByRole('note').getByText(/back it up with pg_dump/).waitFor();
    expect(await card.getByRole('button', { name: 'Back up now' }).count()).toBe(0);
    expect(await card.getByRole('table', { name: 'Backups' }).count()).toBe(0);
    await card.screenshot({ path: `${SHOTS}/backups-postgres-hub.png` });
    expect(problems).toEqual([]);
    await context.close();
  });
});
