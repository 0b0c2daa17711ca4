import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../fixtures/app';
import { serveWebUi } from '../fixtures/browser';
import { aDepartureWithBookings, participantOnServer, verdictOf, wedgeScan } from '../fixtures/scanner';

/** Issue 36, "every device signs its work": two phones paired under their own names, read on the desk. */
// The test clock starts 2030-01-01T00:00Z: 11:00 in Sydney, so "today" is 2030-01-01.
let t: TestApp;
let web: Awaited<ReturnType<typeof serveWebUi>>;
let baseUrl: string;
let browser: Browser;
let cruise: Awaited<ReturnType<typeof aDepartureWithBookings>>;
const shots = process.env.TOURDESK_SCREENSHOTS;
const shot = (page: Page, name: string) => (shots ? page.screenshot({ path: `${shots}/${name}.png` }) : Promise.resolve());

beforeAll(async () => {
  t = await startTestApp();
  cruise = await aDepartureWithBookings(t, 'Harbour Cruise', '2030-01-01 14:00:00', [['Grace Hopper'], ['Alan Turing'], ['Ada Lovelace'], ['Hedy Lamarr']]);
  web = await serveWebUi(t.engine);
  ({ baseUrl, browser } = web);
}, 240_000);
afterAll(async () => {
  await web?.close();
  await t?.close();
});

const phone = () => browser.newContext({ isMobile: true, hasTouch: true, viewport: { width: 390, height: 844 } });

/** The desk's own screen, signed in with the supplier key. */
async function theDesk(path: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(baseUrl);
  await page.getByLabel('API key').fill(t.keys.supplier);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('heading', { name: /^Today · / }).waitFor();
  await page.goto(`${baseUrl}${path}`);
  return page;
}

/** A pairing link as the phone opens it: on this test's server, with the fragment the desk made. */
async function openPairingLink(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/scan${new URL(url).hash}`);
  await page.getByRole('status', { name: 'Scanner state' }).getByText('Ready to scan').waitFor();
  const served = page.locator('.served');
  await expect.poll(async () => Number(await served.getAttribute('data-day')) > 0 && (await served.getAttribute('data-held')) === (await served.getAttribute('data-day'))).toBe(true);
  return page;
}

describe('every device signs its work', () => {
  it('pairs two phones under their own names, and the desk shows each name beside the guests it checked in', { timeout: 120_000 }, async () => {
    // The desk asks the phone's name and makes its key and link.
    const desk = await theDesk('/pair');
    const pair = desk.getByRole('region', { name: 'Pair a guide’s phone' });
    await pair.getByLabel('Name of the phone').fill('Anna’s phone');
    await pair.getByLabel('Address the phone opens (optional)').fill('https://192.168.1.20:8443');
    const answered = desk.waitForResponse((r) => r.url().endsWith('/v1/pairing/checkin'));
    await pair.getByRole('button', { name: 'Make a pairing QR code' }).click();
    const annaLink: string = (await (await answered).json()).pairing.url;
    await desk.getByRole('img', { name: 'QR code that signs Anna’s phone in' }).waitFor();
    await shot(desk, 'device-names-pair-desk');

    // Anna's phone: asked to keep or change the name, the key's name filled in; it keeps it.
    const annaContext = await phone();
    const anna = await openPairingLink(annaContext, annaLink);
    const naming = anna.getByRole('form', { name: 'Name this phone' });
    expect(await naming.getByLabel('Device name').inputValue()).toBe('Anna’s phone');
    await shot(anna, 'device-names-phone-asks');
    await naming.getByRole('button', { name: 'Save the name' }).tap();
    await naming.waitFor({ state: 'detached' });
    const [grace, alan] = cruise.orders;
    await wedgeScan(anna, grace.codes[0]);
    await expect.poll(() => verdictOf(anna).getAttribute('data-kind')).toBe('CHECKED_IN');

    // The second phone was paired under its key's name only; the guide names it Ben's phone.
    const benLink = (await t.call('POST', '/v1/pairing/checkin', { body: { name: 'Pier key 2', origin: 'https://192.168.1.20:8443' } })).body.pairing.url;
    const benContext = await phone();
    const ben = await openPairingLink(benContext, benLink);
    const benNaming = ben.getByRole('form', { name: 'Name this phone' });
    await benNaming.getByLabel('Device name').fill('Ben’s phone');
    await benNaming.getByRole('button', { name: 'Save the name' }).tap();
    await benNaming.waitFor({ state: 'detached' });
    // A reload asks no more: the phone keeps its name.
    await ben.reload();
    await ben.getByRole('status', { name: 'Scanner state' }).getByText('Ready to scan').waitFor();
    expect(await ben.getByRole('form', { name: 'Name this phone' }).count()).toBe(0);
    await wedgeScan(ben, alan.codes[0]);
    await expect.poll(() => verdictOf(ben).getAttribute('data-kind')).toBe('CHECKED_IN');
    // Grace again, on Ben's phone: it was Anna's phone that let her in.
    await wedgeScan(ben, grace.codes[0]);
    await expect.poll(() => verdictOf(ben).innerText()).toMatch(/Already checked in at \d{1,2}:\d\d [ap]m by Anna’s phone/);
    await shot(ben, 'device-names-phone-already-in');
    for (const p of [anna, ben]) await expect.poll(() => p.getByLabel('Waiting to send').innerText()).toMatch(/^0 waiting/);

    // The engine kept each device and key name; the desk's manifest shows each phone's name.
    const graceOnServer = (await participantOnServer(t, cruise.sessionId, grace.participantIds[0])) as unknown as { checkin: { device: string; by: string } };
    expect(graceOnServer.checkin).toMatchObject({ device: 'Anna’s phone', by: 'Anna’s phone' });
    const alanOnServer = (await participantOnServer(t, cruise.sessionId, alan.participantIds[0])) as unknown as { checkin: { device: string; by: string } };
    expect(alanOnServer.checkin).toMatchObject({ device: 'Ben’s phone', by: 'Pier key 2' });
    await desk.goto(`${baseUrl}/sessions/${cruise.sessionId}`);
    const rowOf = (name: string) => desk.getByRole('listitem', { name, exact: true });
    await expect.poll(() => rowOf('Grace Hopper').innerText()).toMatch(/Checked in \d{1,2}:\d\d\s[ap]m · Anna’s phone/);
    await expect.poll(() => rowOf('Alan Turing').innerText()).toMatch(/Checked in \d{1,2}:\d\d\s[ap]m · Ben’s phone/);
    await shot(desk, 'device-names-desk-manifest');
    await Promise.all([annaContext.close(), benContext.close(), desk.close()]);
  });

  it('renames a phone from the scanner’s menu, and its next check-in carries the new name', { timeout: 60_000 }, async () => {
    const link = (await t.call('POST', '/v1/pairing/checkin', { body: { name: 'Loaner', origin: 'https://192.168.1.20:8443' } })).body.pairing.url;
    const context = await phone();
    const page = await openPairingLink(context, link);
    // The first touch turns the sound on and its hint goes (the page moves up): touched before the menu.
    await page.locator('.served').tap();
    await page.getByText('This device', { exact: true }).tap();
    await shot(page, 'device-names-rename');
    const field = page.getByLabel('Device name (saved with every scan)');
    expect(await field.inputValue()).toBe('Loaner');
    await field.fill('Cleo’s phone');
    await field.blur();
    // Named here, the pairing's question is answered: it asks no more.
    expect(await page.getByRole('form', { name: 'Name this phone' }).count()).toBe(0);
    const [, , ada] = cruise.orders;
    await wedgeScan(page, ada.codes[0]);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind')).toBe('CHECKED_IN');
    await expect.poll(() => page.getByLabel('Waiting to send').innerText()).toMatch(/^0 waiting/);
    const adaOnServer = (await participantOnServer(t, cruise.sessionId, ada.participantIds[0])) as unknown as { checkin: { device: string; by: string } };
    expect(adaOnServer.checkin).toMatchObject({ device: 'Cleo’s phone', by: 'Loaner' });
    await context.close();
  });

  it('signs the desk’s own check-ins with its instance’s name until the desk names itself', { timeout: 60_000 }, async () => {
    const desk = await theDesk(`/sessions/${cruise.sessionId}`);
    // Shown as the field's placeholder once the engine has said which instance this is.
    await expect.poll(() => desk.getByLabel('Device name').getAttribute('placeholder')).toBe('Instance 1');
    const [, , , hedy] = cruise.orders;
    await desk.getByRole('button', { name: 'Check in Hedy Lamarr' }).click();
    await expect.poll(async () => (await participantOnServer(t, cruise.sessionId, hedy.participantIds[0])).checkin.state).toBe('CHECKED_IN');
    const onServer = (await participantOnServer(t, cruise.sessionId, hedy.participantIds[0])) as unknown as { checkin: { device: string; by: string } };
    expect(onServer.checkin).toMatchObject({ device: 'Instance 1', by: 'Test supplier' });
    await expect.poll(() => desk.getByRole('listitem', { name: 'Hedy Lamarr', exact: true }).innerText()).toMatch(/Checked in \d{1,2}:\d\d\s[ap]m · Instance 1/);
    await desk.close();
  });
});
