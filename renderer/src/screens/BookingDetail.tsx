import { useState } from 'react';
import type { Booking } from '../../../main/contract/bookings';
import { Busy, ErrorText } from '../components/Status';
import { Button, Card, ConfirmDialog } from '../components/ui';
import { Link } from '../components/Link';
import { usePageTitle } from '../components/usePageTitle';
import { customerName, money, StatusBadge } from './Bookings';
import { BookingFacts } from './booking/BookingFacts';
import { PaymentsCard } from './booking/PaymentsCard';
import { PeopleCard } from './booking/PeopleCard';
import { useCheckins } from './booking/useCheckins';
import { TakePaymentDialog, type PaymentTarget } from './payment/TakePaymentDialog';
import { EditDetailsCard } from './booking/EditDetailsCard';
import { formOf, type EditForm } from './booking/editDetails';
import { useBooking } from './booking/useBooking';

/** One booking: its facts, people (check-in, QR codes) and payments; details edited, balance taken, tickets printed, the booking cancelled. */
export function BookingDetail({ orderNumber }: { orderNumber: string }) {
  const { booking, error, busy, save, cancel, reload } = useBooking(orderNumber);
  const [editing, setEditing] = useState<EditForm | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [paying, setPaying] = useState<PaymentTarget | null>(null);
  const checkins = useCheckins(booking, 0);
  usePageTitle(`Booking ${orderNumber}`);

  const back = (
    <Link to={{ name: 'bookings', q: '', date: null }} className="btn secondary">
      ◀ All bookings
    </Link>
  );
  if (!booking)
    return (
      <>
        {back}
        {error ? <ErrorText error={error} /> : <Busy label="Loading the booking…" />}
      </>
    );
  const cancelled = booking.status === 'CANCELLED';
  return (
    <>
      {back}
      <Card
        title={
          <>
            {customerName(booking)} <small>{booking.orderNumber}</small>
          </>
        }
        actions={<StatusBadge status={booking.status} />}
      >
        <BookingFacts booking={booking} />
        {!cancelled && !editing && (
          <div className="row actions">
            <Button variant="secondary" onClick={() => setEditing(formOf(booking))}>
              Edit details
            </Button>
            <Button variant="danger" onClick={() => setConfirmCancel(true)}>
              Cancel booking…
            </Button>
          </div>
        )}
        <ErrorText error={error} />
      </Card>
      <PaymentsCard booking={booking} onTake={() => setPaying({ orderNumber, customerName: customerName(booking), due: booking.totalDue, currency: booking.totalCurrency })} />
      <PeopleCard booking={booking} checkins={checkins} />
      <TakePaymentDialog target={paying} onClose={() => setPaying(null)} onRecorded={(b) => (b ? reload(b) : undefined)} />
      {editing && <EditDetailsCard editing={editing} onChange={setEditing} onSave={() => void save(booking, editing).then((saved) => saved && setEditing(null))} onDiscard={() => setEditing(null)} busy={busy} />}
      <CancelBookingDialog booking={booking} open={confirmCancel} busy={busy} onConfirm={() => void cancel().then(() => setConfirmCancel(false))} onClose={() => setConfirmCancel(false)} />
    </>
  );
}

/** Asked before cancelling: who, how many seats go back on sale, and what is recorded as refunded. */
function CancelBookingDialog({ booking, open, busy, onConfirm, onClose }: { booking: Booking; open: boolean; busy: boolean; onConfirm(): void; onClose(): void }) {
  const people = booking.items.reduce((n, i) => n + i.totalQuantity, 0);
  return (
    <ConfirmDialog open={open} title={`Cancel booking ${booking.orderNumber}?`} confirmLabel="Cancel the booking" onConfirm={onConfirm} onClose={onClose} busy={busy}>
      <p>
        {customerName(booking)}, {people} {people === 1 ? 'person' : 'people'}. Their seats go back on sale
        {booking.totalPaid > 0 ? `, and the ${money(booking.totalPaid, booking.totalCurrency)} paid is recorded as refunded` : ''}. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
