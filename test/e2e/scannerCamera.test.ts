import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import QRCode from 'qrcode';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../fixtures/app';
import { launchChromium, serveWebUi } from '../fixtures/browser';
import { aDepartureWithBookings, openScanner, participantOnServer, shellCached, verdictOf } from '../fixtures/scanner';
import { writeQrY4m } from '../fixtures/y4m';

// Chromium's fake camera plays a generated video of a participant's QR code.
let t: TestApp;
let web: Awaited<ReturnType<typeof serveWebUi>>;
let dir: string;
let tour: Awaited<ReturnType<typeof aDepartureWithBookings>>;
/** A second Chromium whose fake capture offers three cameras (a file-fed fake camera is always just one). */
let threeCameras: Browser;

beforeAll(async () => {
  t = await startTestApp();
  tour = await aDepartureWithBookings(t, 'Harbour Cruise', '2030-01-01 14:00:00', [['Grace Hopper'], ['Alan Turing'], ['Ada Lovelace']]);
  dir = mkdtempSync(join(tmpdir(), 'tourdesk-camera-'));
  const video = join(dir, 'grace.y4m');
  writeQrY4m(video, tour.orders[0].codes[0]);
  web = await serveWebUi(t.engine, ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`]);
  threeCameras = await launchChromium(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream=device-count=3']);
});
// A test that stopped the server to take the network away leaves it running for the next, even when it fails.
afterEach(async () => {
  await web?.startServer();
});
afterAll(async () => {
  await threeCameras?.close();
  await web?.close();
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('camera scanning in Chromium', () => {
  it('decodes a QR code held in front of the camera with the bundled decoder and checks the participant in, once', async () => {
    const context = await web.browser.newContext({ permissions: ['camera'] });
    const wasm: string[] = [];
    context.on('request', (r) => r.url().endsWith('.wasm') && wasm.push(r.url()));
    const page = await openScanner(context, web.baseUrl, t.keys.checkin);
    await page.getByRole('button', { name: 'Start camera' }).click();
    await expect.poll(() => verdictOf(page).getAttribute('data-kind'), { timeout: 20_000 }).toBe('CHECKED_IN');
    expect(await verdictOf(page).innerText()).toMatch(/Grace Hopper/);
    await expect.poll(() => page.getByLabel('Waiting to send').innerText()).toMatch(/^0 waiting/);
    const grace = await participantOnServer(t, tour.sessionId, tour.orders[0].participantIds[0]);
    expect(grace.checkin.state).toBe('CHECKED_IN');
    // The code stays in view: suppressed, not scanned again and again.
    await page.waitForTimeout(1500);
    expect((await participantOnServer(t, tour.sessionId, tour.orders[0].participantIds[0])).history.filter((h) => h.kind === 'CHECK_IN')).toHaveLength(1);
    // The decoder came from this server, not a CDN.
    expect(wasm.length).toBeGreaterThan(0);
    expect(wasm.every((url) => url.startsWith(web.baseUrl))).toBe(true);
    await context.close();
  }, 60_000);

  it('offers a camera picker when there are several cameras, and remembers the choice on the device', { timeout: 60_000 }, async () => {
    const context = await threeCameras.newContext({ permissions: ['camera'] });
    const page = await openScanner(context, web.baseUrl, t.keys.checkin);
    await page.getByRole('button', { name: 'Start camera' }).click();
    const picker = page.getByRole('combobox', { name: 'Camera to use' });
    await picker.waitFor();
    expect(await picker.locator('option').allInnerTexts()).toEqual(['Back camera', 'fake_device_0', 'fake_device_1', 'fake_device_2']);
    await picker.selectOption({ label: 'fake_device_2' });
    await expect.poll(() => cameraInUse(page)).toBe('fake_device_2');
    // Remembered: after a reload the camera comes back on, with the camera picked.
    await page.reload();
    await page.getByRole('status', { name: 'Scanner state' }).getByText('Ready to scan').waitFor();
    await expect.poll(() => cameraInUse(page)).toBe('fake_device_2');
    expect(await page.getByRole('combobox', { name: 'Camera to use' }).locator('option:checked').innerText()).toBe('fake_device_2');
    // Back to the default (the back camera, by facing mode): the choice is forgotten.
    await page.getByRole('combobox', { name: 'Camera to use' }).selectOption({ label: 'Back camera' });
    await expect.poll(() => page.evaluate(() => localStorage.getItem('tourdesk.cameraId'))).toBeNull();
    await context.close();
  });

  it('shows a torch control only when the camera reports a torch, and switches it through the track', { timeout: 60_000 }, async () => {
    // Chromium's fake cameras have no torch: without one, no control.
    const plain = await threeCameras.newContext({ permissions: ['camera'] });
    const page = await openScanner(plain, web.baseUrl, t.keys.checkin);
    await page.getByRole('button', { name: 'Start camera' }).click();
    await page.getByRole('combobox', { name: 'Camera to use' }).waitFor();
    expect(await page.getByRole('button', { name: /Torch/ }).count()).toBe(0);
    await plain.close();

    // A camera that reports one (the track's capability is the only thing stubbed): the control appears
    // and asks the track for the torch.
    const torchContext = await threeCameras.newContext({ permissions: ['camera'] });
    await torchContext.addInitScript(() => {
      const asked: unknown[] = [];
      (window as unknown as { torchAsked: unknown[] }).torchAsked = asked;
      const capabilities = MediaStreamTrack.prototype.getCapabilities;
      MediaStreamTrack.prototype.getCapabilities = function (this: MediaStreamTrack) {
        return { ...capabilities.call(this), torch: true } as MediaTrackCapabilities;
      };
      // The first request works; the second fails, as a torch busy elsewhere does.
      MediaStreamTrack.prototype.applyConstraints = async function (constraints?: MediaTrackConstraints) {
        asked.push(constraints);
        if (asked.length > 1) throw new DOMException('Torch busy', 'NotReadableError');
      };
    });
    const withTorch = await openScanner(torchContext, web.baseUrl, t.keys.checkin);
    await withTorch.getByRole('button', { name: 'Start camera' }).click();
    const torch = withTorch.getByRole('button', { name: 'Torch on' });
    await torch.click();
    await withTorch.getByRole('button', { name: 'Torch off', pressed: true }).waitFor();
    expect(await withTorch.evaluate(() => (window as unknown as { torchAsked: unknown[] }).torchAsked)).toEqual([{ advanced: [{ torch: true }] }]);
    // A refused switch says so, and the control still shows the torch on.
    await withTorch.getByRole('button', { name: 'Torch off' }).click();
    await withTorch.getByRole('alert').getByText('The torch could not be switched off').waitFor();
    expect(await withTorch.getByRole('button', { name: 'Torch off' }).getAttribute('aria-pressed')).toBe('true');
    await torchContext.close();
  });

  it('scans a photo of a ticket with the bundled decoder, with no network, and delivers the check-in when back', { timeout: 60_000 }, async () => {
    const context = await web.browser.newContext();
    const page = await openScanner(context, web.baseUrl, t.keys.checkin);
    await shellCached(page);
    const [, alan] = tour.orders;
    const ticket = join(dir, 'alan.png');
    await QRCode.toFile(ticket, alan.codes[0], { type: 'png', width: 360 });
    const blank = join(dir, 'blank.png');
    await sharp({ create: { width: 360, height: 360, channels: 3, background: '#ffffff' } }).png().toFile(blank);
    const photo = page.locator('.camera input[type=file]');

    // No network: the decoder (its chunk and wasm) comes from the service worker's cache.
    await context.setOffline(true);
    await web.stopServer();
    await photo.setInputFiles(blank);
    await page.getByRole('alert').getByText('No code found in this photo').waitFor();
    await photo.setInputFiles(ticket);
    await expect.poll(() => verdictOf(page).getAttribute('data-kind'), { timeout: 20_000 }).toBe('CHECKED_IN');
    expect(await verdictOf(page).innerText()).toMatch(/Alan Turing/);
    await expect.poll(() => page.getByLabel('Waiting to send').innerText()).toMatch(/^1 waiting/);
    expect((await participantOnServer(t, tour.sessionId, alan.participantIds[0])).checkin.state).toBe('EXPECTED');

    await web.startServer();
    await context.setOffline(false);
    await expect.poll(() => page.getByLabel('Waiting to send').innerText(), { timeout: 15_000 }).toMatch(/^0 waiting/);
    const p = await participantOnServer(t, tour.sessionId, alan.participantIds[0]);
    expect(p.checkin.state).toBe('CHECKED_IN');
    expect(p.history.filter((h) => h.kind === 'CHECK_IN')).toHaveLength(1);
    await context.close();
  });
});

/** The label of the camera the scanner's video is playing. */
const cameraInUse = (page: Page) => page.evaluate(() => ((document.querySelector('.camera video') as HTMLVideoElement | null)?.srcObject as MediaStream | null)?.getVideoTracks()[0]?.label ?? null);
