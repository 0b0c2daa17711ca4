import type { Booking } from '../../api/types';
import { codesOf } from '../../model/walkupForm';
import { QrCode } from '../../components/QrCode';

/** The booking just made: its total, what is still due, and a QR code for each of its codes. */
export function WalkUpBooked({ booked, onBack, onAnother }: { booked: Booking; onBack(): void; onAnother(): void }) {
  return (
    <section className="card" aria-labelledby="booked-title">
      <h2 id="booked-title">Booked: order {booked.orderNumber}</h2>
      <p>
        {booked.status} · {booked.totalAmount.toFixed(2)} {booked.totalCurrency}
        {booked.totalDue > 0 ? ` · ${booked.totalDue.toFixed(2)} still due` : ' · paid'}
      </p>
      <div className="qrs">
        {codesOf(booked).map((c) => (
          <QrCode key={c.code} orderNumber={booked.orderNumber} code={c.code} label={c.label} />
        ))}
      </div>
      <div className="row">
        <button type="button" onClick={onBack}>
          Back to the manifest
        </button>
        <button type="button" className="secondary" onClick={onAnother}>
          Another walk-up booking
        </button>
      </div>
    </section>
  );
}
