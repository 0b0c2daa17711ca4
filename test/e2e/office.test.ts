import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../fixtures/app';
import { aBooking, aScannableProduct, aSession } from '../fixtures/builders';
import { serveWebUi } from '../fixtures/browser';
import { signedInPage, watchProblems, type SignedInOptions } from '../fixtures/signedInPage';
import { lowContrastText } from '../fixtures/contrast';
import { deletePeer, markSeen, recordPeerAttempt, upsertPeer } from '../../db/queries/syncPeers';
import { seal } from '../../main/sync/secret';
import { formatsFor } from '../../main/domain/format';

// The office screens (issue 18): bookings, a booking, walk-up at a URL, settings, the status bar and
// the looks. The test clock is 2030-01-01T00:00Z: 11:00 in Sydney, the company's timezone.
let t: TestApp;
let web: Awaited<ReturnType<typeof serveWebUi>>;
let baseUrl: string;
let browser: Browser;
let sessionId: number;
let orders: { orderNumber: string; items: { productCode: string }[] }[];
const SHOTS = process.env.TOURDESK_SCREENSHOTS ?? '/tmp/desk-shots';

beforeAll(async () => {
  t = await startTestApp();
  const product = await t.call('POST', '/v1/products', { body: aScannableProduct({ name: 'Harbour Cruise' }) });
  const productCode: string = product.body.product.productCode;
  const session = await t.call('POST', '/v1/availability', { body: aSession(productCode, { startTimeLocal: '2030-01-01 14:00:00', seats: 30 }) });
  sessionId = session.body.session.id;
  orders = [];
  for (const [firstName, lastName, phone, people] of [['Grace', 'Hopper', '+61 400 111 222', 2], ['Alan', 'Turing', '+61 400 333 444', 1], ['Ada', 'Lovelace', '+61 400 555 666', 3]] as const) {
    const participants = Array.from({ length: people }, (_, i) => ({ fields: [{ label: 'Full Name', value: i === 0 ? `${firstName} ${lastName}` : `${firstName}'s guest ${i}` }] }));
    const res = await t.call('POST', '/v1/bookings', {
      body: aBooking(productCode, undefined, [], { customer: { firstName, lastName, phone, email: `${firstName.toLowerCase()}@example.test` }, items: [{ productCode, startTimeLocal: '2030-01-01 14:00:00', quantities: [{ optionLabel: 'Adult', value: people }], participants }], payments: [{ type: 'CASH', amount: 50 * people }] }),
    });
    expect(res.status).toBe(200);
    orders.push(res.body.booking);
  }
  mkdirSync(SHOTS, { recursive: true });
  web = await serveWebUi(t.engine);
  ({ baseUrl, browser } = web);
});
afterAll(async () => {
  await web?.close();
  await t?.close();
});

// Requests made while a test has taken the browser offline are not failures of the app.
const OFFLINE = /ERR_INTERNET_DISCONNECTED/;
const watch = (page: Page) => watchProblems(page, OFFLINE);
const signedIn = (options: Partial<SignedInOptions> = {}) => signedInPage(browser, { key: t.keys.supplier, expected: OFFLINE, ...options });

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

describe('signing in once per device', () => {
  it('keeps the key: a new tab and a reload stay signed in until Sign out', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${baseUrl}/settings`);
    await page.getByLabel('API key').fill(t.keys.supplier);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    // Deep link kept through sign-in; a new tab of the same browser is signed in.
    const second = await context.newPage();
    await second.goto(`${baseUrl}/bookings`);
    await second.getByRole('heading', { name: 'Bookings' }).waitFor();
    expect(await second.getByLabel('API key').count()).toBe(0);
    await second.reload();
    await second.getByRole('heading', { name: 'Bookings' }).waitFor();
    // Sign out is a 48 px target and ends it for the device.
    const signOut = second.getByRole('button', { name: 'Sign out' });
    expect((await signOut.boundingBox())!.height).toBeGreaterThanOrEqual(48);
    await signOut.click();
    await second.getByLabel('API key').waitFor();
    await page.reload();
    await page.getByLabel('API key').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('bookings', () => {
  it('searches by name, phone, order number and date, with the search in a URL that survives a reload', async () => {
    const { context, page, problems } = await signedIn();
    await page.goto(`${baseUrl}/bookings`);
    const results = page.getByRole('region', { name: 'Search results' }).getByRole('link');
    // The page's first load (its scripts and the search) can take over the poll's default second on a busy machine.
    await expect.poll(() => results.count(), { timeout: 10_000 }).toBe(3);
    expect(await page.title()).toBe('Bookings · TourDesk');
    await page.getByLabel('Name, order number or phone').fill('lovelace');
    await expect.poll(() => results.allInnerTexts()).toEqual([expect.stringMatching(/Ada Lovelace[\s\S]*Harbour Cruise/)]);
    await expect.poll(() => page.url()).toBe(`${baseUrl}/bookings?q=lovelace`);
    await page.reload();
    await expect.poll(() => results.allInnerTexts()).toEqual([expect.stringMatching(/Ada Lovelace/)]);
    await page.getByLabel('Name, order number or phone').fill('400 333');
    await expect.poll(() => results.allInnerTexts()).toEqual([expect.stringMatching(/Alan Turing/)]);
    await page.getByLabel('Name, order number or phone').fill(orders[0].orderNumber);
    await expect.poll(() => results.allInnerTexts()).toEqual([expect.stringMatching(/Grace Hopper/)]);
    await page.getByLabel('Name, order number or phone').fill('');
    await page.getByLabel('Tour date').fill('2030-01-02');
    await expect.poll(() => page.getByText(/^No bookings match on Wed,? 2 Jan 2030\.$/).count()).toBe(1);
    await page.getByLabel('Tour date').fill('2030-01-01');
    await expect.poll(() => results.count()).toBe(3);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('opens a booking at its own URL, edits its details through PUT, and cancels it after a confirmation', async () => {
    const { context, page, problems } = await signedIn();
    const order = orders[1].orderNumber;
    await page.goto(`${baseUrl}/bookings?q=Turing`);
    await page.getByRole('link', { name: /Alan Turing/ }).click();
    await expect.poll(() => page.url()).toBe(`${baseUrl}/bookings/${order}`);
    await page.getByRole('heading', { name: new RegExp(`Alan Turing ${order}`) }).waitFor();
    expect(await page.title()).toBe(`Booking ${order} · TourDesk`);
    await page.reload();
    await page.getByRole('heading', { name: new RegExp(`Alan Turing ${order}`) }).waitFor();
    expect(await page.title()).toBe(`Booking ${order} · TourDesk`);
    // The phone link is a 48 px target.
    expect((await page.getByRole('link', { name: '+61 400 333 444' }).boundingBox())!.height).toBeGreaterThanOrEqual(48);

    await page.getByRole('button', { name: 'Edit details' }).click();
    await page.getByLabel('Phone').fill('+61 499 999 999');
    await page.getByLabel('Reference').fill('Hotel 12B');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').getByText('Booking saved').waitFor();
    const stored = (await t.call('GET', `/v1/bookings/${order}`)).body.booking;
    expect(stored).toMatchObject({ resellerReference: 'Hotel 12B', status: 'CONFIRMED', customer: { firstName: 'Alan', lastName: 'Turing', phone: '+61 499 999 999', email: 'alan@example.test' } });
    expect(stored.items[0].participants[0].fields).toEqual([{ label: 'Full Name', value: 'Alan Turing' }]);

    await page.getByRole('button', { name: 'Cancel booking…' }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel booking ${order}?` });
    await dialog.waitFor();
    await shot(page, 'booking-cancel-dialog-desktop-light');
    // "Keep it" changes nothing.
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    expect((await t.call('GET', `/v1/bookings/${order}`)).body.booking.status).toBe('CONFIRMED');
    await page.getByRole('button', { name: 'Cancel booking…' }).click();
    await dialog.getByRole('button', { name: 'Cancel the booking' }).click();
    await page.getByText('✕ Cancelled').first().waitFor();
    expect((await t.call('GET', `/v1/bookings/${order}`)).body.booking.status).toBe('CANCELLED');
    expect(await page.getByRole('button', { name: 'Cancel booking…' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('says what a part-paid booking still owes, and nothing owed once it is cancelled', async () => {
    const { context, page, problems } = await signedIn();
    const productCode = orders[0].items[0].productCode;
    const made = await t.call('POST', '/v1/bookings', {
      body: aBooking(productCode, undefined, [], { customer: { firstName: 'Hedy', lastName: 'Lamarr' }, items: [{ productCode, startTimeLocal: '2030-01-01 14:00:00', quantities: [{ optionLabel: 'Adult', value: 2 }] }], payments: [{ type: 'CASH', amount: 10 }] }),
    });
    const booking = made.body.booking;
    expect(booking.totalDue).toBeGreaterThan(0);
    await page.goto(`${baseUrl}/bookings/${booking.orderNumber}`);
    const facts = page.locator('.facts');
    await expect.poll(() => facts.innerText().catch(() => ''), { timeout: 10_000 }).toMatch(/ due/);
    expect((await t.call('DELETE', `/v1/bookings/${booking.orderNumber}`)).status).toBe(200);
    await page.reload();
    await page.getByText('✕ Cancelled').first().waitFor();
    expect(await facts.innerText()).not.toMatch(/ due/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('says in words when a booking does not exist', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${baseUrl}/bookings/NOPE-1`);
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/NOPE-1/);
    await context.close();
  });
});

describe('walk-up at a URL', () => {
  it('opens the walk-up sale for a session at /walkup?session=ID, also after a reload', async () => {
    const { context, page, problems } = await signedIn();
    await page.goto(`${baseUrl}/walkup?session=${sessionId}`);
    await page.getByRole('heading', { name: /Walk-up/i }).first().waitFor();
    await page.reload();
    await page.getByRole('heading', { name: /Walk-up/i }).first().waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('settings', () => {
  it('fits Settings on a phone: no sideways scroll, and each key’s Revoke in view', async () => {
    const { context, page, problems } = await signedIn();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseUrl}/settings`);
    const keys = page.getByRole('table', { name: 'API keys' });
    const revoke = keys.getByRole('button', { name: /^Revoke / }).first();
    await revoke.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect((await revoke.boundingBox())!.x + (await revoke.boundingBox())!.width).toBeLessThanOrEqual(390);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('creates a key shown once with a copy button, lists it, and revokes it after a confirmation', async () => {
    const { context, page, problems } = await signedIn();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await page.goto(`${baseUrl}/settings`);
    const keys = page.getByRole('table', { name: 'API keys' });
    await keys.getByRole('cell', { name: 'Test supplier' }).waitFor();
    await expect.poll(() => keys.getByRole('row', { name: /Test supplier/ }).innerText()).toMatch(/This device/);
    await page.getByLabel('New key’s name').fill('Pier tablet');
    await page.getByLabel('Role').selectOption('checkin');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = await page.getByLabel('The new key').innerText();
    expect(shown).toMatch(/^td_/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByRole('button', { name: 'Copied ✓' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    // The key works, and the API lists it (without the key).
    expect((await t.call('GET', '/v1/manifest/day', { key: shown })).status).toBe(200);
    const listed = (await t.call('GET', '/v1/apiKeys')).body.apiKeys.find((k: any) => k.name === 'Pier tablet');
    expect(listed).toMatchObject({ role: 'checkin', revoked: false });
    await shot(page, 'settings-new-key-desktop-light');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByLabel('The new key').count()).toBe(0);

    await keys.getByRole('button', { name: 'Revoke Pier tablet' }).click();
    await page.getByRole('dialog', { name: 'Revoke “Pier tablet”?' }).getByRole('button', { name: 'Revoke the key' }).click();
    await page.getByText('Key “Pier tablet” revoked: it stops working at once').waitFor();
    expect((await t.call('GET', '/v1/apiKeys')).body.apiKeys.find((k: any) => k.id === listed.id).revoked).toBe(true);
    expect((await t.call('GET', '/v1/manifest/day', { key: shown })).status).toBe(401);
    expect(await keys.getByRole('row', { name: /Pier tablet/ }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('edits the company through the API and shows the instance, sync, backups and the data folder', async () => {
    const { context, page, problems } = await signedIn();
    await page.goto(`${baseUrl}/settings`);
    await expect.poll(() => page.getByLabel('Company name').inputValue()).toBe('Test Tours');
    await page.getByLabel('Phone', { exact: true }).fill('+61 2 5550 1234');
    await page.getByRole('button', { name: 'Save company' }).click();
    await page.getByText('Company saved').waitFor();
    expect((await t.call('GET', '/v1/company')).body.company).toMatchObject({ phone: '+61 2 5550 1234', timezone: 'Australia/Sydney', companyName: 'Test Tours' });
    await page.getByLabel('Timezone').fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Save company' }).click();
    await expect.poll(() => page.getByRole('alert').allInnerTexts()).toContainEqual(expect.stringMatching(/Mars\/Olympus is not an IANA timezone/));
    await page.getByLabel('Timezone').fill('Australia/Sydney');

    const sync = page.getByRole('region', { name: 'This instance and sync' });
    await expect.poll(() => sync.innerText()).toMatch(/Instance number\s*1[\s\S]*Not paired with another TourDesk yet/);
    const backups = page.getByRole('region', { name: 'Backups and data folder' });
    await expect.poll(() => backups.innerText()).toContain(t.dir);
    expect(await backups.innerText()).toMatch(/Last backup\s*None yet[\s\S]*tourdesk restore/);
    const pair = page.getByRole('region', { name: 'Pair a guide’s phone' });
    // The desk asks for the phone's name before it makes a key.
    expect(await pair.getByRole('button', { name: 'Make a pairing QR code' }).isDisabled()).toBe(true);
    await pair.getByLabel('Name of the phone').fill('Anna’s phone');
    // This test's desk listens on 127.0.0.1 only: no phone could open the link, and it says so.
    await pair.getByRole('button', { name: 'Make a pairing QR code' }).click();
    await expect.poll(() => pair.getByRole('alert').innerText().catch(() => '')).toMatch(/listens only on this computer/);
    expect(await page.getByRole('img', { name: /QR code that signs/ }).count()).toBe(0);
    await pair.getByLabel('Address the phone opens (optional)').fill('https://192.168.1.20:8443');
    await pair.getByRole('button', { name: 'Make a pairing QR code' }).click();
    await page.getByRole('img', { name: /QR code that signs/ }).waitFor();
    // The refusals asked for above (the unknown timezone, a desk no phone can reach), and nothing else.
    expect(problems).toEqual([expect.stringMatching(/^400 PUT .*\/v1\/company$/), expect.stringMatching(/^console: .*400/), expect.stringMatching(/^409 POST .*\/v1\/pairing\/checkin$/), expect.stringMatching(/^console: .*409/)]);
    await context.close();
  });

  it('shows a check-in key only what it may use, without a refused request', async () => {
    const { context, page, problems } = await signedIn({ key: t.keys.checkin });
    await page.goto(`${baseUrl}/settings`);
    await page.getByText(/signed in with a checkin key/).waitFor();
    expect(await page.getByRole('table', { name: 'API keys' }).count()).toBe(0);
    await page.getByRole('contentinfo', { name: 'Status' }).getByText('Instance 1').waitFor();
    // A guide's key books nothing: no Bookings place, no Walk-up booking on a manifest (both would only be refused).
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect.poll(() => nav.innerText()).toMatch(/Departures[\s\S]*Scanner[\s\S]*Settings/);
    expect(await nav.getByRole('link', { name: 'Bookings' }).count()).toBe(0);
    await page.goto(`${baseUrl}/sessions/${sessionId}`);
    await page.getByRole('button', { name: 'Open scanner' }).waitFor();
    expect(await page.getByRole('button', { name: 'Walk-up booking' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('status bar', () => {
  it('shows this instance, online or offline, and what waits to be sent', async () => {
    const { context, page, problems } = await signedIn();
    await page.goto(`${baseUrl}/bookings`);
    const bar = page.getByRole('contentinfo', { name: 'Status' });
    await expect.poll(() => bar.innerText()).toMatch(/Instance 1[\s\S]*Online[\s\S]*Nothing waiting[\s\S]*Not paired for sync/);
    await context.setOffline(true);
    await expect.poll(() => bar.innerText()).toMatch(/Offline/);
    await context.setOffline(false);
    await expect.poll(() => bar.innerText(), { timeout: 20_000 }).toMatch(/Online/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('counts a check-in made on this device as waiting until the engine has it', async () => {
    const { context, page } = await signedIn();
    const event = { eventId: '6f1c7a52-8a8e-4c55-9d55-0a4b9c1e2d3f', kind: 'REOPEN', sessionId, occurredAt: '2030-01-01T00:00:00.000Z', device: 'Desk' };
    await context.addInitScript((queued) => localStorage.setItem('tourdesk.checkinQueue', JSON.stringify({ events: [{ event: queued, queuedAt: queued.occurredAt, attempts: 0 }] })), event);
    // The engine cannot be reached for check-ins: the event waits.
    await page.route('**/v1/manifest/events', (route) => route.abort('internetdisconnected'));
    await page.goto(`${baseUrl}/bookings`);
    const bar = page.getByRole('contentinfo', { name: 'Status' });
    await expect.poll(() => bar.innerText()).toMatch(/1 check-in waiting to send/);
    await page.unroute('**/v1/manifest/events');
    await expect.poll(() => bar.innerText(), { timeout: 15_000 }).toMatch(/Nothing waiting/);
    await context.close();
  });

  it('says in words since when this desk has not synced when its peer stops answering, and why on hover', async () => {
    const url = 'http://10.9.8.7:8080';
    const lastSuccess = Date.parse('2030-01-01T00:12:00Z');
    await upsertPeer(t.engine.ctx.db, { url, key_sealed: 'sealed', peer_origin: 'A1B2C3D4E5F60718', peer_instance_no: 7, added_at: lastSuccess - 60_000 });
    try {
      await recordPeerAttempt(t.engine.ctx.db, url, { last_attempt_at: lastSuccess, last_success_at: lastSuccess, last_error: null, ops_to_send: 2, ops_to_receive: 0 });
      const { context, page, problems } = await signedIn();
      await page.goto(`${baseUrl}/bookings`);
      const sync = page.getByRole('contentinfo', { name: 'Status' }).getByLabel('Sync');
      await expect.poll(() => sync.innerText()).toMatch(/^2 changes to sync · last sync /);
      expect(await sync.getAttribute('class')).not.toContain('warn');

      await recordPeerAttempt(t.engine.ctx.db, url, { last_attempt_at: lastSuccess + 300_000, last_error: `${url} is not reachable (connect EHOSTUNREACH 10.9.8.7:8080)` });
      await page.reload();
      // Since the last success, as the page shows times (not the failed attempt's time).
      // In the company's format (en_AU, Sydney), whatever the browser's; ICU's space before "am" varies.
      const flat = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');
      const since = formatsFor({ locale: 'en_AU', timezone: 'Australia/Sydney' }).dateTime(lastSuccess);
      await expect.poll(async () => flat(await sync.innerText())).toBe(flat(`Not synced since ${since} · last try failed · 2 changes waiting`));
      expect(await sync.getAttribute('class')).toContain('warn');
      expect(await sync.getAttribute('title')).toBe(`${url}: ${url} is not reachable (connect EHOSTUNREACH 10.9.8.7:8080)`);
      await shot(page, 'status-bar-not-synced');
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await deletePeer(t.engine.ctx.db, url);
    }
  });
});

describe('sync now, from Settings', () => {
  it('exchanges with every peer at once and says why one failed, in the card and in the status bar', async () => {
    // A peer that cannot be reached (nothing listens on port 9 here), paired with a properly sealed key.
    const url = 'http://127.0.0.1:9';
    await upsertPeer(t.engine.ctx.db, { url, key_sealed: seal(t.dir, 'td_peer_key_for_the_test_000001'), peer_origin: 'A1B2C3D4E5F60718', peer_instance_no: 7, added_at: Date.parse('2030-01-01T00:00:00Z') });
    try {
      const { context, page, problems } = await signedIn();
      await page.goto(`${baseUrl}/settings`);
      const card = page.getByRole('region', { name: 'This instance and sync' });
      await card.getByRole('table', { name: 'Peers' }).getByText(url).waitFor();
      await card.getByRole('button', { name: 'Sync now' }).click();
      await expect.poll(() => card.getByRole('alert').innerText().catch(() => '')).toMatch(/^http:\/\/127\.0\.0\.1:9: http:\/\/127\.0\.0\.1:9 is not reachable/);
      expect(await card.getByRole('table', { name: 'Peers' }).innerText()).toMatch(/is not reachable/);
      const bar = page.getByRole('contentinfo', { name: 'Status' }).getByLabel('Sync');
      await expect.poll(() => bar.innerText()).toMatch(/^Not synced since pairing · last try failed/);
      expect(await t.call('GET', '/v1/sync/status').then((r) => r.body.peers[0].lastError)).toMatch(/is not reachable/);
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await deletePeer(t.engine.ctx.db, url);
    }
  });
});

describe('pairing from Settings', () => {
  it('pairs with an address and key, says why a peer could not be paired, and removes a peer after a confirmation', async () => {
    const { context, page, problems } = await signedIn();
    await page.goto(`${baseUrl}/settings`);
    const form = page.getByRole('form', { name: 'Pair with a peer' });
    await form.getByLabel('Peer address').fill('http://127.0.0.1:9');
    await form.getByLabel('Peer key').fill('td_a_key_the_peer_made_000000001');
    expect(await form.getByLabel('Peer key').getAttribute('type')).toBe('password');
    await form.getByRole('button', { name: 'Pair' }).click();
    await expect.poll(() => form.getByRole('alert').innerText().catch(() => '')).toMatch(/http:\/\/127\.0\.0\.1:9 is not reachable/);
    expect((await t.call('GET', '/v1/sync/status')).body.peers).toEqual([]);

    // A peer paired earlier (from the command line): removed here after a confirmation.
    const url = 'http://10.9.8.7:8080';
    await upsertPeer(t.engine.ctx.db, { url, key_sealed: seal(t.dir, 'td_peer_key_for_the_test_000002'), peer_origin: 'A1B2C3D4E5F60718', peer_instance_no: 7, added_at: 0 });
    try {
      await page.reload();
      const table = page.getByRole('table', { name: 'Peers' });
      await table.getByRole('button', { name: `Remove ${url}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove the peer' }).click();
      await expect.poll(() => page.getByRole('region', { name: 'This instance and sync' }).innerText()).toMatch(/Not paired with another TourDesk yet/);
      expect((await t.call('GET', '/v1/sync/status')).body.peers).toEqual([]);
    } finally {
      await deletePeer(t.engine.ctx.db, url);
    }
    // The refused pairing above is the only failed request (its 409 and the console's note of it).
    expect(problems).toEqual([expect.stringMatching(/^409 POST .*\/v1\/sync\/peers$/), expect.stringMatching(/^console: .*409/)]);
    await context.close();
  });
});

describe('a hub that desks sync with', () => {
  it('lists the instances that exchange with it and says so in the status bar', async () => {
    await markSeen(t.engine.ctx.db, 'DE5C0000AAAA1111', 42, Date.parse('2030-01-01T00:05:00Z'));
    try {
      const { context, page, problems } = await signedIn();
      await page.goto(`${baseUrl}/settings`);
      const seen = page.getByRole('table', { name: 'Instances that sync with this one' });
      await expect.poll(() => seen.innerText().catch(() => '')).toMatch(/42\s+DE5C0000AAAA1111\s+\S/);
      const bar = page.getByRole('contentinfo', { name: 'Status' }).getByLabel('Sync');
      await expect.poll(() => bar.innerText()).toMatch(/^1 instance syncs here · last /);
      expect(await bar.getAttribute('class')).not.toMatch(/warn/);
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      t.sql.prepare("DELETE FROM sync_instances WHERE origin = 'DE5C0000AAAA1111'").run();
    }
  });

  it('says which desk has gone quiet: not seen for over three minutes by the browser clock', async () => {
    await markSeen(t.engine.ctx.db, 'DE5C0000AAAA1111', 42, Date.parse('2030-01-01T00:05:00Z'));
    await markSeen(t.engine.ctx.db, 'DE5C0000BBBB2222', 43, Date.now() - 5 * 3_600_000);
    try {
      const { context, page, problems } = await signedIn();
      await page.goto(`${baseUrl}/settings`);
      const seen = page.getByRole('table', { name: 'Instances that sync with this one' });
      await expect.poll(() => seen.innerText().catch(() => '')).toMatch(/43\s+DE5C0000BBBB2222\s+.*not seen for 5 h/);
      expect(await seen.innerText()).not.toMatch(/42\s+DE5C0000AAAA1111\s+.*not seen/);
      const bar = page.getByRole('contentinfo', { name: 'Status' }).getByLabel('Sync');
      await expect.poll(() => bar.innerText()).toMatch(/^2 instances sync here · last .* · 1 not seen for a while$/);
      expect(await bar.getAttribute('class')).toMatch(/warn/);
      expect(await bar.getAttribute('title')).toMatch(/^Instance 43: not seen for 5 h/);
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      t.sql.prepare("DELETE FROM sync_instances WHERE origin IN ('DE5C0000AAAA1111', 'DE5C0000BBBB2222')").run();
    }
  });
});

describe('a long catch-up in the status bar', () => {
  it('shows how far the running exchange has come, and follows it every few seconds until it ends', async () => {
    const { context, page, problems } = await signedIn();
    let asked = 0;
    // The engine's own answer, with an exchange running for the first three asks: as a catch-up reports it page by page.
    await page.route('**/v1/sync/status', async (route) => {
      const real = await route.fetch();
      const body = await real.json();
      asked++;
      const running = asked <= 3 ? { url: 'http://hub.local:8080', since: '2030-01-01T00:00:00.000Z', snapshotRows: 20_000, received: 5_000 * asked, remaining: 100_000 - 5_000 * asked, sent: 0 } : null;
      await route.fulfill({ response: real, json: { ...body, peers: [], exchanging: running } });
    });
    await page.goto(`${baseUrl}/bookings`);
    const bar = page.getByRole('contentinfo', { name: 'Status' }).getByLabel('Sync');
    await expect.poll(() => bar.innerText()).toMatch(/^Syncing with http:\/\/hub\.local:8080: 20,000 rows taken, \d{1,2},000 changes received, \d{2},000 to go$/);
    // Without waiting for the 15-second check: the bar asks again every 2 s while an exchange runs, and shows its end.
    await expect.poll(() => bar.innerText(), { timeout: 10_000 }).toBe('Not paired for sync');
    expect(asked).toBeGreaterThanOrEqual(4);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('a desk that follows a hub', () => {
  it('shows the hub’s company read-only, saying where it is changed, with no Save button', async () => {
    await t.engine.replica.setHub('A1B2C3D4E5F60718');
    try {
      const { context, page, problems } = await signedIn();
      await page.goto(`${baseUrl}/settings`);
      const company = page.getByRole('region', { name: 'Company' });
      await expect.poll(() => company.getByRole('note').innerText().catch(() => '')).toMatch(/follows its hub’s catalogue: the company is changed on the hub/);
      expect(await company.getByLabel('Company name').inputValue()).toBe('Test Tours');
      expect(await company.getByLabel('Company name').isDisabled()).toBe(true);
      expect(await company.getByRole('button', { name: 'Save company' }).count()).toBe(0);
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await t.engine.replica.setHub(null);
    }
  });
});

describe('an oversold session on the manifest', () => {
  it('says who is involved with links, and a supplier acknowledges it there (a check-in key only sees it)', async () => {
    // The bookings still live (an earlier test cancels one), and the seats they hold.
    const live: { orderNumber: string; seats: number }[] = [];
    for (const { orderNumber } of orders) {
      const { booking } = (await t.call('GET', `/v1/bookings/${orderNumber}`)).body;
      if (booking.status !== 'CANCELLED') live.push({ orderNumber, seats: booking.items[0].totalQuantity });
    }
    const held = live.reduce((n, b) => n + b.seats, 0);
    expect(live.length).toBeGreaterThanOrEqual(2);
    // As sync leaves it when two instances sold the last seats apart: more seats held than the session has.
    t.sql.prepare('UPDATE sessions SET seats = ? WHERE id = ?').run(held - 2, sessionId);
    const flagged = new RegExp(`Oversold after sync: ${held} seats held for ${held - 2}, 2 over\\.`);
    try {
      const guide = await signedIn({ key: t.keys.checkin });
      await guide.page.goto(`${baseUrl}/sessions/${sessionId}`);
      const seen = guide.page.getByRole('alert', { name: 'Oversold session' });
      await expect.poll(() => seen.innerText()).toMatch(flagged);
      expect(await seen.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
      expect(guide.problems).toEqual([]);
      await guide.context.close();

      const { context, page, problems } = await signedIn();
      await page.goto(`${baseUrl}/sessions/${sessionId}`);
      const notice = page.getByRole('alert', { name: 'Oversold session' });
      await expect.poll(() => notice.innerText()).toMatch(flagged);
      expect(await notice.innerText()).toMatch(/every booking stands/);
      expect(await notice.getByRole('link').allInnerTexts()).toEqual(live.map((b) => b.orderNumber).sort());
      for (const b of live) {
        expect(await notice.getByRole('link', { name: b.orderNumber }).getAttribute('href')).toBe(`/bookings/${b.orderNumber}`);
        expect(await notice.innerText()).toContain(`${b.orderNumber} (${b.seats} ${b.seats === 1 ? 'seat' : 'seats'})`);
      }
      await shot(page, 'manifest-oversold');
      await notice.getByRole('button', { name: 'Acknowledge' }).click();
      const acknowledged = page.getByRole('note', { name: 'Oversold session' });
      await expect.poll(() => acknowledged.innerText()).toMatch(new RegExp(`Oversold \\(acknowledged\\): ${held} seats held for ${held - 2}`));
      expect(await page.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
      const { conflicts } = (await t.call('GET', '/v1/sync/conflicts')).body;
      expect(conflicts).toEqual([expect.objectContaining({ sessionId, capacity: held - 2, seatsHeld: held, acknowledged: true })]);
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      t.sql.prepare('UPDATE sessions SET seats = 30 WHERE id = ?').run(sessionId);
    }
  });
});

describe('looks, modes and shortcuts', () => {
  it('follows prefers-color-scheme, and remembers a sunlight choice', async () => {
    const dark = await signedIn({ colorScheme: 'dark' });
    await dark.page.goto(`${baseUrl}/bookings`);
    await dark.page.getByRole('heading', { name: 'Bookings' }).waitFor();
    expect(await dark.page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const bg = await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe('rgb(15, 20, 25)');
    await dark.page.goto(`${baseUrl}/settings`);
    await dark.page.getByLabel('Sunlight (high contrast, for outdoors)').check();
    expect(await dark.page.evaluate(() => document.documentElement.dataset.theme)).toBe('sunlight');
    await dark.page.reload();
    await dark.page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await dark.page.evaluate(() => document.documentElement.dataset.theme)).toBe('sunlight');
    await shot(dark.page, 'settings-desktop-sunlight');
    await dark.context.close();

    const light = await signedIn({ colorScheme: 'light' });
    await light.page.goto(`${baseUrl}/bookings`);
    await light.page.getByRole('heading', { name: 'Bookings' }).waitFor();
    expect(await light.page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await light.context.close();
  });

  it('kiosk mode keeps the device on the scanner until someone confirms leaving it', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${baseUrl}/settings`);
    await page.getByLabel(/Kiosk/).click(); // the settings screen goes away at once: click, not check
    await page.getByRole('region', { name: 'Scanner' }).waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/scan');
    await page.goto(`${baseUrl}/bookings`);
    await page.getByRole('region', { name: 'Scanner' }).waitFor();
    expect(await page.getByRole('button', { name: 'Back to the desk' }).isVisible()).toBe(false);
    await shot(page, 'kiosk-desktop-light');
    await page.getByRole('button', { name: 'Leave kiosk' }).click();
    await page.getByRole('dialog', { name: 'Leave kiosk mode?' }).getByRole('button', { name: 'Leave kiosk mode' }).click();
    await page.goto(`${baseUrl}/bookings`);
    await page.getByRole('heading', { name: 'Bookings' }).waitFor();
    await context.close();
  });

  it('lists its shortcuts on ?, focuses search on /, and goes places with g and a letter', async () => {
    const { context, page, problems } = await signedIn();
    await page.goto(`${baseUrl}/settings`);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toMatch(/g then b\s*Bookings[\s\S]*g then s\s*Settings/);
    await page.keyboard.press('Escape');
    await page.keyboard.press('g');
    await page.keyboard.press('b');
    await page.getByRole('heading', { name: 'Bookings' }).waitFor();
    await page.getByLabel('Name, order number or phone').blur();
    await page.keyboard.press('/');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).type)).toBe('search');
    await page.getByLabel('Name, order number or phone').blur();
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('serves a favicon and app icons (no 404 on page load)', async () => {
    const { context, page, problems } = await signedIn();
    const icons: number[] = [];
    page.on('response', (r) => /favicon|manifest\.webmanifest|icons\//.test(r.url()) && icons.push(r.status()));
    await page.goto(`${baseUrl}/bookings`);
    await page.getByRole('heading', { name: 'Bookings' }).waitFor();
    for (const path of ['/favicon.svg', '/favicon-32.png', '/manifest.webmanifest', '/icons/512.png']) expect((await page.request.get(`${baseUrl}${path}`)).status()).toBe(200);
    expect(icons.every((s) => s === 200)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps every button and link on the office screens at 48 px or more', async () => {
    const { context, page } = await signedIn({ viewport: { width: 390, height: 844 } });
    for (const path of ['/bookings', `/bookings/${orders[0].orderNumber}`, '/settings']) {
      await page.goto(`${baseUrl}${path}`);
      await page.locator('main h1, main h2').first().waitFor();
      await page.waitForTimeout(300);
      const small = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('main button, main a, header button, header a, footer button, footer a')]
          .filter((e) => e.offsetParent !== null && !e.classList.contains('skip'))
          .map((e) => ({ text: e.innerText.trim().slice(0, 30), height: Math.round(e.getBoundingClientRect().height) }))
          .filter((e) => e.height < 48),
      );
      expect({ path, small }).toEqual({ path, small: [] });
    }
    await context.close();
  });
});

describe('screenshots of each screen (desktop and phone, light and dark), with no failed request or console error', () => {
  it('renders every office screen cleanly', async () => {
    const screens = { board: '/', bookings: '/bookings?q=a', booking: `/bookings/${orders[2].orderNumber}`, walkup: `/walkup?session=${sessionId}`, settings: '/settings', manifest: `/sessions/${sessionId}` };
    const all: string[] = [];
    const unreadable: object[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      for (const [size, viewport] of Object.entries({ desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } })) {
        const { context, page, problems } = await signedIn({ colorScheme: scheme, viewport });
        for (const [name, path] of Object.entries(screens)) {
          await page.goto(`${baseUrl}${path}`);
          await page.locator('main h1, main h2').first().waitFor();
          await page.waitForLoadState('networkidle');
          await shot(page, `${name}-${size}-${scheme}`);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          if (['bookings', 'booking', 'settings'].includes(name)) expect({ name, size, overflow }).toEqual({ name, size, overflow: 0 });
          unreadable.push(...(await lowContrastText(page)).map((found) => ({ name, size, scheme, ...found })));
        }
        all.push(...problems);
        await context.close();
      }
    }
    expect(all).toEqual([]);
    // Every text drawn on every screen is readable in both looks (WCAG AA), not only the theme's tokens.
    expect(unreadable).toEqual([]);
  }, 300_000);

  it('keeps every text at 7:1 or more in sunlight mode', async () => {
    const screens = { board: '/', bookings: '/bookings?q=a', booking: `/bookings/${orders[2].orderNumber}`, walkup: `/walkup?session=${sessionId}`, settings: '/settings', manifest: `/sessions/${sessionId}` };
    const { context, page } = await signedIn({ viewport: { width: 390, height: 844 } });
    await page.goto(`${baseUrl}/settings`);
    await page.getByLabel('Sunlight (high contrast, for outdoors)').check();
    const unreadable: object[] = [];
    for (const [name, path] of Object.entries(screens)) {
      await page.goto(`${baseUrl}${path}`);
      await page.locator('main h1, main h2').first().waitFor();
      await page.waitForLoadState('networkidle');
      unreadable.push(...(await lowContrastText(page, 7)).map((found) => ({ name, ...found })));
    }
    await context.close();
    expect(unreadable).toEqual([]);
  }, 120_000);
});
