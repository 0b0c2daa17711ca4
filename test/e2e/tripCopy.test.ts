import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../fixtures/app';
import { serveWebUi } from '../fixtures/browser';
import { aDepartureWithBookings, openScanner, shellCached, verdictOf, wedgeScan } from '../fixtures/scanner';
import { aProductWithSession } from '../fixtures/manifest';
import { aBookingRow } from '../fixtures/bookingRows';

// The test clock starts 2030-01-01T00:00Z: 11:00 in Sydney, so "today" is 2030-01-01 and the
// scanner's window runs from 31 December to 3 January.
let t: TestApp;
let web: Awaited<ReturnType<typeof serveWebUi>>;
let browser: Browser;
const shots = process.env.TOURDESK_SCREENSHOTS;
const shot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png` });
};

let today: Awaited<ReturnType<typeof aDepartureWithBookings>>;
let tomorrow: Awaited<ReturnType<typeof aDepartureWithBookings>>;
let revokedCode: string;
let charter: { sessionId: number; familyCode: string };

beforeAll(async () => {
  t = await startTestApp();
  today = await aDepartureWithBookings(t, 'Harbour Cruise', '2030-01-01 14:00:00', [['Grace Hopper'], ['Alan Turing'], ['Ada Lovelace']]);
  tomorrow = await aDepartureWithBookings(t, 'Reef Dive', '2030-01-02 09:30:00', [['Hedy Lamarr']]);
  expect((await t.call('DELETE', `/v1/bookings/${today.orders[1].orderNumber}`)).status).toBe(200);
  revokedCode = today.orders[2].codes[0];
  const reissued = await t.call('POST', `/v1/bookings/${today.orders[2].orderNumber}/barcodes/reissue`, { body: { participantId: String(today.orders[2].participantIds[0]) } });
  expect(reissued.status).toBe(200);
  // 13:00 today with 5 seats: a Family ticket of 4 seats under one name (collected at Pier 3) and a couple: 6 booked, 1 over.
  const boat = await aProductWithSession(t, { startTime: '2030-01-01T02:00:00Z', seats: 5 });
  const family = aBookingRow(t.sql, { sessionId: boat.sessionId, barcodes: 'PARTICIPANT', quantities: [{ label: 'Family', value: 1, seatsUsed: 4 }], names: ['Mia Family'], pickup: { locationName: 'Pier 3', pickupTime: '2030-01-01T07:40:00' } });
  aBookingRow(t.sql, { sessionId: boat.sessionId, barcodes: 'PARTICIPANT', quantities: [{ label: 'Adult', value: 2 }], names: ['Ann Pair', 'Bob Pair'] });
  charter = { sessionId: boat.sessionId, familyCode: family.participantCodes[0] as string };
  web = await serveWebUi(t.engine);
  ({ browser } = web);
});
afterAll(async () => {
  await web?.startServer();
  await web?.close();
  await t?.close();
});

describe("the scanner's window copy, offline, in Chromium at 390x844", () => {
  it('answers a cancelled, another-day and revoked code as the engine would, with no network', { timeout: 90_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await openScanner(context, web.baseUrl, t.keys.checkin);
    await shellCached(page);
    await context.setOffline(true);
    await web.stopServer();
    await expect.poll(() => page.getByRole('status', { name: 'Connection' }).innerText()).toMatch(/Offline/);

    await wedgeScan(page, today.orders[1].codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('BOOKING_CANCELLED');
    expect(await verdictOf(page).innerText()).toMatch(/CANCELLED[\s\S]*was cancelled at Tue, 1 Jan 2030/);
    await shot(page, 'trip-offline-cancelled');

    await wedgeScan(page, tomorrow.orders[0].codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('WRONG_SESSION');
    expect(await verdictOf(page).innerText()).toMatch(/Another day: this booking is for Reef Dive at Wed, 2 Jan 2030, 9:30 am/);
    await shot(page, 'trip-offline-another-day');

    await wedgeScan(page, revokedCode);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('CODE_REVOKED');
    expect(await verdictOf(page).innerText()).toMatch(/given a new code/);
    await shot(page, 'trip-offline-revoked');

    await wedgeScan(page, 'NOBODY-HAS-THIS');
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('UNKNOWN_CODE');
    await context.close();
  });

  it("counts a departure's seats as availability does, oversold as 'N over', and shows a verdict's pickup", { timeout: 90_000 }, async () => {
    await web.startServer(); // the test above leaves it stopped
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await openScanner(context, web.baseUrl, t.keys.checkin, `/scan?session=${charter.sessionId}`);
    const availability = await t.call('GET', `/v1/availability?productCode=${(await t.call('GET', `/v1/manifest?sessionId=${charter.sessionId}`)).body.manifest.session.productCode}&startTimeLocal=2030-01-01&endTimeLocal=2030-01-01`);
    expect(availability.body.sessions[0].seatsAvailable).toBe(-1);
    const served = page.getByLabel('Served');
    await expect.poll(() => served.innerText()).toMatch(/0 of 3 checked in · 6\/5 seats booked, 1 over/);
    expect(await served.locator('[data-seats-available]').getAttribute('data-seats-available')).toBe('-1');

    await context.setOffline(true);
    await web.stopServer();
    await expect.poll(() => page.getByRole('status', { name: 'Connection' }).innerText()).toMatch(/Offline/);
    await wedgeScan(page, charter.familyCode);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('CHECKED_IN');
    expect(await verdictOf(page).locator('.pickup-line').innerText()).toMatch(/^Pickup: Pier 3 0?7:40/);
    await shot(page, 'trip-pickup-verdict');
    await page.getByRole('button', { name: 'Next scan' }).click();
    await expect.poll(() => served.innerText()).toMatch(/1 of 3 checked in · 6\/5 seats booked, 1 over/);
    await shot(page, 'trip-seats-over');
    await web.startServer();
    await context.close();
  });
});
