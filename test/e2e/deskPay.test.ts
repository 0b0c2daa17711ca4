import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../fixtures/app';
import { aBooking, aScannableProduct, aSession } from '../fixtures/builders';
import { serveWebUi } from '../fixtures/browser';
import { signedInPage } from '../fixtures/signedInPage';

// Issue 37, the desk takes balances and prints tickets: take payment online and offline, "Take and
// check in" from the manifest, tickets and receipts to print, the booking detail's states. The test
// clock is 2030-01-01T00:00Z: 11:00 in Sydney, the company's timezone. Screenshots go to SHOTS.
let t: TestApp;
let web: Awaited<ReturnType<typeof serveWebUi>>;
let baseUrl: string;
let browser: Browser;
let sessionId: number;
const orders: Record<'nora' | 'omar' | 'pia', string> = { nora: '', omar: '', pia: '' };
const SHOTS = process.env.TOURDESK_SCREENSHOTS ?? '/tmp/desk-pay-shots';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

beforeAll(async () => {
  t = await startTestApp();
  const product = await t.call('POST', '/v1/products', { body: aScannableProduct({ name: 'Reef Day', checkinRequiresPayment: true }) });
  const productCode: string = product.body.product.productCode;
  sessionId = (await t.call('POST', '/v1/availability', { body: aSession(productCode, { startTimeLocal: '2030-01-01 14:00:00', seats: 30 }) })).body.session.id;
  const book = async (first: string, last: string, people: number, paid: number) => {
    const participants = Array.from({ length: people }, (_, i) => ({ fields: [{ label: 'Full Name', value: i === 0 ? `${first} ${last}` : `${first}'s guest ${i}` }] }));
    const payments = paid ? [{ type: 'CASH', amount: paid }] : [];
    const res = await t.call('POST', '/v1/bookings', {
      body: aBooking(productCode, undefined, [], { customer: { firstName: first, lastName: last, phone: '+61 400 000 111' }, items: [{ productCode, startTimeLocal: '2030-01-01 14:00:00', quantities: [{ optionLabel: 'Adult', value: people }], participants }], payments }),
    });
    expect(res.status).toBe(200);
    return res.body.booking.orderNumber as string;
  };
  orders.nora = await book('Nora', 'Unpaid', 3, 0);
  orders.omar = await book('Omar', 'Offline', 2, 0);
  orders.pia = await book('Pia', 'Partial', 2, 50);
  mkdirSync(SHOTS, { recursive: true });
  web = await serveWebUi(t.engine);
  ({ baseUrl, browser } = web);
});
afterAll(async () => {
  await web?.close();
  await t?.close();
});

// The offline tests take the network and the engine away: those failures are theirs, not the app's.
const signedIn = (viewport = DESKTOP) => signedInPage(browser, { key: t.keys.supplier, viewport, expected: /ERR_INTERNET_DISCONNECTED|ERR_CONNECTION_REFUSED|Failed to fetch/ });

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
const bookingOnServer = async (orderNumber: string) => (await t.call('GET', `/v1/bookings/${orderNumber}`)).body.booking;
const dialog = (page: Page) => page.locator('dialog[open]');

describe('taking a payment at the desk', () => {
  it('takes the balance from the booking detail, refusing more than due in words, and prints the receipt', async () => {
    const { context, page, problems } = await signedIn();
    await page.goto(`${baseUrl}/bookings/${orders.pia}`);
    await page.getByText('$50.00 due').first().waitFor();
    await page.getByRole('button', { name: 'Take $50.00…' }).click();
    const amount = dialog(page).getByLabel('Amount (AUD)');
    expect(await amount.inputValue()).toBe('50.00');
    await amount.fill('60');
    await dialog(page).getByText('That is more than the $50.00 due.').waitFor();
    await shot(page, 'pay-more-than-due');
    await amount.fill('ten');
    await dialog(page).getByText(/“ten” is not an amount of money/).waitFor();
    await dialog(page).getByRole('button', { name: /^Take/ }).click();
    expect((await bookingOnServer(orders.pia)).payments).toHaveLength(1);
    await amount.fill('50');
    await dialog(page).getByLabel('Paid by').selectOption('CREDITCARD');
    await dialog(page).getByRole('button', { name: 'Take $50.00' }).click();
    await dialog(page).getByRole('heading', { name: 'Payment taken' }).waitFor();
    await dialog(page).getByText('Nothing is due now.').waitFor();
    const booking = await bookingOnServer(orders.pia);
    expect(booking).toMatchObject({ totalPaid: 100, totalDue: 0 });
    expect(booking.payments[1]).toMatchObject({ type: 'CREDITCARD', amount: 50, takenBy: 'Test supplier', device: 'Instance 1' });
    await shot(page, 'pay-taken');
    await dialog(page).getByRole('link', { name: 'Print receipt' }).click();
    await page.getByRole('article', { name: `Receipt for payment ${booking.payments[1].id}` }).waitFor();
    const receipt = await page.getByRole('article', { name: /Receipt for payment/ }).innerText();
    for (const words of ['Test Tours', orders.pia, 'Pia Partial', '$50.00', 'Card', 'Test supplier on Instance 1']) expect(receipt).toContain(words);
    // The departure and the payment's time in the company's en-AU format, in its zone.
    expect(receipt).toMatch(/Reef Day · Tue,? 1 Jan 2030,? 2:00\spm/);
    // When the device took it (its own clock; the engine keeps it unless it is later than the engine's now).
    expect(receipt).toMatch(/When\s+\w{3},? \d{1,2} \w{3} \d{4},? \d{1,2}:\d\d\s[ap]m/);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('header.top').isVisible()).toBe(false);
    await shot(page, 'receipt-print');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps a payment taken offline on the device and sends it when the engine answers', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${baseUrl}/bookings/${orders.omar}`);
    await page.getByRole('button', { name: 'Take $100.00…' }).click();
    await context.setOffline(true);
    await web.stopServer();
    await dialog(page).getByRole('button', { name: 'Take $100.00' }).click();
    await dialog(page).getByRole('heading', { name: 'Payment saved on this device' }).waitFor({ timeout: 30_000 });
    await dialog(page).getByRole('button', { name: 'Done' }).click();
    await page.getByText(/waiting to send/).first().waitFor();
    await expect.poll(() => page.getByRole('status', { name: 'Offline queue' }).innerText()).toMatch(/^1 waiting/);
    expect(await page.getByLabel('Events waiting to send').innerText()).toBe('1 payment waiting to send');
    await shot(page, 'pay-offline-waiting');
    expect((await bookingOnServer(orders.omar)).totalPaid).toBe(0);

    await web.startServer();
    await context.setOffline(false);
    await expect.poll(async () => (await bookingOnServer(orders.omar)).totalDue, { timeout: 20_000 }).toBe(0);
    const booking = await bookingOnServer(orders.omar);
    expect(booking.payments).toEqual([expect.objectContaining({ type: 'CASH', amount: 100, takenBy: 'Test supplier', device: 'Instance 1' })]);
    await expect.poll(() => page.getByRole('status', { name: 'Offline queue' }).count()).toBe(0);
    await context.close();
  });

  it('takes the balance and checks in from the manifest of an unpaid booking, on a phone', async () => {
    const { context, page, problems } = await signedIn(PHONE);
    await page.goto(`${baseUrl}/sessions/${sessionId}`);
    const nora = page.getByRole('article', { name: `Booking ${orders.nora}` });
    await nora.getByRole('button', { name: 'Check in all 3…' }).click();
    const ask = page.getByRole('alertdialog');
    await ask.getByRole('button', { name: 'Take $150.00 and check in' }).click();
    await shot(page, 'manifest-take-and-check-in');
    await dialog(page).getByRole('button', { name: 'Take $150.00 and check in' }).click();
    await dialog(page).getByRole('heading', { name: 'Payment taken' }).waitFor();
    await dialog(page).getByRole('button', { name: 'Done' }).click();
    // One toast stack: the payment's note stands above the Undo of the check-in, neither over the other.
    const took = page.locator('.toast-dock').getByText(/^Took \$150\.00/);
    const undo = page.locator('.toast-dock').getByRole('status', { name: 'Undo check-in' });
    await Promise.all([took.waitFor(), undo.waitFor()]);
    const [a, b] = [(await took.boundingBox())!, (await undo.boundingBox())!];
    expect(a.y + a.height).toBeLessThanOrEqual(b.y);
    await shot(page, 'manifest-toast-stack');
    await expect.poll(async () => (await bookingOnServer(orders.nora)).totalDue).toBe(0);
    const manifest = (await t.call('GET', `/v1/manifest?sessionId=${sessionId}`)).body.manifest;
    const people = manifest.bookings.find((b: { orderNumber: string }) => b.orderNumber === orders.nora).participants;
    await expect.poll(async () => (await t.call('GET', `/v1/manifest?sessionId=${sessionId}`)).body.manifest.bookings.find((b: { orderNumber: string }) => b.orderNumber === orders.nora).participants.map((p: { checkin: { state: string } }) => p.checkin.state)).toEqual(['CHECKED_IN', 'CHECKED_IN', 'CHECKED_IN']);
    // Paid in full first, so no override was needed: none is recorded.
    const overrides = (await t.call('GET', '/v1/checkin/overrides?date=2030-01-01')).body.overrides;
    expect(overrides.filter((o: { orderNumber: string }) => o.orderNumber === orders.nora)).toEqual([]);
    expect(people).toHaveLength(3);
    await nora.getByText('✓ Paid $150.00').waitFor();
    await shot(page, 'manifest-paid-and-in');
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the end of a walk-up sale', () => {
  it('takes what the sale left due and checks the walk-up in, with their tickets a click away', async () => {
    const { context, page, problems } = await signedIn();
    await page.goto(`${baseUrl}/walkup?session=${sessionId}`);
    await page.getByLabel('Adult ($50.00)').fill('1');
    await expect.poll(() => page.getByRole('status', { name: 'Price' }).innerText()).toBe('Total $50.00');
    await page.getByLabel('First name').fill('Wanda');
    await page.getByLabel('Last name').fill('Walkup');
    await page.getByLabel('Participant 1 name').fill('Wanda Walkup');
    await page.getByLabel('Payment type').selectOption('');
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    const title = page.getByRole('heading', { name: /Booked: order/ });
    await title.waitFor();
    const orderNumber = (await title.innerText()).replace('Booked: order ', '');
    expect(await page.getByRole('link', { name: 'Print tickets' }).getAttribute('href')).toBe(`/bookings/${orderNumber}/tickets`);
    await shot(page, 'walkup-booked-due');
    await page.getByRole('button', { name: 'Take $50.00 and check in' }).click();
    await dialog(page).getByRole('button', { name: 'Take $50.00 and check in' }).click();
    // Checked in, the desk is back on the manifest with the walk-up in.
    await page.waitForURL(new RegExp(`/sessions/${sessionId}$`));
    await expect.poll(async () => (await bookingOnServer(orderNumber)).totalDue).toBe(0);
    const inManifest = async () => (await t.call('GET', `/v1/manifest?sessionId=${sessionId}`)).body.manifest.bookings.find((b: { orderNumber: string }) => b.orderNumber === orderNumber);
    await expect.poll(async () => (await inManifest()).participants.map((p: { checkin: { state: string } }) => p.checkin.state)).toEqual(['CHECKED_IN']);
    await page.getByRole('article', { name: `Booking ${orderNumber}` }).getByText('✓ Paid $50.00').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('tickets and the booking detail', () => {
  it('prints a ticket per person with their QR code, for 80 mm paper and for A4', async () => {
    const { context, page, problems } = await signedIn();
    await page.goto(`${baseUrl}/bookings/${orders.nora}/tickets`);
    const tickets = page.getByRole('article', { name: /^Ticket for/ });
    await expect.poll(() => tickets.count()).toBe(3);
    await expect.poll(() => page.locator('.ticket img[alt^="QR code"]').count()).toBe(3);
    const first = await tickets.first().innerText();
    for (const words of ['Test Tours', 'Nora Unpaid', 'Reef Day', orders.nora]) expect(first).toContain(words);
    expect(first).toMatch(/Tue,? 1 Jan 2030,? 2:00\spm/);
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: /Print/ }).isVisible()).toBe(false);
    await shot(page, 'tickets-80mm-print');
    await page.emulateMedia({ media: 'screen' });
    await page.getByLabel('A4').check();
    await page.waitForURL(/tickets\?size=a4$/);
    await page.emulateMedia({ media: 'print' });
    const width = await page.locator('.ticket-sheet').evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);
    expect(width).toBe(3);
    await shot(page, 'tickets-a4-print');
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`shows each person's check-in with who and which device, their QR codes, and the payments (${label})`, async () => {
      const { context, page, problems } = await signedIn(viewport);
      await page.goto(`${baseUrl}/bookings/${orders.nora}`);
      const person = page.getByRole('listitem', { name: 'Nora Unpaid' });
      await expect.poll(() => person.innerText()).toMatch(/Checked in \w{3},? \d{1,2} \w{3} \d{4},? \d{1,2}:\d\d\s[ap]m by Test supplier on Instance 1/);
      await expect.poll(() => page.locator('.person-state img[alt^="QR code"]').count()).toBe(3);
      const payments = await page.locator('table.payments').innerText();
      expect(payments).toMatch(/Cash\s+\$150\.00\s+Test supplier on Instance 1/);
      await page.getByText('nothing due').waitFor();
      await shot(page, `booking-detail-${label}`);
      // The status bar stands over a full-page shot's middle: the payments as a person scrolled to them sees them.
      await page.locator('table.payments').evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.screenshot({ path: `${SHOTS}/booking-payments-${label}.png` });
      await page.getByRole('link', { name: 'Open the manifest' }).click();
      await page.waitForURL(new RegExp(`/sessions/${sessionId}$`));
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
