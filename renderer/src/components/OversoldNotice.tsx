import { useState } from 'react';
import type { SessionOversold } from '../../../main/contract/manifest';
import { api } from '../api/client';
import { plainWords } from '../api/plainWords';
import { useConnection } from '../store/connection';
import { isOfficeKey, useInstance } from '../store/instance';
import { Link } from './Link';
import { Button } from './ui';
import { seatsLeft } from '../../../main/domain/format';

/**
 * A session that sync left with more seats held than it has (two instances sold the last seats
 * while apart). Every booking stands; the desk sees who is involved and, with a supplier key,
 * acknowledges the set once it is dealt with. The acknowledgement is synced, and the notice comes
 * back if the set of bookings changes.
 */
export function OversoldNotice({ sessionId, oversold, onAcknowledged }: { sessionId: number; oversold: SessionOversold; onAcknowledged: () => void }) {
  const config = useConnection((s) => s.config);
  const mayAcknowledge = useInstance((s) => isOfficeKey(s.instance?.key.role));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const over = oversold.seatsHeld - oversold.capacity;

  async function acknowledge() {
    if (!config) return;
    setBusy(true);
    setError(null);
    try {
      await api(config, 'POST /v1/sync/conflicts/:sessionId/acknowledge', { params: { sessionId }, body: { bookingSet: oversold.bookingSet } });
      onAcknowledged();
    } catch (e) {
      setError(plainWords(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={`mf-oversold${oversold.acknowledged ? ' acknowledged' : ''}`} role={oversold.acknowledged ? 'note' : 'alert'} aria-label="Oversold session">
      <p>
        <b>
          ▲ Oversold{oversold.acknowledged ? ' (acknowledged)' : ' after sync'}: {oversold.seatsHeld} seats held for {oversold.capacity}
          {over > 0 ? `, ${seatsLeft(-over)}` : ''}.
        </b>{' '}
        {oversold.acknowledged
          ? 'Someone has dealt with this set of bookings; it comes back if the set changes.'
          : 'Two instances sold these seats while apart; every booking stands. Move, rebook or refund people as needed, then acknowledge.'}
      </p>
      <p className="mf-oversold-bookings">
        Bookings:{' '}
        {oversold.bookings.map((b, i) => (
          <span key={b.orderNumber}>
            {i > 0 && ', '}
            <Link to={{ name: 'booking', orderNumber: b.orderNumber }}>{b.orderNumber}</Link> ({b.seats} {b.seats === 1 ? 'seat' : 'seats'})
          </span>
        ))}
      </p>
      {!oversold.acknowledged && mayAcknowledge && (
        <Button variant="secondary" disabled={busy} onClick={() => void acknowledge()}>
          {busy ? 'Acknowledging…' : 'Acknowledge'}
        </Button>
      )}
      {error && <p className="error">{error}</p>}
    </div>
  );
}
