import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../fixtures/app';
import { serveWebUi } from '../fixtures/browser';
import { aDepartureWithBookings, openScanner, shellCached, verdictOf, wedgeScan } from '../fixtures/scanner';

// The test clock starts 2030-01-01T00:00Z: 11:00 in Sydney, so "today" is 2030-01-01 and the
// default window runs from 31 December to 3 January.
let t: TestApp;
let web: Awaited<ReturnType<typeof serveWebUi>>;
let browser: Browser;
const shots = process.env.TOURDESK_SCREENSHOTS;
const shot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png` });
};
const phone = () => browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
const kept = (page: Page) => page.getByRole('form', { name: 'Days kept on this device' });

let today: Awaited<ReturnType<typeof aDepartureWithBookings>>;
let inFiveDays: Awaited<ReturnType<typeof aDepartureWithBookings>>;

beforeAll(async () => {
  t = await startTestApp();
  today = await aDepartureWithBookings(t, 'Harbour Cruise', '2030-01-01 14:00:00', [['Grace Hopper']]);
  inFiveDays = await aDepartureWithBookings(t, 'Island Trek', '2030-01-06 08:00:00', [['Hedy Lamarr'], ['Alan Turing']]);
  web = await serveWebUi(t.engine);
  ({ browser } = web);
});
afterEach(async () => {
  await web?.startServer();
});
afterAll(async () => {
  await web?.close();
  await t?.close();
});

async function goOffline(page: Page, context: Awaited<ReturnType<typeof phone>>) {
  await context.setOffline(true);
  await web.stopServer();
  await expect.poll(() => page.getByRole('status', { name: 'Connection' }).innerText()).toMatch(/Offline/);
}

describe("the scanner's window of days, on a phone in Chromium", () => {
  it('keeps yesterday to 2 days ahead unless set; a new setting is kept on the device and fetches those days', { timeout: 90_000 }, async () => {
    const context = await phone();
    const page = await openScanner(context, web.baseUrl, t.keys.checkin);
    await page.locator('details.device > summary').tap();
    await expect.poll(() => kept(page).innerText()).toMatch(/2029-12-31 to 2030-01-03/);
    expect(await kept(page).getByLabel('Days before today').inputValue()).toBe('1');
    expect(await kept(page).getByLabel('Days after today').inputValue()).toBe('2');
    // More than the engine takes in one window is refused on the device, in words.
    await kept(page).getByLabel('Days after today').fill('20');
    await expect.poll(() => kept(page).innerText()).toMatch(/at most 14 days in all/);
    expect(await kept(page).getByRole('button', { name: 'Keep these days' }).isDisabled()).toBe(true);
    await kept(page).getByLabel('Days after today').fill('5');
    await kept(page).getByRole('button', { name: 'Keep these days' }).tap();
    await expect.poll(() => kept(page).innerText()).toMatch(/2029-12-31 to 2030-01-06/);
    await shot(page, 'scanner-window-setting');

    // Kept on the device: offline and reloaded, the setting and the days it fetched are still there.
    await shellCached(page);
    await goOffline(page, context);
    await page.reload();
    await page.getByRole('status', { name: 'Scanner state' }).getByText('Ready to scan').waitFor();
    await page.locator('details.device > summary').tap();
    expect(await kept(page).getByLabel('Days after today').inputValue()).toBe('5');
    await expect.poll(() => kept(page).innerText()).toMatch(/2029-12-31 to 2030-01-06/);
    // A ticket 5 days ahead is now known offline: another day, not UNKNOWN.
    await page.locator('details.device > summary').tap();
    await wedgeScan(page, inFiveDays.orders[0].codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('WRONG_SESSION');
    expect(await verdictOf(page).innerText()).toMatch(/Another day: this booking is for Island Trek at Sun, 6 Jan 2030, 8:00 am/);
    await context.close();
  });

  it('serving one departure outside the window, holds its day too, so offline its tickets check in', { timeout: 90_000 }, async () => {
    const context = await phone();
    const page = await openScanner(context, web.baseUrl, t.keys.checkin, `/scan?session=${inFiveDays.sessionId}`);
    await expect.poll(() => page.locator('.served').innerText()).toMatch(/0 of 2 checked in/);
    await shellCached(page);
    await goOffline(page, context);
    await wedgeScan(page, inFiveDays.orders[1].codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('CHECKED_IN');
    expect(await verdictOf(page).innerText()).toMatch(/Alan Turing/);
    await shot(page, 'scanner-served-outside-window');
    // Today's departures stay known as well: the window stretched to the served day, it did not move.
    await wedgeScan(page, today.orders[0].codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('WRONG_SESSION');
    await context.close();
  });
});
