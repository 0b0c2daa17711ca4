import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../fixtures/app';
import { aBooking, aPickupList, aScannableProduct, aSession } from '../fixtures/builders';
import type { ProductBody } from '../../main/contract/products';
import { serveWebUi } from '../fixtures/browser';

// The test clock starts 2030-01-01T00:00Z: 11:00 in Sydney, the company's timezone, so "today" is 2030-01-01.
let t: TestApp;
let web: Awaited<ReturnType<typeof serveWebUi>>;
let baseUrl: string;
let browser: Browser;
const shots = process.env.TOURDESK_SCREENSHOTS;

async function aSessionWithBookings(name: string, startTimeLocal: string, people: string[][], productOverrides: Partial<ProductBody> = {}) {
  const product = await t.call('POST', '/v1/products', { body: aScannableProduct({ name, ...productOverrides }) });
  const productCode: string = product.body.product.productCode;
  const session = await t.call('POST', '/v1/availability', { body: aSession(productCode, { startTimeLocal, seats: 30 }) });
  expect(session.body.requestStatus.error?.errorMessage ?? 'ok').toBe('ok');
  const sessionId: number = session.body.session.id;
  const orders = [];
  for (const names of people) {
    const participants = names.map((value) => ({ fields: [{ label: 'Full Name', value }] }));
    const res = await t.call('POST', '/v1/bookings', { body: aBooking(productCode, session.body.session.startTime, [{ optionLabel: 'Adult', value: names.length }], { items: [{ productCode, startTimeLocal, quantities: [{ optionLabel: 'Adult', value: names.length }], participants }], payments: [{ type: 'CASH', amount: 50 * names.length }] }) });
    expect(res.status).toBe(200);
    orders.push(res.body.booking);
  }
  return { productCode, sessionId, orders };
}

async function connected(viewport = { width: 1100, height: 900 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.goto(baseUrl);
  await page.getByLabel('API key').fill(t.keys.supplier);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('heading', { name: /^Today · / }).waitFor();
  return page;
}

async function openSession(page: Page, time: string, name: string) {
  // The company's locale writes the time ('2:00 pm' in en-AU, with whatever space ICU puts before pm).
  const label = new RegExp(`${time.replace(' ', '\\s')} ${name}`);
  await page.getByRole('button', { name: label }).click();
  await page.getByRole('heading', { name: label }).waitFor();
}

const manifestOf = async (sessionId: number) => (await t.call('GET', `/v1/manifest?sessionId=${sessionId}`)).body.manifest;
const screenshot = (page: Page, name: string) => (shots ? page.screenshot({ path: `${shots}/${name}.png`, fullPage: true }) : Promise.resolve());

let cruise: Awaited<ReturnType<typeof aSessionWithBookings>>;
let walk: Awaited<ReturnType<typeof aSessionWithBookings>>;
let kayak: Awaited<ReturnType<typeof aSessionWithBookings>>;

beforeAll(async () => {
  t = await startTestApp();
  cruise = await aSessionWithBookings('Harbour Cruise', '2030-01-01 14:00:00', [['Grace Hopper', 'Alan Turing'], ['Ada Lovelace']]);
  const pickups = await t.call('POST', '/v1/pickups', { body: aPickupList() });
  walk = await aSessionWithBookings('Rocks Walk', '2030-01-01 16:30:00', [['Edsger Dijkstra', 'Barbara Liskov', 'Donald Knuth']], { pickupId: pickups.body.pickupList.id });
  kayak = await aSessionWithBookings('Kayak Tour', '2030-01-01 18:00:00', [['Margaret Hamilton'], ['Katherine Johnson']]);
  await aSessionWithBookings('Tomorrow Tour', '2030-01-02 09:00:00', [['Linus Torvalds']]);
  web = await serveWebUi(t.engine);
  ({ baseUrl, browser } = web);
});
afterAll(async () => {
  await web?.close();
  await t?.close();
});

describe('the departure desk in Chromium', () => {
  it("shows today's sessions on the board with their counts, and moves between days", async () => {
    await t.call('POST', '/v1/manifest/scan', { body: { code: walk.orders[0].items[0].participants[0].barcode, sessionId: walk.sessionId } });
    const page = await connected();
    const board = page.getByRole('list', { name: 'Departures' });
    await expect.poll(() => board.getByRole('listitem').count()).toBe(3);
    expect(await board.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/2:00\spm[\s\S]*Harbour Cruise[\s\S]*30\s*capacity[\s\S]*3\s*booked[\s\S]*0\s*checked in/), expect.stringMatching(/4:30\spm[\s\S]*Rocks Walk[\s\S]*3\s*booked[\s\S]*1\s*checked in[\s\S]*0\s*no-show[\s\S]*2\s*remaining[\s\S]*\d+\s*pickups/), expect.stringMatching(/6:00\spm[\s\S]*Kayak Tour/)]);
    await screenshot(page, 'board');
    expect(await page.title()).toBe('Board · 2030-01-01 · TourDesk');
    await page.getByRole('button', { name: 'Next day' }).click();
    await page.getByRole('heading', { name: /Wednesday.*(January 2, 2030|2 January 2030)/ }).waitFor();
    await expect.poll(() => page.title()).toBe('Board · 2030-01-02 · TourDesk');
    await expect.poll(() => board.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/9:00\sam[\s\S]*Tomorrow Tour/)]);
    await page.close();
  });

  it('opens a session, checks a participant in and undoes it', async () => {
    const page = await connected();
    await openSession(page, '2:00 pm', 'Harbour Cruise');
    expect(await page.title()).toMatch(/^Harbour Cruise 2:00\spm · TourDesk$/);
    await page.getByRole('button', { name: 'Check in Grace Hopper' }).click();
    await page.getByRole('button', { name: 'Undo check-in of Grace Hopper' }).waitFor();
    await expect.poll(async () => (await manifestOf(cruise.sessionId)).totals.checkedIn).toBe(1);
    await expect.poll(() => page.getByLabel('Session totals').innerText()).toMatch(/1\s*checked in/);
    await screenshot(page, 'session');
    await page.getByRole('button', { name: 'Undo check-in of Grace Hopper' }).click();
    await page.getByRole('button', { name: 'Check in Grace Hopper' }).waitFor();
    await expect.poll(async () => (await manifestOf(cruise.sessionId)).totals.checkedIn).toBe(0);
    await page.close();
  });

  it('scans a participant code: CHECKED_IN in green, then ALREADY_CHECKED_IN in amber', async () => {
    const page = await connected();
    await openSession(page, '6:00 pm', 'Kayak Tour');
    const code: string = kayak.orders[1].items[0].participants[0].barcode;
    await page.getByLabel('Scan code').fill(code);
    await page.keyboard.press('Enter');
    const answer = page.getByRole('status', { name: 'Scan result' });
    await expect.poll(() => answer.getAttribute('data-result')).toBe('CHECKED_IN');
    expect(await answer.innerText()).toMatch(/Checked in at/);
    expect(await answer.getAttribute('class')).toMatch(/green/);
    await screenshot(page, 'scan-checked-in');
    // A scanner typing while the focus is elsewhere (after a button was clicked) still lands, whole, in the scan box.
    await page.getByRole('button', { name: 'CSV / Print' }).focus();
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await expect.poll(() => answer.getAttribute('data-result')).toBe('ALREADY_CHECKED_IN');
    expect(await answer.getAttribute('class')).toMatch(/amber/);
    expect(await answer.innerText()).toMatch(/Already checked in/);
    await page.getByLabel('Scan code').fill('NOSUCHCODE');
    await page.keyboard.press('Enter');
    await expect.poll(() => answer.getAttribute('data-result')).toBe('UNKNOWN_CODE');
    expect(await answer.getAttribute('class')).toMatch(/red/);
    await screenshot(page, 'scan-refused');
    await page.getByLabel('Find a booking').fill('Johnson');
    await page.getByText('1 booking found').waitFor();
    await screenshot(page, 'search');
    // Check-ins from the results go through the same events, and the results show the new state once sent.
    const results = page.getByRole('list', { name: 'Passengers' });
    await results.getByRole('button', { name: 'Undo check-in of Katherine Johnson' }).click();
    await results.getByRole('button', { name: 'Check in Katherine Johnson' }).waitFor();
    await expect.poll(async () => (await manifestOf(kayak.sessionId)).totals.checkedIn).toBe(0);
    await results.getByRole('button', { name: 'Check in Katherine Johnson' }).click();
    await expect.poll(async () => (await manifestOf(kayak.sessionId)).totals.checkedIn).toBe(1);
    await results.getByRole('button', { name: 'Undo check-in of Katherine Johnson' }).waitFor();
    await expect.poll(() => results.getByText(/Checked in \d{1,2}:\d\d\s[ap]m/).count()).toBe(1);
    await page.close();
  });

  it('books a walk-up: live price, booking made, QR codes shown, and it appears on the manifest', async () => {
    const page = await connected();
    await openSession(page, '4:30 pm', 'Rocks Walk');
    await page.getByRole('button', { name: 'Walk-up booking' }).click();
    await page.getByLabel('Adult ($50.00)').fill('40');
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/seat/i);
    await page.getByLabel('Adult ($50.00)').fill('2');
    await page.getByLabel('Child ($25.00)').fill('1');
    await expect.poll(() => page.getByRole('status', { name: 'Price' }).innerText()).toBe('Total $125.00');
    await page.getByLabel('First name').fill('Hedy');
    await page.getByLabel('Last name').fill('Lamarr');
    await page.getByLabel('Phone').fill('+61 411 222 333');
    await page.getByLabel('Participant 1 name').fill('Hedy Lamarr');
    await page.getByLabel('Participant 2 name').fill('George Antheil');
    await page.getByLabel('Participant 3 name').fill('Anthony Loder');
    await page.getByLabel('Pickup').selectOption('Harbour View Inn');
    await page.getByLabel('Payment type').selectOption('CASH');
    await screenshot(page, 'walkup-form');
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    const title = page.getByRole('heading', { name: /Booked: order/ });
    await title.waitFor();
    const orderNumber = (await title.innerText()).replace('Booked: order ', '');
    await expect.poll(() => page.locator('img[alt^="QR code for"]').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length)).toBe(3);
    expect(await page.getByRole('img', { name: 'QR code for George Antheil' }).count()).toBe(1);
    await screenshot(page, 'walkup-booked');
    const manifest = await manifestOf(walk.sessionId);
    const booking = manifest.bookings.find((b: any) => b.orderNumber === orderNumber);
    expect(booking).toMatchObject({ customer: { name: 'Hedy Lamarr' }, payment: { totalAmount: 125, paid: true }, pickup: { locationName: 'Harbour View Inn' } });
    await page.getByRole('button', { name: 'Back to the manifest' }).click();
    await page.getByRole('button', { name: 'Check in George Antheil' }).waitFor();
    expect(await page.getByRole('article', { name: `Booking ${orderNumber}` }).innerText()).toMatch(/Pickup: Harbour View Inn 4:10\spm/);
    await page.close();
  });

  it('closes check-in after confirmation: everyone not checked in counts as a no-show', async () => {
    const page = await connected();
    await openSession(page, '6:00 pm', 'Kayak Tour');
    await expect.poll(() => page.getByLabel('Session totals').innerText()).toMatch(/1\s*checked in/);
    expect(await page.title()).toMatch(/^Kayak Tour 6:00\spm · TourDesk$/);
    // The app asks in its own modal dialog, with focus inside it and back on the button after.
    const closeButton = page.getByRole('button', { name: 'Close check-in' });
    const dialog = page.getByRole('dialog', { name: 'Close check-in?' });
    await closeButton.click();
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await dialog.innerText()).toMatch(/Close check-in for the 6:00\spm departure\? The 1 person not checked in will count as no-shows\./);
    expect(await dialog.getByRole('button', { name: 'Keep it open' }).evaluate((b) => b === document.activeElement)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
    if (shots) await page.screenshot({ path: `${shots}/close-checkin-dialog.png` });
    await dialog.getByRole('button', { name: 'Keep it open' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await closeButton.evaluate((b) => b === document.activeElement)).toBe(true);
    // Escape cancels too.
    await closeButton.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await manifestOf(kayak.sessionId)).session.checkinClosed).toBe(false);
    await closeButton.click();
    await dialog.getByRole('button', { name: 'Close check-in' }).click();
    await page.getByRole('button', { name: 'Reopen check-in' }).waitFor();
    await expect.poll(() => page.getByLabel('Session totals').innerText()).toMatch(/1\s*checked in[\s\S]*1\s*no-show[\s\S]*0\s*remaining/);
    // The screen answers at once; the close reaches the engine through the outbox right after.
    await expect.poll(async () => (await manifestOf(kayak.sessionId)).totals).toEqual({ booked: 2, checkedIn: 1, noShow: 1, remaining: 0 });
    await screenshot(page, 'session-closed');
    await page.getByRole('button', { name: 'CSV / Print' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^manifest-.*\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv).toMatch(/Margaret Hamilton/);
    expect(csv).toMatch(/Katherine Johnson/);
    await page.close();
  });

  it("fits a guide's phone: no sideways scrolling on the board, the manifest or the walk-up form", async () => {
    const page = await connected({ width: 390, height: 844 });
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await page.getByRole('list', { name: 'Departures' }).getByRole('listitem').first().waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'phone-board');
    await openSession(page, '4:30 pm', 'Rocks Walk');
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'phone-session');
    await page.getByRole('button', { name: 'Walk-up booking' }).click();
    await page.getByLabel('Adult ($50.00)').waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.close();
  });

  it('keeps check-ins made while the engine is unreachable, across a reload, and sends them when it is back', async () => {
    const page = await connected();
    await openSession(page, '2:00 pm', 'Harbour Cruise');
    await page.route('**/v1/manifest/events', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Check in Alan Turing' }).click();
    await page.getByRole('button', { name: 'Check in Ada Lovelace' }).click();
    const indicator = page.getByRole('status', { name: 'Offline queue' });
    await expect.poll(() => indicator.innerText()).toMatch(/2 waiting to send/);
    await page.getByText('Checked in (waiting to send)').first().waitFor();
    await expect.poll(() => page.getByLabel('Session totals').innerText()).toMatch(/2\s*checked in[\s\S]*1\s*remaining/);
    await page.getByText('Includes 2 waiting to send').waitFor();
    await screenshot(page, 'offline-queue');
    await page.reload();
    await expect.poll(() => indicator.innerText()).toMatch(/2 waiting to send/);
    expect((await manifestOf(cruise.sessionId)).totals.checkedIn).toBe(0);
    await page.unroute('**/v1/manifest/events');
    await expect.poll(() => indicator.count(), { timeout: 15_000 }).toBe(0);
    const manifest = await manifestOf(cruise.sessionId);
    expect(manifest.totals.checkedIn).toBe(2);
    const names = manifest.bookings.flatMap((b: any) => b.participants).filter((p: any) => p.checkin.state === 'CHECKED_IN').map((p: any) => p.name);
    expect(names.sort()).toEqual(['Ada Lovelace', 'Alan Turing']);
    await page.close();
  });
});
