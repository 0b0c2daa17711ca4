import { useEffect, useRef, useState } from 'react';
import { api, messageOf } from '../api/client';
import type { DaySession } from '../api/types';
import { useConnection } from '../store/connection';
import { useNav } from '../store/nav';
import { Busy, Counts, ErrorText, timeOf } from '../components/Status';

function shiftDay(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const REFRESH_MS = 30_000;

const browserToday = () => new Date(Date.now() - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10);

/** Home: the day's departures, the next one marked, each opening its manifest. */
export function DepartureBoard() {
  const config = useConnection((s) => s.config)!;
  const { boardDate, setBoardDate, go } = useNav();
  const [sessions, setSessions] = useState<DaySession[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const nextRow = useRef<HTMLLIElement>(null);

  useEffect(() => {
    let live = true;
    setSessions(null);
    setError(null);
    // Without a date the engine answers today in the company's timezone, whatever this device's clock says.
    const load = () =>
      api<{ sessions: DaySession[] }>(config, 'GET', `/v1/manifest/day?limit=200${boardDate ? `&date=${boardDate}` : ''}`)
        .then((r) => live && (setSessions(r.sessions), setError(null)))
        .catch((e) => live && setError(messageOf(e)));
    void load();
    // Other devices check people in too: the counts refresh quietly.
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [config, boardDate]);

  const shown = boardDate ?? sessions?.[0]?.startTimeLocal.slice(0, 10) ?? browserToday();
  const now = Date.now();
  const next = sessions?.find((s) => Date.parse(s.endTime) > now);
  const nextId = next?.id;
  useEffect(() => {
    nextRow.current?.scrollIntoView?.({ block: 'nearest' });
  }, [nextId]);

  return (
    <section className="card" aria-labelledby="board-title">
      <div className="row spread">
        <h2 id="board-title">Departures {boardDate ? shown : 'today'}</h2>
        <div className="row">
          <button type="button" className="secondary" onClick={() => setBoardDate(shiftDay(shown, -1))}>
            ◀ Previous day
          </button>
          <label className="inline">
            Day
            <input type="date" value={boardDate ?? ''} onChange={(e) => setBoardDate(e.target.value || null)} />
          </label>
          <button type="button" className="secondary" onClick={() => setBoardDate(shiftDay(shown, 1))}>
            Next day ▶
          </button>
          {boardDate && (
            <button type="button" className="secondary" onClick={() => setBoardDate(null)}>
              Today
            </button>
          )}
        </div>
      </div>
      <ErrorText error={error} />
      {!sessions && !error && <Busy label="Loading departures…" />}
      {sessions?.length === 0 && <p>No departures on this day.</p>}
      <ul className="board" aria-label="Departures">
        {sessions?.map((s) => (
          <li key={s.id} ref={s === next ? nextRow : undefined} className={s === next ? 'next' : Date.parse(s.endTime) <= now ? 'past' : ''}>
            <button type="button" className="session" onClick={() => go({ name: 'session', sessionId: s.id })} aria-label={`${timeOf(s.startTimeLocal)} ${s.productName}`}>
              <span className="time">{timeOf(s.startTimeLocal)}</span>
              <span className="what">
                <b>{s.productName}</b>
                <small>
                  {s.productCode} · {s.seatsAvailable} seats left{s.checkinClosed ? ' · check-in closed' : ''}
                  {s === next ? ' · next departure' : ''}
                </small>
              </span>
              <Counts label={`Counts for ${s.productName} at ${timeOf(s.startTimeLocal)}`} booked={s.booked} checkedIn={s.checkedIn} noShow={s.noShow} remaining={s.remaining} />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
