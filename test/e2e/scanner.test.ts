import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../fixtures/app';
import { serveWebUi } from '../fixtures/browser';
import { aDepartureWithBookings, openScanner, participantOnServer, shellCached, verdictOf, wedgeScan } from '../fixtures/scanner';

// The test clock starts 2030-01-01T00:00Z: 11:00 in Sydney, so "today" is 2030-01-01.
let t: TestApp;
let web: Awaited<ReturnType<typeof serveWebUi>>;
let baseUrl: string;
let browser: Browser;
const shots = process.env.TOURDESK_SCREENSHOTS;
/** The screen as it is, at phone and desktop size (the verdict stays up for a few seconds: enough for both). */
const shot = async (page: Page, name: string) => {
  if (!shots) return;
  const size = page.viewportSize();
  for (const [suffix, viewport] of [['phone', { width: 390, height: 844 }], ['desktop', { width: 1280, height: 800 }]] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `${shots}/${name}-${suffix}.png` });
  }
  if (size) await page.setViewportSize(size);
};
const waiting = (page: Page) => page.getByLabel('Waiting to send');

let cruise: Awaited<ReturnType<typeof aDepartureWithBookings>>;
let walk: Awaited<ReturnType<typeof aDepartureWithBookings>>;
let kayak: Awaited<ReturnType<typeof aDepartureWithBookings>>;
let sunset: Awaited<ReturnType<typeof aDepartureWithBookings>>;

beforeAll(async () => {
  t = await startTestApp();
  cruise = await aDepartureWithBookings(t, 'Harbour Cruise', '2030-01-01 14:00:00', [['Grace Hopper'], ['Alan Turing'], ['Ada Lovelace'], ['Claude Shannon'], ['Hedy Lamarr']]);
  walk = await aDepartureWithBookings(t, 'Rocks Walk', '2030-01-01 16:30:00', [['Edsger Dijkstra', 'Barbara Liskov', 'Donald Knuth']]);
  kayak = await aDepartureWithBookings(t, 'Kayak Tour', '2030-01-01 18:00:00', [['Margaret Hamilton'], ['Katherine Johnson']]);
  sunset = await aDepartureWithBookings(t, 'Sunset Sail', '2030-01-01 19:00:00', [['Frances Allen']], { unpaid: true, product: { checkinRequiresPayment: true } as never });
  web = await serveWebUi(t.engine);
  ({ baseUrl, browser } = web);
});
// A test that stopped the server to take the network away leaves it running for the next, even when it fails.
afterEach(async () => {
  await web?.startServer();
});
afterAll(async () => {
  await web?.close();
  await t?.close();
});

describe('the guide’s scanner in Chromium', () => {
  it('opens signed in from a pairing link, keeps the key and takes it out of the address bar', async () => {
    const context = await browser.newContext();
    const page = await openScanner(context, baseUrl, t.keys.checkin);
    expect(page.url()).toBe(`${baseUrl}/scan`);
    expect(await page.evaluate(() => localStorage.getItem('tourdesk.apiKey'))).toBe(t.keys.checkin);
    // A reload (and a bookmark of /scan) opens the scanner again, still signed in.
    await page.reload();
    await page.getByText('Ready to scan').waitFor();
    await context.close();
  });

  it('signed out, tells a guide to scan the desk’s pairing QR code, with a pasted key as the fallback', async () => {
    const context = await browser.newContext({ isMobile: true, hasTouch: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/scan`);
    const signIn = page.getByRole('region', { name: 'Sign this phone in to the scanner' });
    expect(await signIn.innerText()).toMatch(/Scan the desk’s pairing QR code[\s\S]*Settings › Pair a guide’s phone/);
    expect(await signIn.innerText()).not.toMatch(/api-key\.txt|tourdesk serve/);
    await shot(page, 'scanner-signed-out');
    const keyField = page.getByLabel('API key');
    expect(await keyField.isVisible()).toBe(false);
    await page.getByText('No camera? Paste a key instead').tap();
    await keyField.waitFor();
    await context.close();
  });

  it('signs in from a pairing link opened in a tab already on the scanner, and takes the key out of the address bar', async () => {
    const context = await browser.newContext({ isMobile: true, hasTouch: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/scan`);
    await page.getByText('Scan the desk’s pairing QR code').waitFor();
    await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));
    await page.goto(`${baseUrl}/scan#key=${encodeURIComponent(t.keys.checkin)}&device=Second%20phone`);
    await page.getByRole('status', { name: 'Scanner state' }).getByText('Ready to scan').waitFor();
    // Only the fragment changed: the same page signed in, without loading again.
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
    expect(page.url()).toBe(`${baseUrl}/scan`);
    expect(await page.evaluate(() => [localStorage.getItem('tourdesk.apiKey'), localStorage.getItem('tourdesk.device')])).toEqual([t.keys.checkin, 'Second phone']);
    await context.close();
  });

  it('says to tap once while the browser holds the sound back, and stops saying it after the first tap', async () => {
    const context = await browser.newContext({ isMobile: true, hasTouch: true });
    // A phone's autoplay policy (headless Chromium lets any page play): the output starts suspended
    // and resumes only in answer to a person's gesture.
    await context.addInitScript(() => {
      window.AudioContext = class extends window.AudioContext {
        constructor(options?: AudioContextOptions) {
          super(options);
          void super.suspend();
        }
        override resume() {
          return navigator.userActivation.isActive ? super.resume() : Promise.resolve();
        }
      };
    });
    const page = await openScanner(context, baseUrl, t.keys.checkin);
    const hint = page.getByText('Tap once to turn the sound on');
    await hint.waitFor();
    await shot(page, 'scanner-sound-hint');
    await page.locator('.served').tap();
    await hint.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => navigator.userActivation.hasBeenActive)).toBe(true);
    await context.close();
  });

  it('checks a wedge scan in at once, and ignores the same code read again', async () => {
    const context = await browser.newContext();
    const page = await openScanner(context, baseUrl, t.keys.checkin);
    const [grace] = cruise.orders;
    await wedgeScan(page, grace.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('CHECKED_IN');
    expect(await verdictOf(page).innerText()).toMatch(/CHECKED IN[\s\S]*Grace Hopper/);
    await shot(page, 'verdict-checked-in');
    await wedgeScan(page, grace.codes[0]);
    await page.getByText('Same code read again: ignored').waitFor();
    await expect.poll(() => waiting(page).innerText()).toMatch(/^0 waiting/);
    const p = await participantOnServer(t, cruise.sessionId, grace.participantIds[0]);
    expect(p.checkin.state).toBe('CHECKED_IN');
    expect(p.history.filter((h) => h.kind === 'CHECK_IN')).toHaveLength(1);

    // Read again after the suppression window: now it is a real second scan, and it says when and by whom.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 5100)));
    await wedgeScan(page, grace.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('ALREADY_CHECKED_IN');
    expect(await verdictOf(page).innerText()).toMatch(/ALREADY IN[\s\S]*Grace Hopper[\s\S]*Already checked in at \d{1,2}:\d\d [ap]m by Pier phone/);
    // One clock: the recent scans and the top bar's "heard" read the company's 12-hour en-AU clock, as the verdict does.
    const recent = await page.getByRole('list', { name: 'Last scans' }).innerText();
    expect(recent).toMatch(/\b\d{1,2}:\d\d:\d\d [ap]m\b/);
    expect(recent).not.toMatch(/\b\d{1,2}:\d\d:\d\d(?! [ap]m)/);
    expect(await page.getByRole('status', { name: 'Connection' }).innerText()).toMatch(/heard \d{1,2}:\d\d:\d\d [ap]m/);
    await shot(page, 'verdict-already-in');
    await wedgeScan(page, 'NOT-A-REAL-CODE-42');
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('UNKNOWN_CODE');
    await shot(page, 'verdict-unknown');
    await page.getByRole('button', { name: 'Next scan' }).click();
    await page.getByRole('list', { name: 'Last scans' }).scrollIntoViewIfNeeded();
    await shot(page, 'recent-scans');
    await context.close();
  });

  it('keeps scanning with no network: local verdicts, and a reload shows the scanner from the service worker with the queue intact; delivered once when back', { timeout: 60_000 }, async () => {
    const context = await browser.newContext();
    const page = await openScanner(context, baseUrl, t.keys.checkin);
    // The service worker controls the page, so its shell is cached, before the network goes.
    await shellCached(page);
    const [, alan, ada] = cruise.orders;
    // No network at all. The browser's offline flag alone is not enough: it is DevTools emulation per
    // target, and a page a service worker controls can still reach the server past it around a reload
    // (a queued scan reached the engine in 1 of 12 tries, while every request the page reported failed).
    // With the server down, nothing can reach the engine, and nothing but the service worker can answer /scan.
    await context.setOffline(true);
    await web.stopServer();
    await expect.poll(() => page.getByRole('status', { name: 'Connection' }).innerText()).toMatch(/Offline/);
    await wedgeScan(page, alan.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('CHECKED_IN');
    await wedgeScan(page, ada.codes[0]);
    await expect.poll(() => verdictOf(page).innerText()).toMatch(/Ada Lovelace/);
    await expect.poll(() => waiting(page).innerText()).toMatch(/^2 waiting/);
    await shot(page, 'offline-two-waiting');

    // The shell comes from the service worker, the queue and the manifests from IndexedDB.
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await page.getByRole('status', { name: 'Scanner state' }).getByText('Ready to scan').waitFor();
    await expect.poll(() => waiting(page).innerText()).toMatch(/^2 waiting/);
    expect(await page.getByRole('status', { name: 'Connection' }).innerText()).toMatch(/Offline/);
    for (const who of [alan, ada]) expect((await participantOnServer(t, cruise.sessionId, who.participantIds[0])).checkin.state).toBe('EXPECTED');
    // Still decided locally after the reload: Alan is already in on this device, and nothing more is queued.
    await wedgeScan(page, alan.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('ALREADY_CHECKED_IN');
    expect(await waiting(page).innerText()).toMatch(/^2 waiting/);

    await web.startServer();
    await context.setOffline(false);
    await expect.poll(() => waiting(page).innerText(), { timeout: 15_000 }).toMatch(/^0 waiting/);
    await expect.poll(() => page.getByRole('status', { name: 'Connection' }).innerText()).toMatch(/Online/);
    for (const who of [alan, ada]) {
      const p = await participantOnServer(t, cruise.sessionId, who.participantIds[0]);
      expect(p.checkin.state).toBe('CHECKED_IN');
      expect(p.history.filter((h) => h.kind === 'CHECK_IN')).toHaveLength(1);
    }
    await context.close();
  });

  it('never sends a refusal decided on the device, so it cannot admit anyone later (the office undid a check-in meanwhile)', { timeout: 60_000 }, async () => {
    const [, , , , hedy] = cruise.orders;
    const participantId = hedy.participantIds[0];
    const checkIn = { eventId: randomUUID(), kind: 'CHECK_IN', sessionId: cruise.sessionId, participantId, occurredAt: '2030-01-01T00:00:00Z', device: 'Desk' };
    expect((await t.call('POST', '/v1/manifest/events', { body: { events: [checkIn] } })).body.events[0].result).toBe('RECORDED');
    const context = await browser.newContext();
    const page = await openScanner(context, baseUrl, t.keys.checkin);
    await context.setOffline(true);
    await web.stopServer();
    await wedgeScan(page, hedy.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('ALREADY_CHECKED_IN');
    expect(await waiting(page).innerText()).toMatch(/^0 waiting/);
    // Meanwhile the office undoes her check-in. Were the refusal queued as a scan, the engine would
    // decide it afresh on arrival and check her in: the guide's "no" would become a "yes".
    const undo = { eventId: randomUUID(), kind: 'UNDO', sessionId: cruise.sessionId, undoesEventId: checkIn.eventId, occurredAt: '2030-01-01T00:01:00Z', device: 'Desk' };
    expect((await t.call('POST', '/v1/manifest/events', { body: { events: [undo] } })).body.events[0].result).toBe('RECORDED');
    await web.startServer();
    await context.setOffline(false);
    await expect.poll(() => page.getByRole('status', { name: 'Connection' }).innerText(), { timeout: 20_000 }).toMatch(/Online/);
    expect(await waiting(page).innerText()).toMatch(/^0 waiting/);
    const p = await participantOnServer(t, cruise.sessionId, participantId);
    expect(p.checkin.state).toBe('EXPECTED');
    expect(p.history.map((h) => h.kind)).toEqual(['CHECK_IN', 'UNDO']);
    await context.close();
  });

  it('has its sound ready before the first scan, and sounds a verdict only once the verdict is on screen', async () => {
    const context = await browser.newContext();
    // The page's AudioContext, watched: when it is made, and whether the verdict is in the page when a tone starts.
    await context.addInitScript(() => {
      const seen = { made: 0, tones: [] as { verdictShown: boolean }[] };
      (window as unknown as { audioSeen: typeof seen }).audioSeen = seen;
      const Real = window.AudioContext;
      window.AudioContext = class extends Real {
        constructor(options?: AudioContextOptions) {
          super(options);
          seen.made++;
        }
        override createOscillator() {
          seen.tones.push({ verdictShown: document.querySelector('.verdict') !== null });
          return super.createOscillator();
        }
      };
    });
    const page = await openScanner(context, baseUrl, t.keys.checkin);
    const seen = () => page.evaluate(() => (window as unknown as { audioSeen: { made: number; tones: { verdictShown: boolean }[] } }).audioSeen);
    // Made as the screen opened: the first scan does not pay for setting up the audio device,
    // and its first (silent) tone played then too.
    await expect.poll(async () => (await seen()).made, { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await seen()).tones.length).toBe(1);
    const [, , , claude] = cruise.orders;
    await wedgeScan(page, claude.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('CHECKED_IN');
    await expect.poll(async () => (await seen()).tones.length).toBe(3); // the two-note chime for "in"
    expect((await seen()).tones.slice(1).every((tone) => tone.verdictShown)).toBe(true);
    await wedgeScan(page, 'NOT-A-REAL-CODE-43');
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('UNKNOWN_CODE');
    await expect.poll(() => verdictOf(page).innerText(), { timeout: 5_000 }).not.toMatch(/CHECKING/);
    await expect.poll(async () => (await seen()).tones.length).toBe(5);
    expect((await seen()).made).toBe(1);
    await context.close();
  });

  it('checks in some of a booking with one action', async () => {
    const context = await browser.newContext();
    const page = await openScanner(context, baseUrl, t.keys.checkin, '/scan', { width: 1280, height: 800 });
    const [booking] = walk.orders;
    await wedgeScan(page, booking.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('CHECKED_IN');
    // Nobody else is ticked for the guide: they tick whom they see.
    expect(await page.getByRole('group', { name: 'Also in this booking (2 people)' }).getByRole('checkbox', { checked: true }).count()).toBe(0);
    await page.getByRole('checkbox', { name: 'Barbara Liskov' }).check();
    await shot(page, 'verdict-group');
    await page.getByRole('button', { name: 'Check in 1 ticked' }).click();
    await expect.poll(() => waiting(page).innerText()).toMatch(/^0 waiting/);
    const states = await Promise.all(booking.participantIds.map(async (id) => (await participantOnServer(t, walk.sessionId, id)).checkin.state));
    expect(states).toEqual(['CHECKED_IN', 'CHECKED_IN', 'EXPECTED']);
    await context.close();
  });

  it('refuses a wrong session and admits only with a deliberate override, which the engine records', async () => {
    const context = await browser.newContext();
    const page = await openScanner(context, baseUrl, t.keys.checkin, `/scan?session=${cruise.sessionId}`);
    const [margaret] = kayak.orders;
    await wedgeScan(page, margaret.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('WRONG_SESSION');
    expect(await verdictOf(page).innerText()).toMatch(/WRONG SESSION[\s\S]*Margaret Hamilton[\s\S]*Booked for Kayak Tour at 6:00 pm/);
    await shot(page, 'verdict-wrong-session');
    expect((await participantOnServer(t, kayak.sessionId, margaret.participantIds[0])).checkin.state).toBe('EXPECTED');
    await page.getByRole('button', { name: 'Admit anyway (booked 6:00 pm)' }).click();
    await expect.poll(() => waiting(page).innerText()).toMatch(/^0 waiting/);
    const p = await participantOnServer(t, kayak.sessionId, margaret.participantIds[0]);
    expect(p.checkin.state).toBe('CHECKED_IN');
    expect(p.history.find((h) => h.kind === 'CHECK_IN')?.override?.rules).toEqual(['WRONG_SESSION']);

    const [frances] = sunset.orders;
    await wedgeScan(page, frances.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('WRONG_SESSION');
    await page.goto(`${baseUrl}/scan?session=${sunset.sessionId}`);
    await page.getByText('Ready to scan').waitFor();
    await wedgeScan(page, frances.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('NOT_PAID');
    expect(await verdictOf(page).innerText()).toMatch(/NOT PAID[\s\S]*Frances Allen[\s\S]*still to pay/);
    await shot(page, 'verdict-not-paid');
    await context.close();
  });

  it('serving all of today, refuses a ticket for another day that the engine is asked about, and checks nobody in', async () => {
    const dayTrip = await aDepartureWithBookings(t, 'Day Trip', '2030-01-03 09:00:00', [['Lin Elsewhen']]);
    const context = await browser.newContext();
    const page = await openScanner(context, baseUrl, t.keys.checkin);
    const [lin] = dayTrip.orders;
    await wedgeScan(page, lin.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind'), { timeout: 5_000 }).toBe('WRONG_SESSION');
    expect(await verdictOf(page).innerText()).toMatch(/WRONG SESSION[\s\S]*Another day: this booking is for Day Trip at Thu, 3 Jan 2030, 9:00 am/);
    await expect.poll(() => waiting(page).innerText()).toMatch(/^0 waiting/);
    expect((await participantOnServer(t, dayTrip.sessionId, lin.participantIds[0])).checkin.state).toBe('EXPECTED');
    await context.close();
  });

  it('shows a correction when the engine disagrees (the booking was cancelled while the device was offline)', async () => {
    const context = await browser.newContext();
    const page = await openScanner(context, baseUrl, t.keys.checkin);
    const [, katherine] = kayak.orders;
    await context.setOffline(true);
    const cancelled = await t.call('DELETE', `/v1/bookings/${katherine.orderNumber}`);
    expect(cancelled.status).toBe(200);
    await wedgeScan(page, katherine.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('CHECKED_IN');
    await context.setOffline(false);
    const correction = page.getByRole('list', { name: 'Corrections' });
    await expect.poll(() => correction.innerText(), { timeout: 15_000 }).toMatch(/Correction: Katherine Johnson[\s\S]*not checked in: booking cancelled/);
    await page.getByRole('button', { name: 'Next scan' }).click();
    await shot(page, 'correction');
    expect((await participantOnServer(t, kayak.sessionId, katherine.participantIds[0]).catch(() => null))?.checkin.state ?? 'not listed').not.toBe('CHECKED_IN');
    await context.close();
  });
});
