import { useEffect } from 'react';
import { useManifest } from '../store/manifest';
import { useNav } from '../store/nav';
import { useQueue } from '../store/queue';
import { totalsWithQueue } from '../store/offlineQueue';
import { BookingCard } from '../components/BookingCard';
import { Exports } from '../components/Exports';
import { ScanBox } from '../components/ScanBox';
import { SearchBox } from '../components/SearchBox';
import { Busy, Counts, ErrorText, timeOf } from '../components/Status';

/** A session's manifest at departure: scan, search, check in by hand, totals always in view. */
export function SessionScreen({ sessionId }: { sessionId: number }) {
  const { manifest, loading, error, load, record } = useManifest();
  const delivered = useQueue((s) => s.delivered);
  const queue = useQueue((s) => s.queue);
  const go = useNav((s) => s.go);

  useEffect(() => {
    void load(sessionId);
  }, [load, sessionId, delivered]);
  // Other devices check people in too: the manifest refreshes quietly (it stays on screen while it loads).
  useEffect(() => {
    const timer = setInterval(() => void load(sessionId), 20_000);
    return () => clearInterval(timer);
  }, [load, sessionId]);

  const s = manifest?.session;
  const totals = manifest ? totalsWithQueue(queue, manifest.totals, manifest.bookings.flatMap((b) => b.participants)) : null;
  return (
    <section aria-labelledby="session-title">
      <div className="row spread">
        <button type="button" className="secondary" onClick={() => go({ name: 'board' })}>
          ◀ Departures
        </button>
        {s && (
          <div className="row">
            <button type="button" onClick={() => go({ name: 'scan', sessionId })}>
              Open scanner
            </button>
            <button type="button" onClick={() => go({ name: 'walkup', sessionId })}>
              Walk-up booking
            </button>
            {s.checkinClosed ? (
              <button type="button" className="secondary" onClick={() => void record({ kind: 'REOPEN' })}>
                Reopen check-in
              </button>
            ) : (
              <button
                type="button"
                className="danger"
                onClick={() => {
                  if (window.confirm('Close check-in? Everyone not checked in will count as a no-show.')) void record({ kind: 'CLOSE' });
                }}
              >
                Close check-in
              </button>
            )}
          </div>
        )}
      </div>
      <ErrorText error={error} />
      {!manifest && loading && <Busy label="Loading manifest…" />}
      {manifest && s && (
        <>
          <div className="card sticky">
            <h2 id="session-title">
              {timeOf(s.startTimeLocal)} {s.productName} <small>{s.startTimeLocal.slice(0, 10)}{s.checkinClosed ? ' · check-in closed' : ''}</small>
            </h2>
            {totals && <Counts label="Session totals" booked={totals.booked} checkedIn={totals.checkedIn} noShow={totals.noShow} remaining={totals.remaining} />}
            {totals && totals.waiting > 0 && <small className="waiting-note">Includes {totals.waiting} waiting to send</small>}
          </div>
          <div className="card tools">
            <ScanBox sessionId={sessionId} />
            <SearchBox sessionId={sessionId} closed={s.checkinClosed} />
            <Exports sessionId={sessionId} name={`manifest-${s.productCode}-${s.startTimeLocal.slice(0, 16).replace(/[: ]/g, '-')}`} />
          </div>
          {manifest.conflicts.map((c) => (
            <p key={c.message} className="note" role="note">
              ⚠ {c.message}
            </p>
          ))}
          <div className="card" aria-label="Bookings">
            {manifest.bookings.length === 0 ? <p>No bookings yet.</p> : manifest.bookings.map((b) => <BookingCard key={b.orderNumber} booking={b} closed={s.checkinClosed} />)}
            {manifest.cancelled.length > 0 && (
              <details>
                <summary>{manifest.cancelled.length} cancelled</summary>
                <ul>
                  {manifest.cancelled.map((c) => (
                    <li key={c.orderNumber}>
                      {c.orderNumber} · {c.customer?.name ?? '—'} · {c.participantCount} people · cancelled {c.cancelledAtLocal}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </div>
        </>
      )}
    </section>
  );
}
