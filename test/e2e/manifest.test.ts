import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../fixtures/app';
import { aBooking, aScannableProduct, aSession } from '../fixtures/builders';
import { serveWebUi } from '../fixtures/browser';

// The test clock starts 2030-01-01T00:00Z: 11:00 in Sydney, the company's timezone, so "today" is 2030-01-01.
let t: TestApp;
let web: Awaited<ReturnType<typeof serveWebUi>>;
let baseUrl: string;
let browser: Browser;
const shots = process.env.TOURDESK_SCREENSHOTS;
const problems: string[] = [];

/** A session with bookings made through the API; each inner list is one booking's people. */
async function aDeparture(name: string, startTimeLocal: string, people: string[][], seats = 40) {
  const product = await t.call('POST', '/v1/products', { body: aScannableProduct({ name }) });
  const productCode: string = product.body.product.productCode;
  const session = await t.call('POST', '/v1/availability', { body: aSession(productCode, { startTimeLocal, seats }) });
  const sessionId: number = session.body.session.id;
  const orders: string[] = [];
  for (const names of people) {
    const participants = names.map((value) => ({ fields: [{ label: 'Full Name', value }] }));
    const res = await t.call('POST', '/v1/bookings', { body: aBooking(productCode, session.body.session.startTime, [{ optionLabel: 'Adult', value: names.length }], { customer: { firstName: names[0].split(' ')[0], lastName: names[0].split(' ')[1] ?? 'X', email: 'x@example.test', phone: '+61 400 111 222' }, items: [{ productCode, startTimeLocal, quantities: [{ optionLabel: 'Adult', value: names.length }], participants }], payments: [{ type: 'CASH', amount: 50 * names.length }] }) });
    expect(res.status).toBe(200);
    orders.push(res.body.booking.orderNumber);
  }
  return { productCode, sessionId, orders };
}

async function signedIn(viewport = { width: 1280, height: 800 }, path = '/'): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.setDefaultTimeout(10_000);
  // The favicon's 404 is the shell's (another change adds one); it is the only console line without a page request.
  page.on('console', (m) => m.type() === 'error' && !(m.text().includes('Failed to load resource') && m.location().url.endsWith('/favicon.ico')) && problems.push(`console: ${m.text()} ${m.location().url}`));
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  // A request the page abandoned because the test navigated or closed it (ERR_ABORTED) is not a failure of the app;
  // every other network failure is.
  page.on('requestfailed', (r) => !/ERR_ABORTED/.test(r.failure()?.errorText ?? '') && problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
  await page.goto(baseUrl);
  await page.getByLabel('API key').fill(t.keys.supplier);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('heading', { name: /^Today · / }).waitFor();
  if (path !== '/') {
    await page.goto(`${baseUrl}${path}`);
  }
  return page;
}

const manifestOf = async (sessionId: number) => (await t.call('GET', `/v1/manifest?sessionId=${sessionId}`)).body.manifest;
const stateOf = (manifest: any, name: string) => [...manifest.bookings, ...manifest.cancelled].flatMap((b: any) => b.participants ?? []).find((p: any) => p.name === name)?.checkin.state;
const shot = (page: Page, name: string) => (shots ? page.screenshot({ path: `${shots}/${name}.png` }) : Promise.resolve());

let family: Awaited<ReturnType<typeof aDeparture>>;
let crowd: Awaited<ReturnType<typeof aDeparture>>;

beforeAll(async () => {
  t = await startTestApp();
  family = await aDeparture('Reef Snorkel', '2030-01-01 13:00:00', [['Mia Rossi', 'Leo Rossi', 'Ava Rossi', 'Noah Rossi', 'Zoe Rossi'], ['Ivy Chen'], ['Sam Gone', 'Kim Gone']]);
  const cancelled = await t.call('DELETE', `/v1/bookings/${family.orders[2]}`);
  expect(cancelled.status).toBe(200);
  // 1,000 participants: 100 bookings of 10, made through the API.
  crowd = await aDeparture('Big Ferry', '2030-01-01 17:00:00', Array.from({ length: 100 }, (_, b) => Array.from({ length: 10 }, (_, p) => `Rider ${b * 10 + p + 1}`)), 1000);
  web = await serveWebUi(t.engine);
  ({ baseUrl, browser } = web);
}, 240_000);
afterAll(async () => {
  await web?.close();
  await t?.close();
});

describe('the manifest: safe tapping', () => {
  it('never offers a plain check-in for a cancelled booking: admitting takes a second action naming the rule, and is recorded', async () => {
    const page = await signedIn(undefined, `/sessions/${family.sessionId}`);
    const booking = page.getByRole('article', { name: `Booking ${family.orders[2]}` });
    await booking.waitFor();
    expect(await booking.innerText()).toMatch(/Cancelled/);
    expect(await page.getByRole('listitem', { name: 'Sam Gone' }).innerText()).toMatch(/Booking cancelled/);
    expect(await page.getByRole('button', { name: 'Check in Sam Gone', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Admit Sam Gone anyway…' }).click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.innerText()).toMatch(new RegExp(`Not checked in: Sam Gone[\\s\\S]*Booking ${family.orders[2]} was cancelled`));
    await shot(page, 'desktop-override-dialog');
    await dialog.getByRole('button', { name: 'Do not admit' }).click();
    expect(stateOf(await manifestOf(family.sessionId), 'Sam Gone')).toBe('EXPECTED');
    await page.getByRole('button', { name: 'Admit Sam Gone anyway…' }).click();
    await dialog.getByRole('button', { name: 'Admit anyway (booking cancelled)' }).click();
    await expect.poll(async () => stateOf(await manifestOf(family.sessionId), 'Sam Gone')).toBe('CHECKED_IN');
    const manifest = await manifestOf(family.sessionId);
    const sam = manifest.cancelled[0].participants.find((p: any) => p.name === 'Sam Gone');
    expect(manifest.conflicts).toEqual([expect.objectContaining({ participantId: sam.id })]);
    // The conflict names the person and the booking.
    await expect.poll(() => page.getByRole('note').first().innerText()).toMatch(new RegExp(`Sam Gone · booking ${family.orders[2]}`));
    await page.close();
  });

  it('checks in part of a booking ("4 of 5"), then the rest with one action, with a 10-second undo toast', async () => {
    const page = await signedIn(undefined, `/sessions/${family.sessionId}`);
    const rossi = page.getByRole('article', { name: `Booking ${family.orders[0]}` });
    await rossi.getByRole('button', { name: 'Check in all 5' }).waitFor();
    for (const name of ['Mia Rossi', 'Leo Rossi', 'Ava Rossi', 'Noah Rossi']) await page.getByRole('checkbox', { name: `Pick ${name}` }).check();
    await rossi.getByRole('button', { name: 'Check in 4 of 5' }).click();
    const toast = page.getByRole('status', { name: 'Undo check-in' });
    expect(await toast.innerText()).toMatch(/4 of 5 checked in/);
    await expect.poll(async () => (await manifestOf(family.sessionId)).totals.checkedIn).toBe(4);
    await shot(page, 'desktop-manifest-toast');
    await toast.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await manifestOf(family.sessionId)).totals.checkedIn).toBe(0);
    await rossi.getByRole('button', { name: 'Check in all 5' }).click();
    await expect.poll(async () => (await manifestOf(family.sessionId)).totals.checkedIn).toBe(5);
    expect(await toast.innerText()).toMatch(/checked in/);
    await page.getByRole('button', { name: 'Undo check-in of Zoe Rossi' }).click();
    await expect.poll(async () => stateOf(await manifestOf(family.sessionId), 'Zoe Rossi')).toBe('EXPECTED');
    // The toast said all five were in, and its Undo named Zoe's check-in too: it goes with the row's undo.
    expect(await toast.count()).toBe(0);
    await rossi.getByRole('button', { name: 'Check in the other 1' }).waitFor();
    await page.close();
  });

  it('marks a no-show per row, closes and reopens; after closing a tap on a no-show row asks first and records the override', async () => {
    const page = await signedIn(undefined, `/sessions/${family.sessionId}`);
    await page.getByRole('button', { name: 'Mark Ivy Chen as no-show' }).click();
    await expect.poll(async () => stateOf(await manifestOf(family.sessionId), 'Ivy Chen')).toBe('NO_SHOW');
    await page.getByRole('button', { name: 'Undo no-show of Ivy Chen' }).click();
    await expect.poll(async () => stateOf(await manifestOf(family.sessionId), 'Ivy Chen')).toBe('EXPECTED');
    await page.getByRole('button', { name: 'Close check-in' }).click();
    await page.getByRole('dialog', { name: 'Close check-in?' }).getByRole('button', { name: 'Close check-in' }).click();
    await page.getByRole('button', { name: 'Reopen check-in' }).waitFor();
    await expect.poll(async () => (await manifestOf(family.sessionId)).session.checkinClosed).toBe(true);
    expect(await page.getByRole('listitem', { name: 'Ivy Chen' }).innerText()).toMatch(/No-show \(check-in closed\)/);
    expect(await page.getByRole('button', { name: 'Check in Ivy Chen', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Admit Ivy Chen anyway…' }).click();
    expect(await page.getByRole('alertdialog').innerText()).toMatch(/Check-in is closed/);
    await page.getByRole('button', { name: 'Admit anyway (check-in closed)' }).click();
    await expect.poll(async () => stateOf(await manifestOf(family.sessionId), 'Ivy Chen')).toBe('CHECKED_IN');
    const ivy = (await manifestOf(family.sessionId)).bookings.flatMap((b: any) => b.participants).find((p: any) => p.name === 'Ivy Chen');
    expect(ivy.history.at(-1).override).toMatchObject({ rules: ['CHECKIN_CLOSED'] });
    // A code scanned into the scan box while closed says so; once reopened, that answer is gone.
    const late = (await manifestOf(family.sessionId)).bookings.flatMap((b: any) => b.participants).find((p: any) => p.barcode && p.checkin.state !== 'CHECKED_IN');
    await page.getByLabel('Scan code').fill(late.barcode);
    await page.getByLabel('Scan code').press('Enter');
    const result = page.getByRole('status', { name: 'Scan result' });
    await expect.poll(() => result.innerText().catch(() => '')).toMatch(/^CHECK-IN CLOSED/);
    await page.getByRole('button', { name: 'Reopen check-in' }).click();
    await page.getByRole('button', { name: 'Close check-in' }).waitFor();
    await expect.poll(async () => (await manifestOf(family.sessionId)).session.checkinClosed).toBe(false);
    await expect.poll(() => result.count()).toBe(0);
    await page.close();
  });
});

describe('the manifest: a 1,000-participant departure', () => {
  it('keeps fewer than a few hundred rows in the DOM, scrolls to the last rider, and searches as you type', async () => {
    const page = await signedIn(undefined, `/sessions/${crowd.sessionId}`);
    const list = page.getByRole('list', { name: 'Passengers' });
    await list.getByRole('listitem', { name: 'Rider 1', exact: true }).waitFor();
    const rowsInDom = () => page.locator('.mf-row').count();
    expect(await rowsInDom()).toBeLessThan(100);
    expect(await page.evaluate(() => document.querySelectorAll('*').length)).toBeLessThan(3000);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await list.getByRole('listitem', { name: 'Rider 1000' }).waitFor();
    expect(await rowsInDom()).toBeLessThan(100);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByLabel('Find a booking').fill('Rider 537');
    await page.getByText('1 booking found').waitFor();
    await list.getByRole('listitem', { name: 'Rider 537' }).waitFor();
    await page.getByRole('button', { name: 'Check in Rider 537' }).click();
    await expect.poll(async () => (await manifestOf(crowd.sessionId)).totals.checkedIn).toBe(1);
    await shot(page, 'desktop-manifest-1000-search');
    await page.close();
  });

  it('refreshes by a cheap version check: no second manifest download after a tap or while idle', async () => {
    const page = await signedIn(undefined, `/sessions/${crowd.sessionId}`);
    const manifests: string[] = [];
    page.on('request', (r) => /\/v1\/manifest\?/.test(r.url()) && manifests.push(r.url()));
    await page.getByRole('listitem', { name: 'Rider 2', exact: true }).waitFor();
    await page.waitForTimeout(300);
    manifests.length = 0;
    await page.getByRole('button', { name: 'Check in Rider 2', exact: true }).click();
    await page.getByRole('button', { name: 'Undo check-in of Rider 2', exact: true }).waitFor();
    await page.waitForTimeout(6_000); // past one version poll
    expect(manifests).toEqual([]);
    // Another device's check-in: the version moves and the manifest is fetched once.
    const rider3 = (await manifestOf(crowd.sessionId)).bookings[0].participants[2].id;
    await t.call('POST', '/v1/manifest/events', { body: { events: [{ eventId: crypto.randomUUID(), kind: 'CHECK_IN', sessionId: crowd.sessionId, participantId: rider3, occurredAt: '2030-01-01T00:00:00Z' }] } });
    await page.getByRole('button', { name: 'Undo check-in of Rider 3', exact: true }).waitFor({ timeout: 10_000 });
    expect(manifests.length).toBe(1);
    await page.close();
  }, 30_000);
});

describe('the board', () => {
  it('shows the day in words, capacity, a state word per departure, and "next departure" only today', async () => {
    const page = await signedIn();
    const board = page.getByRole('list', { name: 'Departures' });
    await expect.poll(() => board.getByRole('listitem').count()).toBe(2);
    const texts = await board.getByRole('listitem').allInnerTexts();
    expect(texts[0]).toMatch(/1:00\spm[\s\S]*Reef Snorkel[\s\S]*(Open|Boarding)[\s\S]*40\s*capacity[\s\S]*6\s*booked/);
    expect(texts[1]).toMatch(/5:00\spm[\s\S]*Big Ferry[\s\S]*1000\s*capacity[\s\S]*1000\s*booked/);
    expect(await page.getByText('Next departure').count()).toBe(1);
    await shot(page, 'desktop-board');
    await page.getByRole('button', { name: 'Next day' }).click();
    await page.getByRole('heading', { name: /^Wednesday/ }).waitFor();
    expect(await page.getByText('Next departure').count()).toBe(0);
    await page.getByRole('button', { name: 'Today' }).click();
    await page.getByRole('heading', { name: /^Today · Tuesday/ }).waitFor();
    await page.close();
  });

  it('on a phone: the first passenger row is in view, and the board fits', async () => {
    const page = await signedIn({ width: 390, height: 844 });
    await page.getByRole('list', { name: 'Departures' }).getByRole('listitem').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await shot(page, 'phone-board');
    await page.getByRole('button', { name: /^1:00\spm Reef Snorkel$/ }).click();
    const first = page.getByRole('list', { name: 'Passengers' }).getByRole('listitem').first();
    await first.waitFor();
    const box = (await first.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await shot(page, 'phone-manifest');
    await page.evaluate(() => window.scrollTo(0, 400));
    await shot(page, 'phone-manifest-scrolled');
    await page.close();
  });

  it('raised no failed request and no console error on these screens', () => {
    expect(problems).toEqual([]);
  });
});
