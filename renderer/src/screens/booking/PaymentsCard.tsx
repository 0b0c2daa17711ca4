import { useMemo } from 'react';
import type { Booking } from '../../api/types';
import { Button, Card } from '../../components/ui';
import { Link } from '../../components/Link';
import { amountText, paymentTypeLabel } from '../../model/payment';
import { useFormats } from '../../lib/formats';
import { waitingPayments } from '../../outbox/items';
import { useOutbox } from '../../store/outbox';

/** What was paid, how, and who took it (with a receipt for each); what is due, and the way to take it. */
export function PaymentsCard({ booking, onTake }: { booking: Booking; onTake(): void }) {
  // The items, then the filter: a selector that made a new array on every read would never settle.
  const items = useOutbox((s) => s.items);
  const { dateTime } = useFormats((s) => s.formats);
  const waiting = useMemo(() => waitingPayments(items, booking.orderNumber), [items, booking.orderNumber]);
  const live = booking.status !== 'CANCELLED' && booking.status !== 'ABANDONED_CART';
  const currency = booking.totalCurrency;
  return (
    <Card
      title="Payments"
      actions={
        live && booking.totalDue > 0 ? (
          <Button onClick={onTake} disabled={waiting.length > 0} title={waiting.length ? 'A payment for this booking is waiting to be sent' : undefined}>
            Take {amountText(booking.totalDue, currency)}…
          </Button>
        ) : undefined
      }
    >
      <p className="payment-summary">
        Total {amountText(booking.totalAmount, currency)} · paid {amountText(booking.totalPaid, currency)} ·{' '}
        {live && booking.totalDue > 0 ? <strong className="due">{amountText(booking.totalDue, currency)} due</strong> : <span className="ok">nothing due</span>}
      </p>
      {booking.payments.length === 0 && waiting.length === 0 ? (
        <p className="muted">No payments yet.</p>
      ) : (
        <table className="payments">
          <thead>
            <tr>
              <th>When</th>
              <th>Paid by</th>
              <th className="num">Amount</th>
              <th>Taken by</th>
              <th>
                <span className="sr-only">Receipt</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {booking.payments.map((p) => (
              <tr key={p.id} className={p.refund ? 'refund' : ''}>
                <td>{p.date ? dateTime(p.date) : '—'}</td>
                <td>{p.refund ? 'Refund' : paymentTypeLabel(p.type)}</td>
                <td className="num">{amountText(p.refund ? -p.amount : p.amount, p.currency)}</td>
                <td>{[p.recordedBy === 'AGENT' ? 'the agent' : p.takenBy, p.device && `on ${p.device}`].filter(Boolean).join(' ') || '—'}</td>
                <td>
                  <Link to={{ name: 'receipt', orderNumber: booking.orderNumber, paymentId: p.id }} className="btn secondary" aria-label={`Receipt for payment ${p.id}`}>
                    Receipt
                  </Link>
                </td>
              </tr>
            ))}
            {waiting.map((q) => (
              <tr key={q.eventId} className="waiting">
                <td>{q.body.takenAt ? dateTime(q.body.takenAt) : '—'}</td>
                <td>{paymentTypeLabel(q.body.type)}</td>
                <td className="num">{amountText(q.body.amount, currency)}</td>
                <td>{q.body.device ? `on ${q.body.device}` : 'this device'}</td>
                <td>
                  <em>waiting to send{q.lastError ? ` (${q.lastError})` : ''}</em>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
