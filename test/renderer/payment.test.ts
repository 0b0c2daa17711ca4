import { describe, expect, it } from 'vitest';
import { amountProblem, defaultAmount, parseAmount, paymentBody } from '../../renderer/src/model/payment';
import { nextSend, waitingPayments, type EventItem, type OutboxItem, type PaymentItem } from '../../renderer/src/outbox/items';
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

/** Issue 37: the amount the desk takes, checked in words before anything is sent; payments in the one outbox. */
describe('the amount rule', () => {
  it('starts at what is due, as the currency writes it', () => {
    expect(defaultAmount(150, 'AUD')).toBe('150.00');
    expect(defaultAmount(4500, 'JPY')).toBe('4500');
  });

  it('takes amounts as people type them', () => {
    expect(parseAmount('150')).toBe(150);
    expect(parseAmount(' 150.5 ')).toBe(150.5);
    expect(parseAmount('1,234.00')).toBe(1234);
    expect(parseAmount('$20')).toBe(20);
    expect(parseAmount('.5')).toBe(0.5);
    for (const text of ['ten', '1.2.3', '-5', '5e3', '', '12,34']) expect(parseAmount(text), text).toBeNull();
  });

  it('refuses, in words, what is not money, nothing, too precise, or more than due', () => {
    expect(amountProblem('150.00', 150, 'AUD')).toBeNull();
    expect(amountProblem('20', 150, 'AUD')).toBeNull();
    expect(amountProblem('', 150, 'AUD')).toBe('Enter the amount taken.');
    expect(amountProblem('ten', 150, 'AUD')).toBe('“ten” is not an amount of money: type it as 150.00.');
    expect(amountProblem('0', 150, 'AUD')).toBe('Enter an amount above 0.');
    expect(amountProblem('10.005', 150, 'AUD')).toBe('AUD has 2 decimals: 10.005 has more.');
    expect(amountProblem('10.5', 4500, 'JPY')).toBe('JPY has no cents: type a whole amount.');
    expect(amountProblem('150.01', 150, 'AUD')).toMatch(/^That is more than the \S*150\.00\S* due\.$/);
    expect(amountProblem('5', 0, 'AUD')).toBe('Nothing is due on this booking.');
  });

  it('never refuses the exact balance for a floating-point sum', () => {
    expect(amountProblem('0.3', 0.1 + 0.2, 'AUD')).toBeNull();
  });

  it('makes the body the engine records once, with the device and when it was taken', () => {
    expect(paymentBody({ amountText: '1,050.00', type: 'CREDITCARD', currency: 'AUD', device: 'Wharf', paymentRef: 'ref-00000001', takenAt: '2030-01-01T00:00:00.000Z' })).toEqual({
      type: 'CREDITCARD',
      amount: 1050,
      currency: 'AUD',
      device: 'Wharf',
      paymentRef: 'ref-00000001',
      takenAt: '2030-01-01T00:00:00.000Z',
    });
    expect(() => paymentBody({ amountText: 'x', type: 'CASH', currency: 'AUD', device: '', paymentRef: 'ref-00000002', takenAt: '' })).toThrow();
  });
});

describe('payments in the outbox', () => {
  const now = '2030-01-01T00:00:00.000Z';
  const event = (eventId: string): EventItem => ({ eventId, kind: 'event', body: { eventId, kind: 'CHECK_IN', sessionId: 7, participantId: 1, occurredAt: now }, queuedAt: now, attempts: 0 });
  const payment = (eventId: string, orderNumber = 'T1-1'): PaymentItem => ({ eventId, kind: 'payment', orderNumber, body: { type: 'CASH', amount: 150, paymentRef: eventId }, queuedAt: now, attempts: 0 });

  it('goes out on its own, in its place: a payment taken before a check-in is sent first', () => {
    const outbox: OutboxItem[] = [payment('p'), event('a'), event('b'), payment('q'), event('c')];
    expect(nextSend(outbox)).toEqual({ kind: 'payment', item: outbox[0] });
    expect(nextSend(outbox.slice(1))).toEqual({ kind: 'events', items: [outbox[1], outbox[2]] });
    expect(nextSend(outbox.slice(3))).toEqual({ kind: 'payment', item: outbox[3] });
  });

  it("lists one booking's payments still waiting", () => {
    const outbox: OutboxItem[] = [payment('p', 'T1-1'), event('a'), payment('q', 'T1-2')];
    expect(waitingPayments(outbox, 'T1-2').map((q) => q.eventId)).toEqual(['q']);
  });
});

describe('money and times on payments', () => {
  it("are written by the one format module, in the company's currency style and zone", async () => {
    const { useFormats } = await import('../../renderer/src/lib/formats');
    const { amountText } = await import('../../renderer/src/model/payment');
    useFormats.getState().setCompany({ locale: 'en-AU', timezone: 'Australia/Sydney' });
    expect(amountText(150, 'AUD')).toBe('$150.00');
    expect(amountProblem('150.01', 150, 'AUD')).toBe('That is more than the $150.00 due.');
    expect(plain(useFormats.getState().formats.dateTime('2030-01-01T21:05:00Z'))).toMatch(/^Wed,? 2 Jan 2030, 8:05 am$/);
    useFormats.getState().setCompany({ locale: 'en-US', timezone: 'America/New_York' });
    expect(amountText(150, 'AUD')).toBe('A$150.00');
    expect(amountText(1357, 'JPY')).toBe('¥1,357');
  });
});

describe('the printed pages’ URLs', () => {
  it('name the tickets (80 mm unless A4 is asked for) and a receipt, and read back to them', async () => {
    const { parseRoute, urlOf } = await import('../../renderer/src/model/routes');
    const screens = [
      { name: 'tickets', orderNumber: 'TD1-000123', size: '80mm' },
      { name: 'tickets', orderNumber: 'A/B 7', size: 'a4' },
      { name: 'receipt', orderNumber: 'TD1-000123', paymentId: 4001 },
    ] as const;
    for (const screen of screens) {
      const [path, search = ''] = urlOf(screen).split('?');
      expect(parseRoute(path, search).screen).toEqual(screen);
    }
    expect(urlOf({ name: 'tickets', orderNumber: 'T1', size: 'a4' })).toBe('/bookings/T1/tickets?size=a4');
    expect(parseRoute('/bookings/T1/tickets', 'size=letter').screen).toEqual({ name: 'tickets', orderNumber: 'T1', size: '80mm' });
    expect(parseRoute('/bookings/T1/receipt/x', '').screen).toEqual({ name: 'board' });
  });
});
