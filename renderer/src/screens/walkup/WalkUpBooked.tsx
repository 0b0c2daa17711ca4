import { useState } from 'react';
import type { Booking } from '../../api/types';
import { codesOf } from '../../model/walkupForm';
import { amountText } from '../../model/payment';
import { QrCode } from '../../components/QrCode';
import { ErrorText } from '../../components/Status';
import { Link } from '../../components/Link';
import { customerName } from '../Bookings';
import { TakePaymentDialog, type PaymentTarget } from '../payment/TakePaymentDialog';
import { useCheckInNow } from './useCheckInNow';

/** The booking just made: its total, what is still due (taken here), a QR code for each of its codes, then check in now or print the tickets. */
export function WalkUpBooked({ booked: made, sessionId, onBack, onAnother }: { booked: Booking; sessionId: number; onBack(): void; onAnother(): void }) {
  const [booked, setBooked] = useState(made);
  const [paying, setPaying] = useState<PaymentTarget | null>(null);
  const { checkInNow, problem, busy } = useCheckInNow(sessionId);
  const due = booked.totalDue;
  const target = (thenCheckIn: boolean): PaymentTarget => ({
    orderNumber: booked.orderNumber,
    customerName: customerName(booked),
    due,
    currency: booked.totalCurrency,
    thenCheckIn: thenCheckIn ? () => void checkInNow(booked) : undefined,
  });
  return (
    <section className="card" aria-labelledby="booked-title">
      <h2 id="booked-title">Booked: order {booked.orderNumber}</h2>
      <p>
        {booked.status} · {amountText(booked.totalAmount, booked.totalCurrency)}
        {due > 0 ? ` · ${amountText(due, booked.totalCurrency)} still due` : ' · paid'}
      </p>
      <div className="qrs">
        {codesOf(booked).map((c) => (
          <QrCode key={c.code} orderNumber={booked.orderNumber} code={c.code} label={c.label} />
        ))}
      </div>
      <div className="row">
        {due > 0 ? (
          <button type="button" className="big" onClick={() => setPaying(target(true))} disabled={busy}>
            Take {amountText(due, booked.totalCurrency)} and check in
          </button>
        ) : (
          <button type="button" className="big" onClick={() => void checkInNow(booked)} disabled={busy}>
            {busy ? 'Checking in…' : 'Check in now'}
          </button>
        )}
        <Link to={{ name: 'tickets', orderNumber: booked.orderNumber, size: '80mm' }} className="btn secondary">
          Print tickets
        </Link>
        {due > 0 && (
          <button type="button" className="secondary" onClick={() => setPaying(target(false))}>
            Take payment only
          </button>
        )}
      </div>
      <ErrorText error={problem} />
      <div className="row">
        <button type="button" className="secondary" onClick={onBack}>
          Back to the manifest
        </button>
        <button type="button" className="secondary" onClick={onAnother}>
          Another walk-up booking
        </button>
      </div>
      <TakePaymentDialog target={paying} onClose={() => setPaying(null)} onRecorded={(b) => b && setBooked(b)} />
    </section>
  );
}
