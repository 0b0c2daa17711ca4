import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixedClock, type TestApp } from '../fixtures/app';
import { ensureWebBuild, serveWebUi } from '../fixtures/browser';
import { aDepartureWithBookings, verdictOf, wedgeScan } from '../fixtures/scanner';
import { aSyncNode, exchange, type SyncNode } from '../sync/nodes';
import { createServer, LOOPBACK_NAMES, type TourDeskServer } from '../../main/api/server';

/**
 * Issue 36, "every device signs its work", across instances: two phones paired to a hub under their
 * own names check guests in; after a sync, a second instance's desk page shows each phone's name
 * beside the guest it let in, at the time the company's clock (12-hour en-AU) reads.
 */
// Both instances' clocks are 09:00 on 1 February 2030 in Sydney: the 14:00 departure is today's.
const NOW = '2030-01-31T22:00:00Z';
let hub: SyncNode;
let desk: SyncNode | undefined;
let hubWeb: Awaited<ReturnType<typeof serveWebUi>>;
let deskServer: TourDeskServer | undefined;
let browser: Browser;
const shots = process.env.TOURDESK_SCREENSHOTS;
const shot = (page: Page, name: string) => (shots ? page.screenshot({ path: `${shots}/${name}.png` }) : Promise.resolve());

beforeAll(async () => {
  hub = await aSyncNode('hub', { instanceNo: 1, clock: fixedClock(NOW) });
  hubWeb = await serveWebUi(hub.engine);
  ({ browser } = hubWeb);
}, 240_000);
afterAll(async () => {
  await hubWeb?.close();
  await deskServer?.close();
  await desk?.close();
  await hub?.close();
});

/** The hub as the departure fixture calls it (its supplier key). */
const hubApp = () => ({ call: (method: string, path: string, options?: { body?: unknown }) => hub.call(method, path, options?.body) }) as unknown as TestApp;

/** A phone paired to the hub under `name`, keeping that name, with its copy of today held. */
async function aPairedPhone(name: string): Promise<Page> {
  const link: string = (await hub.call('POST', '/v1/pairing/checkin', { name, origin: 'https://192.168.1.20:8443' })).body.pairing.url;
  const context = await browser.newContext({ isMobile: true, hasTouch: true, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${hubWeb.baseUrl}/scan${new URL(link).hash}`);
  await page.getByRole('status', { name: 'Scanner state' }).getByText('Ready to scan').waitFor();
  const served = page.locator('.served');
  await expect.poll(async () => Number(await served.getAttribute('data-day')) > 0 && (await served.getAttribute('data-held')) === (await served.getAttribute('data-day'))).toBe(true);
  const naming = page.getByRole('form', { name: 'Name this phone' });
  expect(await naming.getByLabel('Device name').inputValue()).toBe(name);
  await naming.getByRole('button', { name: 'Save the name' }).tap();
  await naming.waitFor({ state: 'detached' });
  return page;
}

/** The second instance's desk, signed in with its own supplier key, on a server of its own. */
async function theSecondDesk(node: SyncNode, path: string): Promise<Page> {
  deskServer = await createServer({ engine: node.engine, allowedHosts: LOOPBACK_NAMES, webRoot: await ensureWebBuild() });
  await deskServer.listen({ host: '127.0.0.1', port: 0 });
  const address = deskServer.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(baseUrl);
  await page.getByLabel('API key').fill(node.key);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('heading', { name: /^Today · / }).waitFor();
  await page.goto(`${baseUrl}${path}`);
  return page;
}

describe('a phone’s name on another instance', () => {
  it('shows, after a sync, each phone’s name beside the guest it checked in on the second instance’s desk', { timeout: 180_000 }, async () => {
    const cruise = await aDepartureWithBookings(hubApp(), 'Harbour Cruise', '2030-02-01 14:00:00', [['Grace Hopper'], ['Alan Turing']]);
    const [grace, alan] = cruise.orders;
    const anna = await aPairedPhone('Anna’s phone');
    const ben = await aPairedPhone('Ben’s phone');
    for (const [phone, code] of [[anna, grace.codes[0]], [ben, alan.codes[0]]] as const) {
      await wedgeScan(phone, code);
      await expect.poll(() => verdictOf(phone).getAttribute('data-kind')).toBe('CHECKED_IN');
      await expect.poll(() => phone.getByLabel('Waiting to send').innerText(), { timeout: 15_000 }).toMatch(/^0 waiting/);
    }

    desk = await aSyncNode('desk', { instanceNo: 2, hub, clock: fixedClock(NOW) });
    await exchange(desk, hub);
    const page = await theSecondDesk(desk, `/sessions/${cruise.sessionId}`);
    const rowOf = (name: string) => page.getByRole('listitem', { name, exact: true });
    await expect.poll(() => rowOf('Grace Hopper').innerText()).toMatch(/Checked in \d{1,2}:\d\d\s[ap]m · Anna’s phone/);
    await expect.poll(() => rowOf('Alan Turing').innerText()).toMatch(/Checked in \d{1,2}:\d\d\s[ap]m · Ben’s phone/);
    await shot(page, 'signed-sync-second-desk');
    // The same history as the hub's: device and key name travelled with each check-in.
    const onDesk = (await desk.call('GET', `/v1/manifest?sessionId=${cruise.sessionId}`)).body.manifest;
    const checkins = onDesk.bookings.flatMap((b: { participants: { name: string; checkin: { device: string; by: string } }[] }) => b.participants.map((p) => [p.name, p.checkin.device, p.checkin.by]));
    expect(checkins).toEqual(expect.arrayContaining([['Grace Hopper', 'Anna’s phone', 'Anna’s phone'], ['Alan Turing', 'Ben’s phone', 'Ben’s phone']]));
  });
});
