import { useEffect, useState } from 'react';
import { useScanner } from '../store/scanner';
import type { ShownVerdict } from '../scanner/recent';
import { groupPanelOf, partyOf, type GroupPanel } from '../scanner/groupPanel';
import { pickupOnVerdict } from '../scanner/pickupWords';

const ICON = { green: '✓', amber: '!', red: '✕', blue: '👥' } as const;

/** How long a verdict stays: a plain "in" briefly, anything asking for a decision longer (never past 30 s). */
function lifetime(v: ShownVerdict): number | null {
  if (v.checking) return null;
  if (v.kind === 'GROUP') return 30_000;
  if (v.override || v.cancelledAdmit) return 15_000;
  if (v.others.length) return 10_000;
  return v.tone === 'green' ? 3_000 : 6_000;
}

/**
 * A verdict nobody can misread: the whole screen in its colour, an icon and a word (never colour
 * alone), the names and the booking; a refusal's override names the rule it overrules.
 */
export function VerdictView({ verdict }: { verdict: ShownVerdict }) {
  const { dismiss, overrideVerdict, checkIn, admitCancelled } = useScanner();
  const copy = useScanner((s) => s.copy);
  // Worked out once per verdict: a check-in from it must not reshuffle the list under the guide's thumb.
  const [panel] = useState(() => groupPanelOf(verdict, partyOf(copy, verdict)));
  const ms = lifetime(verdict);
  // A touch on the verdict (ticking people, reading the booking) starts its time again: it never goes from under a guide's finger.
  const [touchedAt, setTouchedAt] = useState(0);

  useEffect(() => {
    if (ms === null) return;
    const timer = setTimeout(() => {
      if (useScanner.getState().verdict?.shownAt === verdict.shownAt) dismiss();
    }, ms);
    return () => clearTimeout(timer);
  }, [ms, verdict.shownAt, touchedAt, dismiss]);

  const b = verdict.booking;
  return (
    <div
      className={`verdict ${verdict.tone}`}
      role="alertdialog"
      aria-label={`Verdict: ${verdict.word}`}
      data-kind={verdict.kind}
      data-code={verdict.code}
      onPointerDown={() => setTouchedAt(Date.now())}
      onClick={(e) => {
        if (!(e.target as HTMLElement).closest('button, input, label')) dismiss();
      }}
    >
      <div className="verdict-main">
        <div className="verdict-head">
          <span className="icon" aria-hidden="true">
            {ICON[verdict.tone]}
          </span>
          <h2 className="word">{verdict.word}</h2>
        </div>
        {verdict.people.length > 0 && verdict.kind !== 'GROUP' && (
          <p className="names">{verdict.people.map((p) => p.name).join(', ')}</p>
        )}
        <p className="message">{verdict.message}</p>
        {b && (
          <p className="booking-line">
            <b>{b.orderNumber}</b>
            {b.customer?.name ? ` · ${b.customer.name}` : ''}
            {b.quantities?.length ? ` · ${b.quantities.map((q) => `${q.value} × ${q.optionLabel}`).join(', ')}` : ''}
            {verdict.sessionLabel ? ` · ${verdict.sessionLabel}` : ''}
          </p>
        )}
        {/* On a line of its own: at a pickup stop it is what the guide checks first. Worded as the manifest row words it. */}
        {pickupOnVerdict(b?.pickup) && <p className="pickup-line">{pickupOnVerdict(b?.pickup)}</p>}
        {b?.attention && b.attentionReasons.includes('NOTE') && (
          <p className="guide-note">⚠ {[b.notes?.internalNotes, b.notes?.comments, b.notes?.resellerComments].filter(Boolean).join(' · ')}</p>
        )}
        {panel && <GroupPanelView panel={panel} onCheckIn={checkIn} />}
        {verdict.override && (
          <button type="button" className="big action override" onClick={overrideVerdict}>
            {verdict.override.label}
          </button>
        )}
        {verdict.cancelledAdmit && (
          <button type="button" className="big action override" onClick={admitCancelled}>
            {verdict.cancelledAdmit.label}
          </button>
        )}
        <button type="button" className="big dismiss" onClick={dismiss}>
          {verdict.checking ? 'Cancel' : 'Next scan'}
        </button>
      </div>
      {ms !== null && <div key={touchedAt} className="countdown" style={{ animationDuration: `${ms}ms` }} aria-hidden="true" />}
    </div>
  );
}

/**
 * The rest of a booking, offered with nobody ticked: the guide ticks whom they see, or takes all of
 * them with one deliberate tap. People already in are listed as in.
 */
function GroupPanelView({ panel, onCheckIn }: { panel: GroupPanel; onCheckIn(ids: number[]): void }) {
  const [ticked, setTicked] = useState<ReadonlySet<number>>(() => new Set());
  const toggle = (id: number) => setTicked((t) => (t.has(id) ? new Set([...t].filter((x) => x !== id)) : new Set([...t, id])));
  const chosen = panel.open.filter((id) => ticked.has(id));
  return (
    <fieldset className="group">
      <legend>{panel.legend}</legend>
      {panel.people.map((p) =>
        p.checkedIn ? (
          <p key={p.id} className="tick in">
            ✓ {p.name} <small>already in</small>
          </p>
        ) : (
          <label key={p.id} className="tick">
            <input type="checkbox" checked={ticked.has(p.id)} onChange={() => toggle(p.id)} />
            {p.name}
          </label>
        ),
      )}
      <div className="row group-actions">
        <button type="button" className="big action" disabled={!chosen.length} onClick={() => onCheckIn(chosen)}>
          {chosen.length ? `Check in ${chosen.length} ticked` : 'Tick who is here'}
        </button>
        {panel.open.length > 1 && (
          <button type="button" className="big secondary" onClick={() => onCheckIn(panel.open)}>
            Check in all {panel.open.length}
          </button>
        )}
      </div>
    </fieldset>
  );
}
