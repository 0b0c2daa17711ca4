import { useEffect, useMemo, useState } from 'react';
import { recordedCheckin } from '../api/answers';
import { POLL_MS, useManifest } from '../store/manifest';
import { useNav } from '../store/nav';
import { mayBook, useInstance } from '../store/instance';
import { useOutbox } from '../store/outbox';
import { waitingEvents } from '../outbox/items';
import { applyEvents, deskBookings, personName, rowsOf, searchBookings, type DeskBooking, type DeskParticipant, type Refusal } from '../model/deskManifest';
import { ManifestList, type ManifestActions } from '../components/ManifestList';
import { ManifestOverrideDialog, type PendingOverride } from '../components/ManifestOverrideDialog';
import { ManifestUndoToast } from '../components/ManifestUndoToast';
import { Exports } from '../components/Exports';
import { ScanBox } from '../components/ScanBox';
import { OversoldNotice } from '../components/OversoldNotice';
import { Busy, ErrorText, timeOf } from '../components/Status';
import { dayInWords } from '../components/BoardDate';
import '../manifest.css';
import { closeCheckinQuestion } from './boardState';

const SEARCH_DEBOUNCE_MS = 200;
const wide = () => typeof window !== 'undefined' && window.matchMedia?.('(min-width: 721px)').matches;

/** A session's manifest at departure: scan, search as you type, check people in by booking or one by one. */
export function SessionScreen({ sessionId }: { sessionId: number }) {
  const { manifest: held, loading, error, load, poll, checkIn, record, refused, dismissRefused } = useManifest();
  const outbox = useOutbox((s) => s.items);
  const go = useNav((s) => s.go);
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [asking, setAsking] = useState<PendingOverride | null>(null);
  const [tools, setTools] = useState<'scan' | 'files' | null>(wide() ? 'scan' : null);

  useEffect(() => {
    void load(sessionId);
    setSelected(new Set());
  }, [load, sessionId]);
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
  const rows = useMemo(() => rowsOf(shown), [shown]);

  const done = (ids: number[]) => setSelected((s) => new Set([...s].filter((id) => !ids.includes(id))));
  const actions: ManifestActions = {
    checkIn(booking, people) {
      const all = people.length === booking.participants.length;
      const label = people.length === 1 ? `${personName(people[0])} checked in` : `${all ? 'All' : people.length} of ${booking.participants.length} checked in · ${booking.customerName ?? booking.orderNumber}`;
      void checkIn(people.map((p) => p.id), label);
      done(people.map((p) => p.id));
    },
    admitAnyway(booking, people, refusal) {
      setAsking({ booking, people, refusal });
    },
    undo(p) {
      const event = recordedCheckin(p.checkin);
      if (event) void record([{ kind: 'UNDO', undoesEventId: event.eventId }]);
    },
    noShow(p) {
      void record([{ kind: 'NO_SHOW', participantId: p.id }]);
    },
    toggle(id) {
      setSelected((s) => {
        const next = new Set(s);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
    },
  };

  const admit = (booking: DeskBooking, people: DeskParticipant[], refusal: Refusal) => {
    const names = people.map(personName).join(', ');
    void checkIn(people.map((p) => p.id), `${names} admitted anyway (${refusal.rule.replaceAll('_', ' ').toLowerCase()}) · ${booking.orderNumber}`, [refusal.rule]);
    done(people.map((p) => p.id));
    setAsking(null);
  };

  const s = manifest?.session;
  const mayBookHere = useInstance((state) => mayBook(state.instance?.key.role));
  const totals = manifest?.totals;
  return (
    <section className="manifest" aria-labelledby="session-title">
      <div className="mf-head">
        <button type="button" className="secondary mf-back" onClick={() => go({ name: 'board' })} aria-label="Back to departures">
          ◀ <span className="mf-wide">Departures</span>
        </button>
        {s && (
          <h2 id="session-title">
            {timeOf(s.startTimeLocal)} {s.productName}{' '}
            <small>
              {dayInWords(s.startTimeLocal.slice(0, 10))} · {s.productCode}
            </small>
            {s.checkinClosed && <span className="mf-badge closed">■ Check-in closed</span>}
          </h2>
        )}
        {s && (
          <div className="mf-head-actions">
            <button type="button" className="secondary" onClick={() => go({ name: 'scan', sessionId })}>
              Open scanner
            </button>
            {mayBookHere && (
              <button type="button" className="secondary" onClick={() => go({ name: 'walkup', sessionId })}>
                Walk-up booking
              </button>
            )}
            {s.checkinClosed ? (
              <button type="button" className="secondary" onClick={() => void record([{ kind: 'REOPEN' }])}>
                Reopen check-in
              </button>
            ) : (
              <button
                type="button"
                className="danger"
                onClick={() => {
                  if (window.confirm(closeCheckinQuestion(s, totals?.remaining ?? 0, Date.now()))) void record([{ kind: 'CLOSE' }]);
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
      {manifest && s && totals && (
        <>
          <div className="mf-totals" role="group" aria-label="Session totals">
            <span>
              <b>{totals.booked}</b> booked
            </span>
            <span className="ok">
              <b>{totals.checkedIn}</b> checked in
            </span>
            <span className="bad">
              <b>{totals.noShow}</b> no-show
            </span>
            <span>
              <b>{totals.remaining}</b> remaining
            </span>
            {pendingIds.size > 0 && <small className="waiting-note">Includes {pendingIds.size} waiting to send</small>}
            <progress max={Math.max(totals.booked, 1)} value={totals.checkedIn} aria-label={`${totals.checkedIn} of ${totals.booked} checked in`} />
          </div>
          {s.oversold && <OversoldNotice sessionId={sessionId} oversold={s.oversold} onAcknowledged={() => void load(sessionId)} />}
          <div className="mf-bar">
            <label className="mf-search">
              <span className="mf-visually-hidden">Find a booking</span>
              <input type="search" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="Name, order or phone" aria-label="Find a booking" autoComplete="off" />
            </label>
            <button type="button" className={tools === 'scan' ? '' : 'secondary'} aria-expanded={tools === 'scan'} onClick={() => setTools(tools === 'scan' ? null : 'scan')}>
              Scan
            </button>
            <button type="button" className={tools === 'files' ? '' : 'secondary'} aria-expanded={tools === 'files'} onClick={() => setTools(tools === 'files' ? null : 'files')}>
              CSV / Print
            </button>
          </div>
          {tools === 'scan' && (
            <div className="mf-tool">
              <ScanBox sessionId={sessionId} />
            </div>
          )}
          {tools === 'files' && (
            <div className="mf-tool">
              <Exports sessionId={sessionId} name={`manifest-${s.productCode}-${s.startTimeLocal.slice(0, 16).replace(/[: ]/g, '-')}`} />
            </div>
          )}
          {refused.map((r) => (
            <div key={r.eventId} className="mf-refused" role="alert">
              <span>✕ {r.message.replace(/\. To admit anyway.*$/, '')}</span>
              <button type="button" className="secondary" onClick={() => dismissRefused(r.eventId)}>
                OK
              </button>
            </div>
          ))}
          {manifest.conflicts.map((c) => {
            const booking = bookings.find((b) => b.orderNumber === c.orderNumber);
            const person = booking?.participants.find((p) => p.id === c.participantId);
            return (
              <p key={c.message + (c.participantId ?? '')} className="note" role="note">
                ⚠ {person ? `${personName(person)} · ` : ''}
                {c.orderNumber ? `booking ${c.orderNumber}${booking?.customerName ? ` (${booking.customerName})` : ''}: ` : ''}
                {c.message}
              </p>
            );
          })}
          {rows.length === 0 ? (
            <p className="mf-empty">{query ? `Nothing found for “${query}”.` : 'No bookings yet.'}</p>
          ) : (
            <>
              {query && <p className="mf-found" role="status">{shown.length} {shown.length === 1 ? 'booking' : 'bookings'} found</p>}
              <ManifestList manifest={manifest} rows={rows} pendingIds={pendingIds} selected={selected} actions={actions} />
            </>
          )}
          {asking && <ManifestOverrideDialog pending={asking} onAdmit={() => admit(asking.booking, asking.people, asking.refusal)} onCancel={() => setAsking(null)} />}
          <ManifestUndoToast />
        </>
      )}
    </section>
  );
}
