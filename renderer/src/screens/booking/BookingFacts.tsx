import type { Booking } from '../../../../main/contract/bookings';
import { money } from '../Bookings';
import { when } from '../../components/ui';

/** Who booked, how to reach them, what was paid and when: the booking's facts as a list of terms. */
export function BookingFacts({ booking }: { booking: Booking }) {
  const cancelled = booking.status === 'CANCELLED';
  return (
    <dl className="facts">
      <dt>Phone</dt>
      <dd>{booking.customer?.phone ? <a href={`tel:${booking.customer.phone}`}>{booking.customer.phone}</a> : '—'}</dd>
      <dt>Email</dt>
      <dd>{booking.customer?.email ? <a href={`mailto:${booking.customer.email}`}>{booking.customer.email}</a> : '—'}</dd>
      <dt>Total</dt>
      <dd>
        {money(booking.totalAmount, booking.totalCurrency)} · paid {money(booking.totalPaid, booking.totalCurrency)}
        {/* A cancelled booking owes nothing: what it shows is what was paid (and refunded, if so). */}
        {booking.totalDue > 0 && !cancelled && <strong> · {money(booking.totalDue, booking.totalCurrency)} due</strong>}
      </dd>
      {booking.resellerName && (
        <>
          <dt>Agent</dt>
          <dd>{booking.resellerName}</dd>
        </>
      )}
      <dt>Reference</dt>
      <dd>{booking.resellerReference || '—'}</dd>
      {booking.resellerComments && (
        <>
          <dt>Comments</dt>
          <dd>{booking.resellerComments}</dd>
        </>
      )}
      <dt>Booked</dt>
      <dd>
        {when(booking.dateCreated)} {booking.sourceChannel ? `(${booking.sourceChannel})` : ''}
      </dd>
      {booking.dateCancelled && (
        <>
          <dt>Cancelled</dt>
          <dd>{when(booking.dateCancelled)}</dd>
        </>
      )}
    </dl>
  );
}
