import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../fixtures/app';
import { aProduct } from '../fixtures/builders';
import { serveWebUi } from '../fixtures/browser';

let t: TestApp;
let web: Awaited<ReturnType<typeof serveWebUi>>;
let baseUrl: string;
let browser: Browser;

beforeAll(async () => {
  t = await startTestApp();
  await t.call('POST', '/v1/products', { body: aProduct({ name: 'Lighthouse Walk' }) });
  web = await serveWebUi(t.engine);
  ({ baseUrl, browser } = web);
});
afterAll(async () => {
  await web?.close();
  await t?.close();
});

describe('the web UI served by tourdesk serve', () => {
  it('asks for the API key, then shows the departure board from the API', async () => {
    const page = await browser.newPage();
    await page.goto(baseUrl);
    await page.getByLabel('API key').fill(t.keys.supplier);
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => page.getByRole('heading', { name: /^Today · / }).count()).toBe(1);
    await expect.poll(() => page.getByText(/^No departures on /).count()).toBe(1);
    if (process.env.TOURDESK_SCREENSHOTS) await page.screenshot({ path: `${process.env.TOURDESK_SCREENSHOTS}/products.png` });
    await page.close();
  });

  it('says so when the key is wrong, and stays on the key form', async () => {
    const page = await browser.newPage();
    await page.goto(baseUrl);
    await page.getByLabel('API key').fill('td_wrong_key');
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not valid/);
    if (process.env.TOURDESK_SCREENSHOTS) await page.screenshot({ path: `${process.env.TOURDESK_SCREENSHOTS}/key-form.png` });
    await page.close();
  });
});
