import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../fixtures/app';
import { aBooking, aProduct, aScannableProduct, aSession } from '../fixtures/builders';
import { serveWebUi } from '../fixtures/browser';
import { signedInPage } from '../fixtures/signedInPage';

// One format on the desk (issues 36/37): the company is en_AU in Australia/Sydney, the browser is
// en-US in New York, and every screen must read the company's way. The test clock is
// 2030-01-01T00:00Z: 11:00 am on Tuesday 1 January 2030 in Sydney.
let t: TestApp;
let web: Awaited<ReturnType<typeof serveWebUi>>;
let baseUrl: string;
let browser: Browser;
let cruise: { sessionId: number; orders: string[] };
let plain: { sessionId: number; orders: string[] };
const SHOTS = process.env.TOURDESK_SCREENSHOTS ?? '/tmp/desk-shots';

async function aDeparture(body: Record<string, unknown>, startTimeLocal: string, people: string[][]) {
  const productCode: string = (await t.call('POST', '/v1/products', { body })).body.product.productCode;
  const session = await t.call('POST', '/v1/availability', { body: aSession(productCode, { startTimeLocal, seats: 60 }) });
  const orders: string[] = [];
  for (const names of people) {
    const participants = names.map((name) => ({ fields: [{ label: 'Full Name', value: name }] }));
    const [firstName, lastName] = names[0].split(' ');
    const res = await t.call('POST', '/v1/bookings', {
      body: aBooking(productCode, undefined, [], { customer: { firstName, lastName, phone: '+61 400 111 222' }, items: [{ productCode, startTimeLocal, quantities: [{ optionLabel: 'Adult', value: names.length }], participants }], payments: [{ type: 'CASH', amount: 50 * names.length }] }),
    });
    expect(res.status).toBe(200);
    orders.push(res.body.booking.orderNumber);
  }
  return { sessionId: session.body.session.id as number, orders };
}

beforeAll(async () => {
  t = await startTestApp();
  // Booked first but departing last: the Bookings list must not open on it.
  await aDeparture(aScannableProduct({ name: 'Island Hop' }), '2030-01-05 09:00:00', [['Linus Torvalds']]);
  cruise = await aDeparture(aScannableProduct({ name: 'Harbour Cruise' }), '2030-01-01 14:00:00', Array.from({ length: 14 }, (_, i) => [`Rider${i + 1} Person`]));
  plain = await aDeparture(aProduct({ name: 'Codeless Walk' }), '2030-01-02 16:30:00', [['Ada Lovelace']]);
  mkdirSync(SHOTS, { recursive: true });
  web = await serveWebUi(t.engine);
  ({ baseUrl, browser } = web);
});
afterAll(async () => {
  await web?.close();
  await t?.close();
});

async function desk(path: string): Promise<Page> {
  const { page } = await signedInPage(browser, { key: t.keys.supplier, locale: 'en-US', timezoneId: 'America/New_York' });
  await page.goto(`${baseUrl}${path}`);
  return page;
}
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/format-${name}.png` });
const flat = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

describe("the company's format on every screen (en-AU, Sydney) in an en-US browser in New York", () => {
  it('booking detail: booked time in the company zone and locale, money as the company writes it', async () => {
    const page = await desk(`/bookings/${cruise.orders[0]}`);
    const facts = page.locator('dl.facts');
    await facts.waitFor();
    await expect.poll(async () => flat(await facts.innerText())).toMatch(/Booked\s+Tue,? 1 Jan 2030, 11:00 am/);
    expect(flat(await facts.innerText())).toMatch(/\$50\.00 · paid \$50\.00/);
    expect(flat(await page.locator('section.item h3').innerText())).toMatch(/Harbour Cruise · Tue,? 1 Jan 2030, 2:00 pm/);
    await shot(page, 'booking-detail');
    await page.context().close();
  });

  it('manifest and board: departure times 12-hour as en-AU says, money the same style as the bookings pages', async () => {
    const page = await desk('/');
    await page.getByRole('button', { name: /^2:00\spm Harbour Cruise$/ }).click();
    await page.getByRole('heading', { name: /2:00\spm Harbour Cruise/ }).waitFor();
    const first = page.getByRole('article', { name: `Booking ${cruise.orders[0]}` });
    expect(flat(await first.innerText())).toMatch(/✓ Paid \$50\.00/);
    await shot(page, 'manifest');
    await page.context().close();
  });

  it('Bookings opens on upcoming departures, soonest first, and takes a date in the company order', async () => {
    const page = await desk('/bookings');
    const results = page.getByRole('region', { name: 'Search results' }).or(page.locator('section[aria-label="Search results"]'));
    await expect.poll(() => results.innerText()).toMatch(/Upcoming departures: \d+ bookings?, soonest first/);
    const names = await page.locator('.results .result-main strong').allInnerTexts();
    expect(names[0]).toBe('Rider1 Person');
    expect(names.at(-1)).toBe('Linus Torvalds');
    const date = page.getByLabel('Tour date', { exact: true });
    expect(await date.getAttribute('placeholder')).toBe('dd/mm/yyyy');
    await date.fill('05/01/2030');
    await expect.poll(() => page.url()).toMatch(/date=2030-01-05/);
    await expect.poll(() => page.locator('.results .result-main strong').allInnerTexts()).toEqual(['Linus Torvalds']);
    await date.fill('13/13/2030');
    expect(await page.getByRole('alert').filter({ hasText: 'Type a date as dd/mm/yyyy' }).count()).toBe(1);
    await shot(page, 'bookings');
    await page.context().close();
  });
});

describe('the desk on the manifest', () => {
  it('shortcuts work with the scan box focused while it is empty, and a fast "g…" stays a code', async () => {
    const page = await desk(`/sessions/${cruise.sessionId}`);
    const box = page.getByLabel('Scan code');
    await box.waitFor();
    await box.focus();
    await page.keyboard.press('/');
    expect(await page.getByLabel('Find a booking').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await box.inputValue()).toBe('');
    await box.focus();
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await shot(page, 'shortcuts-over-scan-box');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByRole('button', { name: 'Close', exact: true }).click();
    // A wedge types a code starting with g at machine speed: it is a code, typed in full.
    await box.focus();
    await page.keyboard.type('gb12', { delay: 0 });
    expect(await box.inputValue()).toBe('gb12');
    expect(new URL(page.url()).pathname).toBe(`/sessions/${cruise.sessionId}`);
    // A person types g, then b: Bookings.
    await box.fill('');
    await box.focus();
    await page.keyboard.press('g');
    await page.waitForTimeout(250);
    await page.keyboard.press('b');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/bookings');
    await page.context().close();
  });

  it('the undo toast stands beside the content: not over the last row or the status bar', async () => {
    const page = await desk(`/sessions/${cruise.sessionId}`);
    await page.getByRole('listitem', { name: 'Rider1 Person' }).waitFor();
    // The list draws the rows in view: the last one once the page is at its end.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const last = page.getByRole('listitem', { name: 'Rider14 Person' });
    await last.waitFor();
    await page.getByRole('button', { name: 'Check in Rider14 Person' }).click();
    const toast = page.getByRole('status', { name: 'Undo check-in' });
    await toast.waitFor();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(100);
    const boxes = await Promise.all([toast, last, page.locator('.status-bar')].map(async (l) => (await l.boundingBox())!));
    const [toastBox, lastBox, barBox] = boxes;
    const overlaps = (a: typeof toastBox, b: typeof toastBox) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlaps(toastBox, lastBox)).toBe(false);
    expect(overlaps(toastBox, barBox)).toBe(false);
    expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(800);
    await shot(page, 'undo-toast');
    await page.context().close();
  });

  it('a product that issues no ticket codes says so on its manifest, with what to change', async () => {
    const page = await desk(`/sessions/${plain.sessionId}`);
    const note = page.getByRole('note', { name: 'No ticket codes' });
    await note.waitFor();
    expect(await note.innerText()).toMatch(/sets no QR code type[\s\S]*qrCodeType[\s\S]*PUT \/v1\/products\//);
    expect(await page.getByRole('note', { name: 'No ticket codes' }).count()).toBe(1);
    await shot(page, 'no-codes');
    await page.goto(`${baseUrl}/sessions/${cruise.sessionId}`);
    await page.getByRole('listitem', { name: 'Rider1 Person' }).waitFor();
    expect(await page.getByRole('note', { name: 'No ticket codes' }).count()).toBe(0);
    await page.context().close();
  });
});
