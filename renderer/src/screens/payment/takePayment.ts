import { newEventId } from '../../api/client';
import type { Booking } from '../../api/types';
import { onSendOutcome, useOutbox } from '../../store/outbox';
import type { PaymentItem } from '../../outbox/items';
import type { TakePaymentBody } from '../../api/types';

/** What came of a payment handed to the outbox: recorded (the booking as it leaves it), kept on the device to send later, or refused. */
export type TakeOutcome = { kind: 'recorded'; booking: Booking } | { kind: 'queued' } | { kind: 'refused'; message: string };

/** How long the desk waits for the engine's answer before it says "saved on this device" (the outbox keeps trying). */
const ANSWER_WAIT_MS = 20_000;

/**
 * Stores the payment in the one outbox (IndexedDB first, so a crash or reload loses nothing) and
 * waits for the first send of it: the engine's answer, its refusal in words, or no engine.
 */
export function takePayment(orderNumber: string, body: Omit<TakePaymentBody, 'paymentRef'>): Promise<TakeOutcome> {
  const paymentRef = newEventId();
  const item: PaymentItem = { eventId: paymentRef, kind: 'payment', orderNumber, body: { ...body, paymentRef }, queuedAt: new Date().toISOString(), attempts: 0 };
  return new Promise((resolve) => {
    const settle = (outcome: TakeOutcome) => {
      stop();
      clearTimeout(timer);
      resolve(outcome);
    };
    const stop = onSendOutcome((outcome) => {
      if (outcome.kind === 'payment' && outcome.item.eventId === paymentRef) settle({ kind: 'recorded', booking: outcome.booking });
      else if (outcome.kind === 'refused' && outcome.items.some((q) => q.eventId === paymentRef)) settle({ kind: 'refused', message: outcome.message });
      // Offline, or something queued before it could not go: it waits its turn on the device.
      else if (outcome.kind === 'unreachable') settle({ kind: 'queued' });
    });
    const timer = setTimeout(() => settle({ kind: 'queued' }), ANSWER_WAIT_MS);
    void useOutbox.getState().add([item]);
  });
}
