import { useEffect, useRef, useState } from 'react';
import { useQueue } from '../store/queue';
import { api, messageOf } from '../api/client';
import type { SearchHit } from '../api/types';
import { useConnection } from '../store/connection';
import { BookingCard } from './BookingCard';
import { Busy, ErrorText } from './Status';

/** For codes that will not scan: find the booking by name, order number or phone. */
export function SearchBox({ sessionId, closed }: { sessionId: number; closed: boolean }) {
  const config = useConnection((s) => s.config)!;
  const [q, setQ] = useState('');
  const [matches, setMatches] = useState<SearchHit[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const searched = useRef<string | null>(null);
  const delivered = useQueue((s) => s.delivered);

  function search(text: string) {
    searched.current = text;
    setBusy(true);
    setError(null);
    api<{ matches: SearchHit[] }>(config, 'GET', `/v1/manifest/search?sessionId=${sessionId}&q=${encodeURIComponent(text)}`)
      .then((r) => setMatches(r.matches))
      .catch((err) => {
        setMatches(null);
        setError(messageOf(err));
      })
      .finally(() => setBusy(false));
  }
  // Check-ins made from the results were sent: show the results as they now stand.
  useEffect(() => {
    if (searched.current) search(searched.current);
  }, [delivered]);

  return (
    <form
      className="search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        search(q.trim());
      }}
    >
      <label>
        Find a booking
        <input value={q} onChange={(e) => setQ(e.target.value)} placeholder="Name, order number or phone" />
      </label>
      <button type="submit" disabled={busy}>
        Search
      </button>
      {busy && <Busy label="Searching…" />}
      <ErrorText error={error} />
      {matches && (
        <div aria-label="Search results">
          {matches.length === 0 ? <p>Nothing found for “{q}”.</p> : matches.map((m) => <BookingCard key={m.booking.orderNumber} booking={{ ...m.booking, participants: m.participants }} closed={closed} />)}
          <button type="button" className="secondary" onClick={() => ((searched.current = null), setMatches(null))}>
            Clear results
          </button>
        </div>
      )}
    </form>
  );
}
