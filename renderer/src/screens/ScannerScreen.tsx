import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useOutbox } from '../store/outbox';
import { useScanner } from '../store/scanner';
import { useConnection } from '../store/connection';
import { useNav } from '../store/nav';
import { useWedge } from '../scanner/useWedge';
import { VerdictView } from '../components/VerdictView';
import { CameraPanel } from '../components/CameraPanel';
import { DeviceNameField, DeviceNamePrompt } from '../components/DeviceName';
import { timeOf } from '../components/Status';
import { useFormats } from '../lib/formats';
import { onSoundChange, prepareFeedback, soundWaitsForTap } from '../scanner/feedback';
import { servedCounts, type ServedCounts } from '../scanner/copies';
import { seatsLeft } from './week/deskWords';
import '../scanner.css';
import { companyClock } from '../scanner/clock';
import { SearchPanel } from '../scanner/searchPanel';
import { WindowSettingField } from '../scanner/windowSetting';
import { deviceDbProblem, onDeviceDbProblem } from '../lib/deviceDb';

/**
 * The guide's scanner: every code a wedge scanner types, the camera sees or a person enters is
 * decided on this device from its copy of the day's manifests, shown full screen, and sent to the
 * engine when it answers. Works on a 390 px phone and a desk screen alike.
 */
export function ScannerScreen({ sessionId }: { sessionId: number | null }) {
  const { start, stop, scan, ready, sessions, copy, verdict, ignored } = useScanner();
  const go = useNav((s) => s.go);
  const paused = useWedge((code) => scan(code, 'wedge'));

  useEffect(() => {
    void start(sessionId);
    return () => stop();
  }, [start, stop, sessionId]);
  // The verdict sound's output, made as the screen opens rather than in front of the first scan.
  useEffect(() => prepareFeedback(), []);

  const served = servedCounts(copy, sessionId, sessions);
  const f = useFormats((s) => s.formats);
  const current = sessionId === null ? null : copy.sessions[sessionId];

  return (
    <div className="scanner">
      <header className="scanner-top">
        <button type="button" className="link back" onClick={() => go(sessionId === null ? { name: 'board' } : { name: 'session', sessionId })} aria-label="Back to the desk">
          ◀
        </button>
        <select
          aria-label="Session"
          value={sessionId ?? ''}
          onChange={(e) => {
            e.target.blur(); // back to listening for the wedge scanner
            go({ name: 'scan', sessionId: e.target.value ? Number(e.target.value) : null });
          }}
        >
          <option value="">All of today's departures</option>
          {sessions.map((s) => (
            <option key={s.id} value={s.id}>
              {timeOf(s.startTimeLocal)} {s.productName}
            </option>
          ))}
          {current && !sessions.some((s) => s.id === current.id) && (
            <option value={current.id}>
              {f.dateTime(current.startTimeLocal)} {current.productName}
            </option>
          )}
        </select>
        <ConnectionStatus />
      </header>
      <Corrections />
      <section className="scanner-body" aria-label="Scanner">
        <DeviceNamePrompt />
        <p className={`ready ${paused ? 'paused' : ''}`} role="status" aria-label="Scanner state">
          {!ready ? 'Loading this device’s copy…' : paused ? `Paused: ${paused}` : 'Ready to scan'}
        </p>
        <p className="served" aria-label="Served" data-held={served.heldOfDay} data-day={sessions.length}>
          <b>{served.inCount}</b> of {served.total} checked in · <SeatsServed served={served} />
          {sessionId === null && copy.from ? ` · ${served.departures} departures on this device (${f.dayShort(copy.from)} to ${f.dayShort(copy.to)})` : ''}
        </p>
        <SoundHint />
        <StorageNotice />
        {ignored && Date.now() - ignored.at < 6000 && <p className="ignored">Same code read again: ignored</p>}
        <CameraPanel onCode={(code) => scan(code, 'camera')} />
        <ManualEntry onCode={(code) => scan(code, 'typed')} />
        <SearchPanel onCode={(code) => scan(code, 'search')} />
        <RecentStrip />
        <DeviceSettings />
      </section>
      {verdict && <VerdictView key={`${verdict.eventId ?? verdict.code}-${verdict.shownAt}`} verdict={verdict} />}
    </div>
  );
}

/**
 * Seats as the board counts them (a 4-seat ticket is 4): booked of the capacity, then left and, where a
 * departure is oversold, by how many, for one departure or all of them.
 */
function SeatsServed({ served }: { served: ServedCounts }) {
  const noun = served.capacity === 1 ? 'seat' : 'seats';
  if (served.capacity === null) return <>{`${served.seatsBooked} ${served.seatsBooked === 1 ? 'seat' : 'seats'} booked`}</>;
  return (
    <span data-seats-available={served.seatsLeft - served.seatsOver}>
      <b>{served.seatsBooked}</b>/{served.capacity} {noun} booked
      {(served.seatsLeft > 0 || served.seatsOver === 0) && (
        <>
          , <b>{served.seatsLeft}</b> left
        </>
      )}
      {served.seatsOver > 0 && (
        <>
          , <span className="over">{seatsLeft(-served.seatsOver)}</span>
        </>
      )}
    </span>
  );
}

/** Until the browser lets the verdict sounds play (a phone waits for a first touch), one quiet line says how. */
function SoundHint() {
  const waits = useSyncExternalStore(onSoundChange, soundWaitsForTap);
  return waits ? <p className="ignored sound-hint">Tap once to turn the sound on</p> : null;
}

/** A device that cannot keep its copy or its queue (storage full or blocked) says so, and keeps scanning online. */
function StorageNotice() {
  const problem = useSyncExternalStore(onDeviceDbProblem, deviceDbProblem);
  if (!problem) return null;
  return (
    <p className="storage-notice" role="status" aria-label="Device storage">
      ⚠ This device’s storage is {problem === 'full' ? 'full' : 'blocked or unavailable'}: it cannot keep the trip or hold scans offline. Scanning works while online.
    </p>
  );
}

/** Online or not, how many scans wait to be sent, and when the engine last answered: always in view. */
function ConnectionStatus() {
  const { online, lastHeard, problem } = useScanner();
  const held = useHeldSessions();
  const { items: outbox, sending } = useOutbox();
  const heard = lastHeard ? companyClock(lastHeard, held, true) : 'never';
  return (
    <div className={`conn ${online ? 'online' : 'offline'}`} role="status" aria-label="Connection">
      <span className="dot" aria-hidden="true">
        {online ? '●' : '○'}
      </span>
      <b>{online ? 'Online' : 'Offline'}</b>
      <span aria-label="Waiting to send" className={outbox.length ? 'waiting' : ''}>
        {outbox.length} waiting{sending ? ' · sending' : ''}
      </span>
      <small>heard {heard}</small>
      {problem && <small className="problem">{problem}</small>}
    </div>
  );
}

/** The engine decided otherwise than this device (a booking cancelled meanwhile): said plainly, until read. */
function Corrections() {
  const { corrections, dismissCorrection } = useScanner();
  if (!corrections.length) return null;
  return (
    <ul className="corrections" aria-label="Corrections">
      {corrections.map((c) => (
        <li key={c.eventId} role="alert">
          <span>
            <b>⚠ Correction: {c.label}</b> — {c.local}; TourDesk says {c.server}. {c.message}
          </span>
          <button type="button" className="small" onClick={() => dismissCorrection(c.eventId)}>
            Seen
          </button>
        </li>
      ))}
    </ul>
  );
}

function ManualEntry({ onCode }: { onCode(code: string): void }) {
  const [code, setCode] = useState('');
  return (
    <form
      className="manual row"
      onSubmit={(e) => {
        e.preventDefault();
        onCode(code);
        setCode('');
      }}
    >
      <label className="grow">
        Type a code
        <input value={code} onChange={(e) => setCode(e.target.value)} autoComplete="off" placeholder="Code from a ticket" />
      </label>
      <button type="submit" disabled={!code.trim()}>
        Check
      </button>
    </form>
  );
}

/** The sessions this device knows (the day's and those it holds): they tell the company's clock. */
function useHeldSessions() {
  // The times are worded in the company's locale: redraw when its formats arrive (GET /v1/system/instance).
  useFormats((s) => s.formats);
  const sessions = useScanner((s) => s.sessions);
  const copy = useScanner((s) => s.copy);
  return useMemo(() => [...sessions, ...Object.values(copy.sessions)], [sessions, copy.sessions]);
}

const STATUS_ICON = { waiting: '⏳', sent: '✓', corrected: '⚠', 'not sent': '' } as const;

function RecentStrip() {
  const recent = useScanner((s) => s.recent);
  const held = useHeldSessions();
  if (!recent.length) return null;
  return (
    <ol className="recent" aria-label="Last scans">
      {recent.map((r) => (
        <li key={r.key} className={r.tone}>
          <span className="word">{r.word}</span>
          <span className="who">{r.label}</span>
          <small>
            {companyClock(r.at, held, true)} {STATUS_ICON[r.status]} {r.status === 'waiting' ? 'waiting' : r.status === 'corrected' ? 'corrected' : ''}
          </small>
        </li>
      ))}
    </ol>
  );
}

function DeviceSettings() {
  const disconnect = useConnection((s) => s.disconnect);
  const outbox = useOutbox((s) => s.items);
  const signOut = useMemo(
    () => () => {
      if (outbox.length && !window.confirm(`${outbox.length} scans have not been sent yet. Sign out anyway? They stay on this device.`)) return;
      disconnect();
    },
    [outbox.length, disconnect],
  );
  return (
    <details className="device">
      <summary>This device</summary>
      <DeviceNameField label="Device name (saved with every scan)" hint={null} />
      <WindowSettingField />
      {!window.tourdesk && (
        <button type="button" className="secondary" onClick={signOut}>
          Sign out of this device
        </button>
      )}
    </details>
  );
}
