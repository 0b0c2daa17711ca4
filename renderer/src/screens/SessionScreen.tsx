import { useEffect, useMemo, useState } from 'react';
import { POLL_MS, useManifest } from '../store/manifest';
import { useOutbox } from '../store/outbox';
import { waitingEvents } from '../outbox/items';
import { applyEvents, deskBookings, rowsOf, searchBookings } from '../model/deskManifest';
import { ManifestList } from '../components/ManifestList';
import { ManifestOverrideDialog } from '../components/ManifestOverrideDialog';
import { ManifestUndoToast } from '../components/ManifestUndoToast';
import { ToastDock } from '../components/ToastDock';
import { NoCodesNotice } from '../components/NoCodesNotice';
import { OversoldNotice } from '../components/OversoldNotice';
import { Busy, ErrorText } from '../components/Status';
import { departureTitle, usePageTitle } from '../components/usePageTitle';
import '../manifest.css';
import { ConflictNotes, RefusedAlerts } from './session/ManifestNotices';
import { ManifestToolbar, type ManifestTool } from './session/ManifestToolbar';
import { SessionHeader } from './session/SessionHeader';
import { SessionTotals } from './session/SessionTotals';
import { useDeskActions } from './session/useDeskActions';
import { PickupRunLink } from './session/PickupRunLink';
import { hasPickups, pickupStops, rowsByStop } from './session/pickupStops';
import { TakePaymentDialog } from './payment/TakePaymentDialog';

const SEARCH_DEBOUNCE_MS = 200;
const wide = () => typeof window !== 'undefined' && window.matchMedia?.('(min-width: 721px)').matches;

/** A session's manifest at departure: scan, search as you type, check people in by booking or one by one. */
export function SessionScreen({ sessionId }: { sessionId: number }) {
  const { manifest: held, loading, error, load, poll } = useManifest();
  const outbox = useOutbox((s) => s.items);
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [tools, setTools] = useState<ManifestTool>(wide() ? 'scan' : null);
  const { selected, actions, asking, admit, payAndAdmit, dismissAsking, paying, dismissPaying } = useDeskActions(sessionId);

  useEffect(() => void load(sessionId), [load, sessionId]);
  // Other desks and scanners change it too: a cheap version check, the manifest only when it moved.
  useEffect(() => {
    const timer = setInterval(() => void poll(), POLL_MS);
    return () => clearInterval(timer);
  }, [poll]);
  useEffect(() => {
    const timer = setTimeout(() => setQuery(typed), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  // Events still waiting in the outbox are laid over the copy, so the screen shows what was done here.
  const waiting = useMemo(() => waitingEvents(outbox).filter((e) => e.sessionId === sessionId), [outbox, sessionId]);
  const manifest = useMemo(() => (held ? applyEvents(held, waiting) : null), [held, waiting]);
  const pendingIds = useMemo(() => new Set(waiting.flatMap((e) => (e.participantId !== undefined ? [e.participantId] : []))), [waiting]);
  const bookings = useMemo(() => (manifest ? deskBookings(manifest) : []), [manifest]);
  const shown = useMemo(() => searchBookings(bookings, query), [bookings, query]);
  // Where the product has pickups, the list runs stop by stop, in the order the driver collects them.
  const byPickup = useMemo(() => hasPickups(bookings), [bookings]);
  const rows = useMemo(() => (byPickup ? rowsByStop(pickupStops(shown)) : rowsOf(shown)), [byPickup, shown]);

  const s = manifest?.session;
  const totals = manifest?.totals;
  usePageTitle(s ? departureTitle(s) : 'Departure');
  return (
    <section className="manifest" aria-labelledby="session-title">
      <SessionHeader session={s} sessionId={sessionId} remaining={totals?.remaining ?? 0} />
      <ErrorText error={error} />
      {!manifest && loading && <Busy label="Loading manifest…" />}
      {manifest && s && totals && (
        <>
          <SessionTotals totals={totals} waitingCount={pendingIds.size} />
          {s.ticketCodes === null && <NoCodesNotice productCode={s.productCode} productName={s.productName} />}
          {s.oversold && <OversoldNotice sessionId={sessionId} oversold={s.oversold} onAcknowledged={() => void load(sessionId)} />}
          <ManifestToolbar typed={typed} onType={setTyped} tools={tools} onTools={setTools} session={s} sessionId={sessionId} />
          {byPickup && <PickupRunLink sessionId={sessionId} />}
          <RefusedAlerts />
          <ConflictNotes conflicts={manifest.conflicts} bookings={bookings} />
          {rows.length === 0 ? (
            <p className="mf-empty">{query ? `Nothing found for “${query}”.` : 'No bookings yet.'}</p>
          ) : (
            <>
              {query && <p className="mf-found" role="status">{shown.length} {shown.length === 1 ? 'booking' : 'bookings'} found</p>}
              <ManifestList manifest={manifest} rows={rows} pendingIds={pendingIds} selected={selected} actions={actions} />
            </>
          )}
          {asking && <ManifestOverrideDialog pending={asking} onAdmit={() => admit(asking)} onCancel={dismissAsking} onPayAndAdmit={() => payAndAdmit(asking)} />}
          <TakePaymentDialog target={paying} onClose={dismissPaying} onRecorded={() => void load(sessionId)} />
          <ToastDock>
            <ManifestUndoToast />
          </ToastDock>
        </>
      )}
    </section>
  );
}
