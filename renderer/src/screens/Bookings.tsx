import { useEffect, useRef, useState } from 'react';
import type { Booking } from '../../../main/contract/bookings';
import { api } from '../api/client';
import { plainWords } from '../api/plainWords';
import { useConnection } from '../store/connection';
import { useNav } from '../store/nav';
import { Busy, ErrorText } from '../components/Status';
import { Card, Field } from '../components/ui';
import { DayField } from '../components/DayField';
import { Link } from '../components/Link';
import { usePageTitle } from '../components/usePageTitle';
import { formats } from '../lib/formats';

const SEARCH_DEBOUNCE_MS = 250;
const PAGE = 50;

export const customerName = (b: Pick<Booking, 'customer'>) => {
  const c = b.customer;
  if (!c) return 'No customer';
  return c.name || [c.firstName, c.lastName].filter(Boolean).join(' ') || c.email || 'No name';
};
/** An amount as the company's locale writes it (the one money format of every screen and page). */
export const money = (amount: number, currency: string) => formats().money(amount, currency);
const STATUS_WORDS: Record<string, string> = { CONFIRMED: 'Confirmed', CANCELLED: 'Cancelled', PENDING_SUPPLIER: 'Waiting for us', PENDING_CUSTOMER: 'Waiting for customer', ON_HOLD: 'On hold', NEW: 'New', PROCESSING: 'In progress', ABANDONED_CART: 'Abandoned' };
/** A booking's status as a word and a mark (never colour alone). */
export function StatusBadge({ status }: { status: string }) {
  const tone = status === 'CONFIRMED' ? 'ok' : status === 'CANCELLED' || status === 'ABANDONED_CART' ? 'bad' : 'warn';
  return (
    <span className={`badge ${tone}`}>
      <span aria-hidden="true">{tone === 'ok' ? '✓' : tone === 'bad' ? '✕' : '…'}</span> {STATUS_WORDS[status] ?? status}
    </span>
  );
}

function listWords(count: number, upcoming: boolean): string {
  const many = count === PAGE ? `The first ${PAGE} bookings` : `${count} booking${count === 1 ? '' : 's'}`;
  return upcoming ? `Upcoming departures: ${many}, soonest first` : `${many}, oldest first`;
}

/** Booking search: by name, order number, phone or email, and by tour date. The query lives in the URL. */
export function Bookings({ q, date }: { q: string; date: string | null }) {
  const config = useConnection((s) => s.config)!;
  const replace = useNav((s) => s.replace);
  const [text, setText] = useState(q);
  const [day, setDay] = useState(date ?? '');
  const [results, setResults] = useState<Booking[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const asked = useRef(0);
  usePageTitle('Bookings');

  useEffect(() => {
    const timer = setTimeout(() => {
      const search = text.trim();
      replace({ name: 'bookings', q: search, date: day || null });
      const query = new URLSearchParams({ limit: String(PAGE) });
      if (search) query.set('search', search);
      if (day) {
        query.set('minTourStartTime', day);
        query.set('maxTourStartTime', day);
      }
      // Nothing asked yet: the desk's next departures, soonest first, from the company's today.
      if (!search && !day) {
        query.set('minTourStartTime', formats().dayOf(Date.now()));
        query.set('sort', 'tourStartTime');
      }
      const mine = ++asked.current;
      setBusy(true);
      api(config, 'GET /v1/bookings', { query })
        .then((r) => mine === asked.current && (setResults(r.bookings), setError(null)))
        .catch((e) => mine === asked.current && setError(plainWords(e)))
        .finally(() => mine === asked.current && setBusy(false));
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, day, config, replace]);

  return (
    <>
      <Card title="Bookings">
        <form role="search" className="search-row" onSubmit={(e) => e.preventDefault()}>
          <Field label="Name, order number or phone" type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="e.g. Lovelace, TD1-1234, 0412…" data-search autoFocus hint="Press / to come back here." />
          <DayField label="Tour date" day={day} onDay={setDay} />
        </form>
      </Card>
      {busy && <Busy label="Searching…" />}
      <ErrorText error={error} />
      {results && (
        <section aria-label="Search results" className="card">
          {results.length === 0 ? (
            <p>{!text.trim() && !day ? 'No bookings for upcoming departures.' : `No bookings match${text.trim() ? ` “${text.trim()}”` : ''}${day ? ` on ${formats().date(day)}` : ''}.`}</p>
          ) : (
            <>
              <p className="muted">
                {listWords(results.length, !text.trim() && !day)}
              </p>
              <ul className="results">
                {results.map((b) => (
                  <li key={b.orderNumber}>
                    <Link to={{ name: 'booking', orderNumber: b.orderNumber }} className="result">
                      <span className="result-main">
                        <strong>{customerName(b)}</strong>
                        <span className="muted">
                          <span className="nowrap">{b.orderNumber}</span>
                          {b.customer?.phone ? <span className="nowrap"> · {b.customer.phone}</span> : null}
                        </span>
                      </span>
                      <span className="result-what">
                        {b.items.map((i) => `${i.productName}, ${formats().dateTime(i.startTimeLocal)}`).join('; ')}
                      </span>
                      <span className="result-side">
                        <StatusBadge status={b.status} />
                        <span>{money(b.totalAmount, b.totalCurrency)}</span>
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}
    </>
  );
}
