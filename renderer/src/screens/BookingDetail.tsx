import { useCallback, useEffect, useState } from 'react';
import type { Booking } from '../../../main/contract/bookings';
import { api } from '../api/client';
import { plainWords } from '../api/plainWords';
import { useConnection } from '../store/connection';
import { Busy, ErrorText } from '../components/Status';
import { Button, Card, ConfirmDialog, Field, useToasts } from '../components/ui';
import { Link } from '../components/Link';
import { customerName, money, StatusBadge } from './Bookings';

/** What PUT /v1/bookings/{order} lets the desk change (docs/api.md): the customer and the references. */
interface EditForm {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  resellerReference: string;
  resellerComments: string;
}

const formOf = (b: Booking): EditForm => ({
  firstName: b.customer?.firstName ?? '',
  lastName: b.customer?.lastName ?? '',
  email: b.customer?.email ?? '',
  phone: b.customer?.phone ?? '',
  resellerReference: b.resellerReference ?? '',
  resellerComments: b.resellerComments ?? '',
});

/**
 * PUT replaces the supported parts whole and clears what is left out (participant fields, pickups),
 * so the body is the booking as GET answered it with the edited fields changed.
 */
function updateBody(b: Booking, form: EditForm) {
  const { name: _derived, ...storedCustomer } = b.customer ?? ({} as NonNullable<Booking['customer']>);
  const blank = (v: string) => (v.trim() === '' ? undefined : v.trim());
  return {
    ...b,
    customer: { ...storedCustomer, firstName: blank(form.firstName), lastName: blank(form.lastName), email: blank(form.email), phone: blank(form.phone) },
    fields: b.fields,
    resellerReference: blank(form.resellerReference),
    resellerComments: blank(form.resellerComments),
  };
}

export function BookingDetail({ orderNumber }: { orderNumber: string }) {
  const config = useConnection((s) => s.config)!;
  const toast = useToasts((s) => s.show);
  const [booking, setBooking] = useState<Booking | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<EditForm | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    setError(null);
    api(config, 'GET /v1/bookings/:orderNumber', { params: { orderNumber } })
      .then((r) => setBooking(r.booking))
      .catch((e) => setError(plainWords(e)));
  }, [config, orderNumber]);
  useEffect(load, [load]);

  async function save() {
    if (!booking || !editing) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api(config, 'PUT /v1/bookings/:orderNumber', { params: { orderNumber }, body: updateBody(booking, editing) });
      setBooking(answer.booking);
      setEditing(null);
      toast(answer.requestStatus.warning ? `Saved, but note: ${(answer.requestStatus.warning as unknown as { warningMessage?: string }).warningMessage ?? answer.requestStatus.warning}` : 'Booking saved');
    } catch (e) {
      setError(plainWords(e));
    } finally {
      setBusy(false);
    }
  }

  async function cancel() {
    setBusy(true);
    setError(null);
    try {
      const answer = await api(config, 'DELETE /v1/bookings/:orderNumber', { params: { orderNumber } });
      setBooking(answer.booking);
      toast(`Booking ${orderNumber} cancelled; seats released${answer.booking.totalPaid < 0 || answer.booking.payments.some((p) => p.refund) ? ' and the payment refunded' : ''}`);
    } catch (e) {
      setError(plainWords(e));
    } finally {
      setBusy(false);
      setConfirmCancel(false);
    }
  }

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
  const people = booking.items.reduce((n, i) => n + i.totalQuantity, 0);
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
            {new Date(booking.dateCreated).toLocaleString()} {booking.sourceChannel ? `(${booking.sourceChannel})` : ''}
          </dd>
          {booking.dateCancelled && (
            <>
              <dt>Cancelled</dt>
              <dd>{new Date(booking.dateCancelled).toLocaleString()}</dd>
            </>
          )}
        </dl>
        {booking.items.map((item, n) => (
          <section key={n} className="item" aria-label={`${item.productName} ${item.startTimeLocal}`}>
            <h3>
              {item.productName} · {item.startTimeLocal.slice(0, 16)}
            </h3>
            <p>
              {item.quantities.map((q) => `${q.value} × ${q.optionLabel}`).join(', ')} · {money(item.amount, booking.totalCurrency)}
              {item.pickupLocation?.locationName ? ` · pickup ${item.pickupLocation.locationName}${item.pickupLocation.pickupTime ? ` at ${item.pickupLocation.pickupTime.slice(11, 16)}` : ''}` : ''}
            </p>
            <ol className="people">
              {item.participants.map((p, i) => (
                <li key={i}>{p.fields.find((f) => /name/i.test(f.label ?? ''))?.value || `Guest ${i + 1}`}</li>
              ))}
            </ol>
          </section>
        ))}
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
      {editing && (
        <Card title="Edit details">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <div className="grid">
              <Field label="First name" value={editing.firstName} onChange={(e) => setEditing({ ...editing, firstName: e.target.value })} autoFocus />
              <Field label="Last name" value={editing.lastName} onChange={(e) => setEditing({ ...editing, lastName: e.target.value })} />
              <Field label="Phone" type="tel" value={editing.phone} onChange={(e) => setEditing({ ...editing, phone: e.target.value })} />
              <Field label="Email" type="email" value={editing.email} onChange={(e) => setEditing({ ...editing, email: e.target.value })} />
              <Field label="Reference" value={editing.resellerReference} onChange={(e) => setEditing({ ...editing, resellerReference: e.target.value })} hint="The agent’s or the customer’s own reference." />
              <Field label="Comments" value={editing.resellerComments} onChange={(e) => setEditing({ ...editing, resellerComments: e.target.value })} />
            </div>
            <p className="muted">Dates, tours and numbers of people cannot be changed here: cancel and book again.</p>
            <div className="row">
              <Button type="submit" disabled={busy}>
                {busy ? 'Saving…' : 'Save changes'}
              </Button>
              <Button variant="secondary" onClick={() => setEditing(null)}>
                Discard changes
              </Button>
            </div>
          </form>
        </Card>
      )}
      <ConfirmDialog open={confirmCancel} title={`Cancel booking ${booking.orderNumber}?`} confirmLabel="Cancel the booking" onConfirm={() => void cancel()} onClose={() => setConfirmCancel(false)} busy={busy}>
        <p>
          {customerName(booking)}, {people} {people === 1 ? 'person' : 'people'}. Their seats go back on sale
          {booking.totalPaid > 0 ? `, and the ${money(booking.totalPaid, booking.totalCurrency)} paid is recorded as refunded` : ''}. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
