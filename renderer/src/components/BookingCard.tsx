import type { BookingContext, ScanParticipant } from '../api/types';
import { pickupLine, recordedCheckin } from '../api/answers';
import { pendingStateOf } from '../store/offlineQueue';
import { useQueue } from '../store/queue';
import { useManifest } from '../store/manifest';

const money = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`;

function ParticipantRow({ participant, closed }: { participant: ScanParticipant; closed: boolean }) {
  const queue = useQueue((s) => s.queue);
  const record = useManifest((s) => s.record);
  const server = participant.checkin;
  const event = recordedCheckin(server);
  const state = pendingStateOf(queue, participant.id, event?.eventId, server.state === 'CHECKED_IN');
  const name = participant.name || `Participant ${participant.position + 1}`;
  return (
    <li className={`participant ${state.checkedIn ? 'in' : server.state === 'NO_SHOW' ? 'noshow' : ''}`} aria-label={name}>
      <span className="who">
        <b>{name}</b>
        <small>
          {state.pending
            ? state.checkedIn
              ? 'Checked in (waiting to send)'
              : 'Undone (waiting to send)'
            : state.checkedIn
              ? `Checked in ${event?.atLocal.slice(11, 16) ?? ''}${event?.device ? ` · ${event.device}` : ''}`
              : server.state === 'NO_SHOW'
                ? 'No-show'
                : closed
                  ? 'Check-in closed'
                  : 'Expected'}
          {participant.barcode ? ` · ${participant.barcode}` : ''}
        </small>
      </span>
      {state.checkedIn ? (
        <button type="button" className="big secondary" aria-label={`Undo check-in of ${name}`} onClick={() => void record({ kind: 'UNDO', undoesEventId: state.eventId })}>
          Undo
        </button>
      ) : (
        <button type="button" className="big" aria-label={`Check in ${name}`} onClick={() => void record({ kind: 'CHECK_IN', participantId: participant.id })}>
          Check in
        </button>
      )}
    </li>
  );
}

/** One booking a search found: who, what, where from, what is owed, and its participants to check in. */
export function BookingCard({ booking, closed }: { booking: BookingContext & { participants: ScanParticipant[] }; closed: boolean }) {
  const notes = [booking.notes.internalNotes, booking.notes.comments, booking.notes.resellerComments].filter(Boolean);
  const p = booking.payment;
  return (
    <article className={`booking ${booking.attention ? 'attention' : ''}`} aria-label={`Booking ${booking.orderNumber}`}>
      <header className="row spread">
        <span>
          <b>{booking.customer?.name ?? 'No customer name'}</b> <small>{booking.orderNumber}</small>
          {booking.customer?.phone && (
            <>
              {' '}
              · <a href={`tel:${booking.customer.phone}`}>{booking.customer.phone}</a>
            </>
          )}
        </span>
        <span className={p.paid ? 'ok' : 'bad'}>{p.paid ? `Paid ${money(p.totalPaid, p.totalCurrency)}` : `Due ${money(p.totalDue, p.totalCurrency)}`}</span>
      </header>
      <p className="meta">
        {booking.quantities.map((q) => `${q.value} × ${q.optionLabel}`).join(', ')}
        {booking.extras.length > 0 && ` · ${booking.extras.map((e) => `${e.quantity} × ${e.name}`).join(', ')}`}
        {pickupLine(booking.pickup)}
      </p>
      {booking.attention && (
        <p className="note" role="note">
          ⚠ {booking.attentionReasons.join(', ')}
          {notes.length > 0 && `: ${notes.join(' · ')}`}
        </p>
      )}
      <ul className="participants">
        {booking.participants.map((participant) => (
          <ParticipantRow key={participant.id} participant={participant} closed={closed} />
        ))}
      </ul>
    </article>
  );
}
