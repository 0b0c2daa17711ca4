import { useEffect, useMemo, useState } from 'react';
import { api, messageOf } from '../../api/client';
import type { Manifest } from '../../api/types';
import { deskBookings } from '../../model/deskManifest';
import { useConnection } from '../../store/connection';
import { Busy, ErrorText, timeOf } from '../../components/Status';
import { dayInWords } from '../../components/BoardDate';
import { Link } from '../../components/Link';
import { Button } from '../../components/ui';
import { usePageTitle } from '../../components/usePageTitle';
import { bookingNames, pickupStops, stopCounts, stopTitle, type PickupStop } from './pickupStops';
import './pickups.css';

function StopTable({ stop }: { stop: PickupStop }) {
  const live = stop.bookings.filter((b) => !b.cancelled);
  return (
    <section className="rs-stop" aria-label={`Stop ${stopTitle(stop)}`}>
      <h3>
        {stopTitle(stop)} <small>· {stopCounts(stop)}</small>
      </h3>
      {(stop.address || stop.instructions) && <p className="rs-where">{[stop.address, stop.instructions].filter(Boolean).join(' · ')}</p>}
      <table className="rs-table">
        <thead>
          <tr>
            <th className="rs-box" aria-label="Collected">
              ✓
            </th>
            <th>Names</th>
            <th className="rs-seats">Seats</th>
            <th className="rs-phone-col">Phone</th>
            <th className="rs-order">Order</th>
          </tr>
        </thead>
        <tbody>
          {live.map((b) => (
            <tr key={b.orderNumber}>
              <td className="rs-box">☐</td>
              <td>{bookingNames(b).join(', ')}</td>
              <td className="rs-seats">{b.live?.seats ?? 0}</td>
              <td className="rs-phone-col">{b.phone ? <a href={`tel:${b.phone}`}>{b.phone}</a> : '—'}</td>
              <td>{b.orderNumber}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The driver's pickup run for one departure: stops in order, who and how many seats at each, their phones; printable. */
export function RunSheet({ sessionId }: { sessionId: number }) {
  const config = useConnection((s) => s.config)!;
  const [manifest, setManifest] = useState<Manifest | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api(config, 'GET /v1/manifest', { query: { sessionId } })
      .then((r) => live && setManifest(r.manifest))
      .catch((e) => live && setError(messageOf(e)));
    return () => {
      live = false;
    };
  }, [config, sessionId]);
  // The run collects live bookings only; those without a pickup meet the departure and are not on it.
  const stops = useMemo(() => (manifest ? pickupStops(deskBookings(manifest).filter((b) => !b.cancelled)) : []), [manifest]);
  const run = stops.filter((s) => s.locationName !== null);
  const s = manifest?.session;
  usePageTitle(s ? `Pickup run · ${s.productName} ${timeOf(s.startTimeLocal)}` : 'Pickup run');
  return (
    <section className="card rs" aria-labelledby="run-title">
      <div className="rs-head">
        <h2 id="run-title">{s ? `Pickup run · ${s.productName}` : 'Pickup run'}</h2>
        <div className="row rs-noprint">
          <Link to={{ name: 'session', sessionId }}>Back to the manifest</Link>
          <Button onClick={() => window.print()} disabled={!manifest}>
            Print run sheet
          </Button>
        </div>
      </div>
      <ErrorText error={error} />
      {!manifest && !error && <Busy label="Loading the pickups…" />}
      {s && (
        <p>
          Departs {dayInWords(s.startTimeLocal.slice(0, 10))} at <b>{timeOf(s.startTimeLocal)}</b> · {s.productCode}
        </p>
      )}
      {manifest && run.length === 0 && <p>No booking on this departure is collected from a pickup point.</p>}
      {run.map((stop) => (
        <StopTable key={stop.key} stop={stop} />
      ))}
      {run.length > 0 && (
        <p className="rs-total">
          {run.length} {run.length === 1 ? 'stop' : 'stops'} · {run.reduce((n, st) => n + st.seats, 0)} seats to collect
        </p>
      )}
    </section>
  );
}
