import { customerName } from '../Bookings';
import { amountText, paymentTypeLabel } from '../../model/payment';
import { useFormats } from '../../lib/formats';
import { Busy, ErrorText } from '../../components/Status';
import { Link } from '../../components/Link';
import { Button } from '../../components/ui';
import { usePageTitle } from '../../components/usePageTitle';
import { contactsOf, usePrintData } from './usePrintData';
import { PageSize } from './PageSize';
import '../../print.css';

/** A printable receipt for one payment: the company, the booking, the amount and how it was paid, who took it and when. */
export function ReceiptPage({ orderNumber, paymentId }: { orderNumber: string; paymentId: number }) {
  const { booking, company, error } = usePrintData(orderNumber);
  usePageTitle(`Receipt ${orderNumber}`);
  const { dateTime } = useFormats((s) => s.formats);
  if (!booking || !company) return error ? <ErrorText error={error} /> : <Busy label="Loading the receipt…" />;
  const payment = booking.payments.find((p) => p.id === paymentId);
  if (!payment) return <ErrorText error={`Booking ${orderNumber} has no payment ${paymentId}.`} />;
  const address = [company.addressLine, company.addressLine2, [company.postCode, company.city].filter(Boolean).join(' '), company.state].filter(Boolean).join(', ');
  return (
    <div className="print-page receipt paper-80mm">
      <PageSize size="80mm" />
      <div className="row no-print print-tools">
        <Link to={{ name: 'booking', orderNumber }} className="btn secondary">
          ◀ Booking {orderNumber}
        </Link>
        <Button onClick={() => window.print()}>Print the receipt</Button>
      </div>
      <article className="receipt-paper" aria-label={`Receipt for payment ${payment.id}`}>
        <header>
          <h2>{company.companyName}</h2>
          {address && <p>{address}</p>}
          <p>{contactsOf(company)}</p>
        </header>
        <h3>{payment.refund ? 'Refund' : 'Receipt'}</h3>
        <dl className="facts">
          <dt>Booking</dt>
          <dd>{booking.orderNumber}</dd>
          <dt>Customer</dt>
          <dd>{customerName(booking)}</dd>
          {booking.items.map((item, i) => (
            <div key={i} className="receipt-item">
              <dt>Tour</dt>
              <dd>
                {item.productName} · {dateTime(item.startTimeLocal)}
              </dd>
            </div>
          ))}
          <dt>Amount</dt>
          <dd className="receipt-amount">{amountText(payment.amount, payment.currency)}</dd>
          <dt>Paid by</dt>
          <dd>{paymentTypeLabel(payment.type)}</dd>
          <dt>Taken by</dt>
          <dd>
            {payment.takenBy ?? '—'}
            {payment.device ? ` on ${payment.device}` : ''}
          </dd>
          <dt>When</dt>
          <dd>{payment.date ? dateTime(payment.date) : '—'}</dd>
          <dt>Total</dt>
          <dd>{amountText(booking.totalAmount, booking.totalCurrency)}</dd>
          <dt>Paid</dt>
          <dd>{amountText(booking.totalPaid, booking.totalCurrency)}</dd>
          <dt>Still due</dt>
          <dd>{amountText(booking.totalDue, booking.totalCurrency)}</dd>
        </dl>
        <footer>Payment {payment.id} · thank you</footer>
      </article>
    </div>
  );
}
