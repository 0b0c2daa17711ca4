import { useLayoutEffect, useRef, useState } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import type { Manifest } from '../api/types';
import { pickupLine, recordedCheckin } from '../api/answers';
import { personName, refusalOf, type DeskBooking, type DeskParticipant, type ManifestRow, type Refusal } from '../model/deskManifest';
import { formats } from '../lib/formats';
import { timeOf } from './Status';

const money = (amount: number, currency: string) => formats().money(amount, currency);

/** What a row's buttons ask the screen to do; the screen owns the events and the override dialog. */
export interface ManifestActions {
  checkIn(booking: DeskBooking, participants: DeskParticipant[]): void;
  /** A check-in a rule refuses: the screen asks first, naming the rule. */
  admitAnyway(booking: DeskBooking, participants: DeskParticipant[], refusal: Refusal): void;
  undo(participant: DeskParticipant): void;
  noShow(participant: DeskParticipant): void;
  /** Take the booking's balance at the desk. */
  takePayment(booking: DeskBooking): void;
  toggle(participantId: number): void;
}

function stateText(p: DeskParticipant, booking: DeskBooking, closed: boolean, pending: boolean): string {
  const c = p.checkin;
  const event = recordedCheckin(c);
  if (c.state === 'CHECKED_IN') return pending ? 'Checked in (waiting to send)' : `Checked in ${event ? timeOf(event.atLocal) : ''}${event?.device ? ` · ${event.device}` : event?.by ? ` · ${event.by}` : ''}`;
  if (booking.cancelled) return 'Booking cancelled';
  if (c.state === 'NO_SHOW') return event ? `No-show${pending ? ' (waiting to send)' : ''}` : 'No-show (check-in closed)';
  return closed ? 'Check-in closed' : 'Expected';
}

function BookingHeader({ manifest, booking, selected, actions }: { manifest: Manifest; booking: DeskBooking; selected: ReadonlySet<number>; actions: ManifestActions }) {
  const b = booking.live;
  const waiting = booking.participants.filter((p) => p.checkin.state !== 'CHECKED_IN');
  const picked = waiting.filter((p) => selected.has(p.id));
  const targets = picked.length ? picked : waiting;
  const refusal = targets.length ? refusalOf(manifest, booking, targets.map((p) => p.id)) : null;
  const total = booking.participants.length;
  const label = picked.length ? `Check in ${picked.length} of ${total}` : waiting.length === total ? `Check in all ${total}` : `Check in the other ${waiting.length}`;
  const notes = b ? [b.notes.internalNotes, b.notes.comments, b.notes.resellerComments].filter(Boolean) : [];
  return (
    <header className={`mf-booking ${booking.cancelled ? 'cancelled' : ''} ${b?.attention ? 'attention' : ''}`}>
      <div className="mf-booking-who">
        <b>{booking.customerName ?? 'No customer name'}</b> <span className="mf-order">{booking.orderNumber}</span>
        {booking.cancelled && <span className="mf-badge cancelled">✕ Cancelled{booking.cancelledAtLocal ? ` ${formats().dateTime(booking.cancelledAtLocal)}` : ''}</span>}
        {booking.phone && (
          <a className="mf-phone" href={`tel:${booking.phone}`}>
            {booking.phone}
          </a>
        )}
      </div>
      {b && (
        <div className="mf-booking-meta">
          <span className={b.payment.paid ? 'ok' : 'bad'}>{b.payment.paid ? `✓ Paid ${money(b.payment.totalPaid, b.payment.totalCurrency)}` : `! Due ${money(b.payment.totalDue, b.payment.totalCurrency)}`}</span>
          {!b.payment.paid && !booking.cancelled && b.payment.totalDue > 0 && (
            <button type="button" className="secondary mf-take" aria-label={`Take payment for ${booking.orderNumber}`} onClick={() => actions.takePayment(booking)}>
              Take payment…
            </button>
          )}
          {' · '}
          {b.quantities.map((q) => `${q.value} × ${q.optionLabel}`).join(', ')}
          {b.extras.length > 0 && ` · ${b.extras.map((e) => `${e.quantity} × ${e.name}`).join(', ')}`}
          {pickupLine(b.pickup)}
          {b.attention && <span className="mf-attention"> · ⚠ {b.attentionReasons.join(', ').toLowerCase()}{notes.length > 0 && `: ${notes.join(' · ')}`}</span>}
        </div>
      )}
      {targets.length > 0 && total > 1 && (
        <div className="mf-booking-actions">
          {refusal ? (
            <button type="button" className="mf-override" onClick={() => actions.admitAnyway(booking, targets, refusal)}>
              {booking.cancelled ? `Admit ${targets.length} anyway…` : `${label}…`}
            </button>
          ) : (
            <button type="button" className="mf-primary" onClick={() => actions.checkIn(booking, targets)}>
              {label}
            </button>
          )}
        </div>
      )}
    </header>
  );
}

function PersonRow({ manifest, booking, participant: p, pending, selected, actions }: { manifest: Manifest; booking: DeskBooking; participant: DeskParticipant; pending: boolean; selected: boolean; actions: ManifestActions }) {
  const name = personName(p);
  const closed = manifest.session.checkinClosed;
  const state = p.checkin.state;
  const refusal = state === 'CHECKED_IN' ? null : refusalOf(manifest, booking, [p.id]);
  const tickable = state !== 'CHECKED_IN' && booking.participants.length > 1 && !booking.cancelled;
  return (
    <div className={`mf-person ${state === 'CHECKED_IN' ? 'in' : state === 'NO_SHOW' ? 'noshow' : ''} ${booking.cancelled ? 'cancelled' : ''}`} aria-label={name} role="listitem">
      {tickable ? (
        <label className="mf-tick">
          <input type="checkbox" checked={selected} onChange={() => actions.toggle(p.id)} aria-label={`Pick ${name}`} />
        </label>
      ) : (
        <span className="mf-tick" aria-hidden="true">
          {state === 'CHECKED_IN' ? '✓' : booking.cancelled ? '✕' : ''}
        </span>
      )}
      <span className="mf-who">
        <b>{name}</b>
        <small>
          {stateText(p, booking, closed, pending)}
          {p.barcode ? <span className="mf-code"> · {p.barcode}</span> : ''}
        </small>
      </span>
      <span className="mf-actions">
        {state === 'CHECKED_IN' ? (
          <button type="button" className="secondary" aria-label={`Undo check-in of ${name}`} onClick={() => actions.undo(p)}>
            Undo
          </button>
        ) : refusal ? (
          <button type="button" className="mf-override" aria-label={`Admit ${name} anyway…`} title={refusal.reason} onClick={() => actions.admitAnyway(booking, [p], refusal)}>
            Admit…
          </button>
        ) : (
          <button type="button" className="mf-primary" aria-label={`Check in ${name}`} onClick={() => actions.checkIn(booking, [p])}>
            Check in
          </button>
        )}
        {state === 'EXPECTED' && !booking.cancelled && (
          <button type="button" className="secondary" aria-label={`Mark ${name} as no-show`} onClick={() => actions.noShow(p)}>
            No-show
          </button>
        )}
        {state === 'NO_SHOW' && recordedCheckin(p.checkin) && (
          <button type="button" className="secondary" aria-label={`Undo no-show of ${name}`} onClick={() => actions.undo(p)}>
            Undo
          </button>
        )}
      </span>
    </div>
  );
}

/**
 * The manifest's bookings and people as one virtualised list over the page's own scroll: only the
 * rows near the viewport are in the DOM, so 1,000 participants scroll like 20.
 */
export function ManifestList({ manifest, rows, pendingIds, selected, actions }: { manifest: Manifest; rows: ManifestRow[]; pendingIds: ReadonlySet<number>; selected: ReadonlySet<number>; actions: ManifestActions }) {
  const listRef = useRef<HTMLDivElement>(null);
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    setOffset(listRef.current ? listRef.current.getBoundingClientRect().top + window.scrollY : 0);
  });
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: (i) => (rows[i].kind === 'booking' ? 84 : rows[i].kind === 'stop' ? 48 : 60),
    overscan: 8,
    scrollMargin: offset,
    getItemKey: (i) => rows[i].key,
  });
  return (
    <div ref={listRef} className="mf-list" role="list" aria-label="Passengers" aria-rowcount={rows.length} style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) => {
        const row = rows[item.index];
        return (
          <div
            key={item.key}
            data-index={item.index}
            ref={virtualizer.measureElement}
            className="mf-row"
            role={row.kind === 'booking' ? 'article' : row.kind === 'stop' ? 'heading' : undefined}
            aria-level={row.kind === 'stop' ? 3 : undefined}
            aria-label={row.kind === 'booking' ? `Booking ${row.booking.orderNumber}` : row.kind === 'stop' ? `Pickup ${row.title}, ${row.counts}` : undefined}
            style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}
          >
            {row.kind === 'stop' ? (
              <div className="mf-stop">
                <b>{row.title}</b> <span>{row.counts}</span>
              </div>
            ) : row.kind === 'booking' ? (
              <BookingHeader manifest={manifest} booking={row.booking} selected={selected} actions={actions} />
            ) : (
              <PersonRow manifest={manifest} booking={row.booking} participant={row.participant} pending={pendingIds.has(row.participant.id)} selected={selected.has(row.participant.id)} actions={actions} />
            )}
          </div>
        );
      })}
    </div>
  );
}
