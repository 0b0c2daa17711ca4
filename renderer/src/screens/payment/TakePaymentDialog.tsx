import { useEffect, useState } from 'react';
import type { Booking } from '../../api/types';
import { Button, Dialog, Field, SelectField, useToasts } from '../../components/ui';
import { ErrorText } from '../../components/Status';
import { Link } from '../../components/Link';
import { useConnection } from '../../store/connection';
import { useDefaultDeviceName } from '../../store/deviceName';
import { amountProblem, amountText, defaultAmount, parseAmount, PAYMENT_TYPES, paymentTypeLabel, type PaymentType } from '../../model/payment';
import { takePayment } from './takePayment';

/** What the dialog takes a payment for: a booking and what is due on it. */
export interface PaymentTarget {
  orderNumber: string;
  customerName: string;
  due: number;
  currency: string;
  /**
   * "Take … and check in": checks the people in once the payment is taken (or saved on the device,
   * ahead of the check-in in the outbox); `covered` says whether it paid all that was due.
   */
  thenCheckIn?: (covered: boolean) => void;
}

type Done = { kind: 'recorded'; booking: Booking; amount: number; type: PaymentType } | { kind: 'queued'; amount: number; type: PaymentType };

/**
 * "Take payment": the amount (what is due to start with, never more; checked in words before
 * anything is sent) and how it was paid, recorded with this device's name and key. Offline it is kept
 * on the device and sent when the engine answers. Once recorded the receipt can be printed.
 */
export function TakePaymentDialog({ target, onClose, onRecorded }: { target: PaymentTarget | null; onClose(): void; onRecorded?(booking: Booking | null): void }) {
  const chosen = useConnection((s) => s.device.trim());
  const fallback = useDefaultDeviceName();
  const device = chosen || fallback || '';
  const toast = useToasts((s) => s.show);
  const [amount, setAmount] = useState('');
  const [type, setType] = useState<PaymentType>('CASH');
  const [shown, setShown] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<Done | null>(null);
  useEffect(() => {
    if (!target) return;
    setAmount(defaultAmount(target.due, target.currency));
    setType('CASH');
    setShown(null);
    setDone(null);
  }, [target]);
  if (!target) return <Dialog open={false} title="Take payment" onClose={onClose} actions={null}>{null}</Dialog>;

  const problem = amountProblem(amount, target.due, target.currency);
  const typed = parseAmount(amount);
  const take = async () => {
    if (problem || typed === null) return setShown(problem);
    setBusy(true);
    setShown(null);
    const outcome = await takePayment(target.orderNumber, { type, amount: typed, currency: target.currency as never, device: device || undefined, takenAt: new Date().toISOString() });
    setBusy(false);
    if (outcome.kind === 'refused') return setShown(outcome.message);
    const words = `${amountText(typed, target.currency)} (${paymentTypeLabel(type).toLowerCase()}) · ${target.orderNumber}`;
    toast(outcome.kind === 'recorded' ? `Took ${words}` : `Payment saved on this device, sent when the engine answers: ${words}`, outcome.kind === 'recorded' ? 'ok' : 'info');
    setDone(outcome.kind === 'recorded' ? { kind: 'recorded', booking: outcome.booking, amount: typed, type } : { kind: 'queued', amount: typed, type });
    onRecorded?.(outcome.kind === 'recorded' ? outcome.booking : null);
    // Covered: what was due is not more than what was taken (the same rule, the other way round).
    target.thenCheckIn?.(amountProblem(defaultAmount(target.due, target.currency), typed, target.currency) === null);
  };

  const verb = target.thenCheckIn ? `Take ${typed !== null && !problem ? amountText(typed, target.currency) : ''} and check in` : `Take ${typed !== null && !problem ? amountText(typed, target.currency) : 'payment'}`;
  if (done) return <PaymentDone target={target} done={done} onClose={onClose} />;
  return (
    <Dialog
      open
      title={`Take payment · ${target.orderNumber}`}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            Not now
          </Button>
          <Button type="submit" form="take-payment" disabled={busy}>
            {busy ? 'Taking…' : verb.replace(/\s+/g, ' ')}
          </Button>
        </>
      }
    >
      <form id="take-payment" className="take-payment" onSubmit={(e) => (e.preventDefault(), void take())} noValidate>
        <p>
          {target.customerName}: <strong>{amountText(target.due, target.currency)} due</strong>
        </p>
        <Field label={`Amount (${target.currency})`} inputMode="decimal" value={amount} onChange={(e) => (setAmount(e.target.value), setShown(null))} aria-invalid={problem ? true : undefined} autoFocus />
        <SelectField label="Paid by" value={type} onChange={(e) => setType(e.target.value as PaymentType)}>
          {PAYMENT_TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </SelectField>
        <p className="muted">Recorded as taken on {device || 'this device'} with this device’s key.</p>
        <ErrorText error={shown ?? (amount.trim() && problem ? problem : null)} />
      </form>
    </Dialog>
  );
}

/** After the payment: what was taken, and the receipt (once the engine has it). */
function PaymentDone({ target, done, onClose }: { target: PaymentTarget; done: Done; onClose(): void }) {
  const payment = done.kind === 'recorded' ? done.booking.payments.at(-1) : undefined;
  return (
    <Dialog
      open
      title={done.kind === 'recorded' ? 'Payment taken' : 'Payment saved on this device'}
      onClose={onClose}
      actions={
        <>
          {payment && (
            <Link to={{ name: 'receipt', orderNumber: target.orderNumber, paymentId: payment.id }} className="btn secondary">
              Print receipt
            </Link>
          )}
          <Button onClick={onClose} autoFocus>
            Done
          </Button>
        </>
      }
    >
      <p>
        {amountText(done.amount, target.currency)} in {paymentTypeLabel(done.type).toLowerCase()} for {target.orderNumber}.{' '}
        {done.kind === 'recorded'
          ? done.booking.totalDue > 0
            ? `${amountText(done.booking.totalDue, target.currency)} is still due.`
            : 'Nothing is due now.'
          : 'The engine cannot be reached: it is sent as soon as it answers, and the receipt can be printed from the booking then.'}
      </p>
    </Dialog>
  );
}
