import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../fixtures/app';
import { serveWebUi } from '../fixtures/browser';
import { aDepartureWithBookings, openScanner, participantOnServer, verdictOf } from '../fixtures/scanner';
import { writeQrY4m } from '../fixtures/y4m';

// Chromium's fake camera plays a generated video of a participant's QR code.
let t: TestApp;
let web: Awaited<ReturnType<typeof serveWebUi>>;
let dir: string;
let tour: Awaited<ReturnType<typeof aDepartureWithBookings>>;

beforeAll(async () => {
  t = await startTestApp();
  tour = await aDepartureWithBookings(t, 'Harbour Cruise', '2030-01-01 14:00:00', [['Grace Hopper'], ['Alan Turing']]);
  dir = mkdtempSync(join(tmpdir(), 'tourdesk-camera-'));
  const video = join(dir, 'grace.y4m');
  writeQrY4m(video, tour.orders[0].codes[0]);
  web = await serveWebUi(t.engine, ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`]);
});
afterAll(async () => {
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
});
