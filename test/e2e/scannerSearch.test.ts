import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../fixtures/app';
import { serveWebUi } from '../fixtures/browser';
import { aDepartureWithBookings, openScanner, participantOnServer, shellCached, verdictOf, wedgeScan } from '../fixtures/scanner';

// The test clock starts 2030-01-01T00:00Z: 11:00 in Sydney, so "today" is 2030-01-01.
let t: TestApp;
let web: Awaited<ReturnType<typeof serveWebUi>>;
let baseUrl: string;
let browser: Browser;
const shots = process.env.TOURDESK_SCREENSHOTS;
const shot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: false });
};
const phone = () => browser.newContext({ isMobile: true, hasTouch: true, viewport: { width: 390, height: 844 } });
const waiting = (page: Page) => page.getByLabel('Waiting to send');
const search = (page: Page) => page.getByRole('region', { name: 'Find a guest' });

let reef: Awaited<ReturnType<typeof aDepartureWithBookings>>;
let river: Awaited<ReturnType<typeof aDepartureWithBookings>>;
let cove: Awaited<ReturnType<typeof aDepartureWithBookings>>;

beforeAll(async () => {
  t = await startTestApp();
  reef = await aDepartureWithBookings(t, 'Reef Snorkel', '2030-01-01 15:00:00', [['José Álvarez', 'Marta Álvarez'], ['Grace Hopper']], {
    customers: [{ firstName: 'José', lastName: 'Álvarez', email: 'jose@example.test', phone: '+61 400 123 757' }],
  });
  river = await aDepartureWithBookings(t, 'River Paddle', '2030-01-01 17:00:00', [['Edsger Dijkstra', 'Barbara Liskov', 'Donald Knuth'], ['Katherine Johnson']]);
  cove = await aDepartureWithBookings(t, 'Cove Kayak', '2030-01-01 16:00:00', [['Linus Torvalds'], ['Ken Thompson']]);
  for (const order of cove.orders) expect((await t.call('DELETE', `/v1/bookings/${order.orderNumber}`)).status).toBe(200);
  web = await serveWebUi(t.engine);
  ({ baseUrl, browser } = web);
});
afterEach(async () => {
  await web?.startServer();
});
afterAll(async () => {
  await web?.close();
  await t?.close();
});

async function offline(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await web.stopServer();
  await expect.poll(() => page.getByRole('status', { name: 'Connection' }).innerText()).toMatch(/Offline/);
}

describe('the scanner’s search and group panel, on a phone in Chromium', () => {
  it('finds a guest offline by the local form of their phone and by name, and checks them in from the result', { timeout: 60_000 }, async () => {
    const context = await phone();
    const page = await openScanner(context, baseUrl, t.keys.checkin);
    await shellCached(page);
    await offline(context, page);
    const field = search(page).getByRole('searchbox');
    await field.fill('0400 123 757');
    const results = page.getByRole('list', { name: 'Search results' });
    await expect.poll(() => results.innerText()).toMatch(/José Álvarez[\s\S]*3:00 pm · Reef Snorkel[\s\S]*Marta Álvarez[\s\S]*Expected/);
    expect(await results.getByRole('listitem', { name: /^Booking / }).count()).toBe(1);
    await field.fill('jose alvarez');
    await expect.poll(() => results.getByRole('listitem', { name: /^Booking / }).count()).toBe(1);
    await shot(page, 'scanner-search-offline');
    await results.getByRole('button', { name: 'Check in José Álvarez' }).tap();
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('CHECKED_IN');
    // The one tapped, not the next row: the first touch (which lets the sound play) moves nothing under the finger.
    expect(await verdictOf(page).locator('.names').innerText()).toBe('José Álvarez');
    // Offered, not assumed: the rest of the party waits for the guide's tick.
    const panel = page.getByRole('group', { name: 'Also in this booking (1 person)' });
    expect(await panel.getByRole('checkbox', { name: 'Marta Álvarez' }).isChecked()).toBe(false);
    await shot(page, 'scanner-search-verdict');
    await page.getByRole('button', { name: 'Next scan' }).tap();
    await expect.poll(() => results.innerText()).toMatch(/José Álvarez\s*✓ In \d{1,2}:\d\d [ap]m/);
    await expect.poll(() => waiting(page).innerText()).toMatch(/^1 waiting/);

    await web.startServer();
    await context.setOffline(false);
    await expect.poll(() => waiting(page).innerText(), { timeout: 15_000 }).toMatch(/^0 waiting/);
    const [jose] = reef.orders;
    expect((await participantOnServer(t, reef.sessionId, jose.participantIds[0])).checkin.state).toBe('CHECKED_IN');
    expect((await participantOnServer(t, reef.sessionId, jose.participantIds[1])).checkin.state).toBe('EXPECTED');
    await context.close();
  });

  it('admits a cancelled booking found by search only by the override naming the cancellation, which a scanned ticket never offers', { timeout: 60_000 }, async () => {
    const context = await phone();
    const page = await openScanner(context, baseUrl, t.keys.checkin);
    const [linus, ken] = cove.orders;
    await wedgeScan(page, ken.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('BOOKING_CANCELLED');
    expect(await verdictOf(page).getByRole('button', { name: /Admit anyway/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Next scan' }).tap();
    await search(page).getByRole('searchbox').fill('linus');
    const results = page.getByRole('list', { name: 'Search results' });
    await expect.poll(() => results.innerText()).toMatch(/Linus Torvalds\s*Booking cancelled/);
    await results.getByRole('button', { name: 'Check in Linus Torvalds' }).tap();
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('BOOKING_CANCELLED');
    expect(await verdictOf(page).innerText()).toMatch(/Do not admit: booking .* was cancelled/);
    await shot(page, 'scanner-search-cancelled');
    await verdictOf(page).getByRole('button', { name: 'Admit anyway (booking cancelled)' }).tap();
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('CHECKED_IN');
    await expect.poll(() => waiting(page).innerText()).toMatch(/^0 waiting/);
    const overrides = (await t.call('GET', '/v1/checkin/overrides?date=2030-01-01')).body.overrides as { orderNumber: string; rules: string[]; device: string }[];
    expect(overrides.filter((o) => o.orderNumber === linus.orderNumber)).toEqual([expect.objectContaining({ rules: ['BOOKING_CANCELLED'], device: 'Pier phone' })]);
    expect(overrides.some((o) => o.orderNumber === ken.orderNumber)).toBe(false);
    await context.close();
  });

  it('ticks nobody in the group panel, and "Check in all N" admits the rest of the party', async () => {
    const context = await phone();
    const page = await openScanner(context, baseUrl, t.keys.checkin);
    const [party] = river.orders;
    await wedgeScan(page, party.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('CHECKED_IN');
    const panel = page.getByRole('group', { name: 'Also in this booking (2 people)' });
    expect(await panel.getByRole('checkbox').count()).toBe(2);
    expect(await panel.getByRole('checkbox', { checked: true }).count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'Tick who is here' }).isDisabled()).toBe(true);
    await shot(page, 'scanner-group-panel');
    await panel.getByRole('button', { name: 'Check in all 2' }).tap();
    await expect.poll(() => waiting(page).innerText()).toMatch(/^0 waiting/);
    const states = await Promise.all(party.participantIds.map(async (id) => (await participantOnServer(t, river.sessionId, id)).checkin.state));
    expect(states).toEqual(['CHECKED_IN', 'CHECKED_IN', 'CHECKED_IN']);
    await context.close();
  });

  it('answers a 4,000-character, a control-character and an emoji wedge read UNKNOWN CODE, and keeps scanning', { timeout: 60_000 }, async () => {
    const context = await phone();
    const page = await openScanner(context, baseUrl, t.keys.checkin);
    const next = () => page.getByRole('button', { name: 'Next scan' }).tap();
    await wedgeScan(page, 'X'.repeat(4000));
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('UNKNOWN_CODE');
    expect(await verdictOf(page).innerText()).toMatch(/UNKNOWN CODE[\s\S]*4,000 characters/);
    await shot(page, 'scanner-wedge-4000');
    await next();
    await wedgeScan(page, '\u0000\u001d\u0007\u001b\u0001');
    await expect.poll(() => verdictOf(page).innerText()).toMatch(/UNKNOWN CODE[\s\S]*only control characters/);
    await next();
    // An emoji code is asked of the engine (online), which answers it unknown too.
    await wedgeScan(page, 'TICKET-😀-1');
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('UNKNOWN_CODE');
    await expect.poll(() => verdictOf(page).innerText(), { timeout: 5_000 }).not.toMatch(/CHECKING/);
    await next();
    await expect.poll(() => page.getByRole('list', { name: 'Last scans' }).innerText()).toMatch(/X{39}… \(4,000 characters\)/);
    await shot(page, 'scanner-recent-after-bad-input');
    // The screen still works: a real ticket checks in.
    const [katherine] = river.orders.slice(1);
    await wedgeScan(page, katherine.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('CHECKED_IN');
    await expect.poll(() => waiting(page).innerText()).toMatch(/^0 waiting/);
    expect((await participantOnServer(t, river.sessionId, katherine.participantIds[0])).checkin.state).toBe('CHECKED_IN');
    await context.close();
  });

  it('says so when the device’s storage is blocked, and keeps scanning online', async () => {
    const context = await phone();
    // Storage a browser refuses (a private window, a policy): opening IndexedDB throws.
    await context.addInitScript(() => {
      IDBFactory.prototype.open = () => {
        throw new DOMException('The user denied permission to access the database.', 'SecurityError');
      };
    });
    const page = await openScanner(context, baseUrl, t.keys.checkin);
    const notice = page.getByRole('status', { name: 'Device storage' });
    await expect.poll(() => notice.innerText()).toMatch(/storage is blocked or unavailable[\s\S]*Scanning works while online/);
    await shot(page, 'scanner-storage-blocked');
    const [, grace] = reef.orders;
    await wedgeScan(page, grace.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('CHECKED_IN');
    await expect.poll(() => waiting(page).innerText()).toMatch(/^0 waiting/);
    expect((await participantOnServer(t, reef.sessionId, grace.participantIds[0])).checkin.state).toBe('CHECKED_IN');
    await context.close();
  });
});
