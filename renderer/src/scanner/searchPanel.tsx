import { useMemo, useState } from 'react';
import { useScanner } from '../store/scanner';
import { recordedCheckin } from '../api/answers';
import { nameOf } from './verdict';
import { useFormats } from '../lib/formats';
import { MIN_QUERY, searchablesOf, searchHeld, stateOf, type Searchable } from './search';

/**
 * "Find a guest" on the scanner: what the device holds, searched as the guide types (offline too).
 * A result checks in by the person's own code, or the booking's for several, through the same
 * verdict a scan gives: the group panel, and a deliberate override where the rules refuse.
 */
export function SearchPanel({ onCode }: { onCode(code: string): void }) {
  const copy = useScanner((s) => s.copy);
  const [query, setQuery] = useState('');
  const searching = query.trim().length >= MIN_QUERY;
  // Only while searching: the copy changes with every scan, and 6,000 people need not be listed for nobody.
  const rows = useMemo(() => (searching ? searchablesOf(copy) : []), [copy, searching]);
  const { found, more } = useMemo(() => searchHeld(rows, query), [rows, query]);
  return (
    <section className="scan-search" aria-label="Find a guest">
      <label>
        Find a guest (no ticket)
        <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Name, phone or order number" autoComplete="off" enterKeyHint="search" />
      </label>
      {searching && !found.length && <p className="muted">No booking on this device matches “{query.trim()}”.</p>}
      {found.length > 0 && (
        <ul className="found" aria-label="Search results">
          {found.map((row) => (
            <FoundBooking key={`${row.session.id}-${row.booking.orderNumber}-${row.booking.cancelled}`} row={row} onCode={onCode} />
          ))}
        </ul>
      )}
      {more > 0 && <p className="muted">{more} more: type more of the name or number.</p>}
    </section>
  );
}

function FoundBooking({ row, onCode }: { row: Searchable; onCode(code: string): void }) {
  const { session, booking, orderCode } = row;
  // The company's day and clock (its locale's 12/24-hour); *Local times are the company's already and read as they stand.
  const f = useFormats((s) => s.formats);
  const open = booking.participants.filter((p) => !stateOf(booking, p).in);
  return (
    <li className={booking.cancelled ? 'cancelled' : ''} aria-label={`Booking ${booking.orderNumber}`}>
      <p className="found-head">
        <b>{booking.orderNumber}</b>
        {booking.customerName ? ` · ${booking.customerName}` : ''}
        <br />
        <span className="when">
          {f.dayShort(session.startTimeLocal)} {f.time(session.startTimeLocal)} · {session.productName}
          {session.checkinClosed ? ' · check-in closed' : ''}
        </span>
      </p>
      <ul className="found-people">
        {booking.participants.map((p) => {
          const name = nameOf(p);
          const state = stateOf(booking, p);
          const at = recordedCheckin(p.checkin)?.atLocal;
          return (
            <li key={p.id}>
              <span className="who">{name}</span>
              <span className={`state ${state.in ? 'in' : ''}`}>
                {state.in ? '✓ ' : ''}
                {state.word}
                {state.in && at ? ` ${f.time(at)}` : ''}
              </span>
              {!state.in && p.barcode && (
                <button type="button" className="small" aria-label={`Check in ${name}`} onClick={() => onCode(p.barcode!)}>
                  Check in
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {booking.cancelled && <p className="muted">Cancelled: “Check in” shows why, with the one override the rules allow.</p>}
      {orderCode && open.length > 1 && (
        <button type="button" className="secondary" onClick={() => onCode(orderCode)}>
          Check in from the booking ({open.length} not in)
        </button>
      )}
    </li>
  );
}
