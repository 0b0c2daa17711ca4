import { useEffect, useRef, useState } from 'react';
import { api, messageOf } from '../api/client';
import type { DayBoardSession } from '../api/types';
import { useConnection } from '../store/connection';
import { useNav } from '../store/nav';
import { isOfficeKey, useInstance } from '../store/instance';
import { Busy, ErrorText, timeOf } from '../components/Status';
import { dayInWords, shiftDay } from '../components/BoardDate';
import { usePageTitle } from '../components/usePageTitle';
import '../manifest.css';
import { boardStateOf, nextDeparture } from './boardState';
import { DayTotals } from './week/DayTotals';
import { seatsLeftParts } from './week/deskWords';
import { Link } from '../components/Link';
import './week/week.css';
import { DayField } from '../components/DayField';

const REFRESH_MS = 30_000;

/** Home: a day's departures, the day in words, each departure's numbers and state, opening its manifest. */
export function DepartureBoard() {
  const config = useConnection((s) => s.config)!;
  const { boardDate, setBoardDate, go } = useNav();
  const [sessions, setSessions] = useState<DayBoardSession[] | null>(null);
  const [today, setToday] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const nextRow = useRef<HTMLLIElement>(null);
  // The week, its takings and the overrides are the office's (the reports right): a guide's key is not offered them.
  const office = useInstance((s) => isOfficeKey(s.instance?.key.role));

  useEffect(() => {
    let live = true;
    setSessions(null);
    setError(null);
    // Without a date the engine answers today in the company's timezone, whatever this device's clock says.
    const load = () =>
      api(config, 'GET /v1/manifest/day', { query: { limit: 200, date: boardDate || undefined } })
        .then((r) => live && (setSessions(r.sessions), setError(null)))
        .catch((e) => live && setError(messageOf(e)));
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [config, boardDate]);
  // The company's today: the first session's day when the board shows today, else asked once with limit=1.
  useEffect(() => {
    if (today || boardDate) return;
    if (sessions?.length) setToday(sessions[0].startTimeLocal.slice(0, 10));
  }, [sessions, boardDate, today]);
  useEffect(() => {
    if (today || !boardDate) return;
    void api(config, 'GET /v1/manifest/day', { query: { limit: 1 } })
      .then((r) => r.sessions[0] && setToday(r.sessions[0].startTimeLocal.slice(0, 10)))
      .catch(() => undefined);
  }, [config, boardDate, today]);

  const fallbackToday = new Date(Date.now() - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
  const shownDay = boardDate ?? today ?? fallbackToday;
  const isToday = boardDate === null || boardDate === today;
  const now = Date.now();
  // "Next departure" only means something today: the first one still to leave.
  const next = isToday ? nextDeparture(sessions ?? [], now) : undefined;
  const nextId = next?.id;
  usePageTitle(`Board · ${shownDay}`);
  useEffect(() => {
    nextRow.current?.scrollIntoView?.({ block: 'nearest' });
  }, [nextId]);

  return (
    <section className="card" aria-labelledby="board-title">
      <div className="board-head">
        <h2 id="board-title">
          {isToday ? 'Today · ' : ''}
          {dayInWords(shownDay)}
        </h2>
        <nav className="board-nav" aria-label="Day">
          <button type="button" className="secondary" aria-label="Previous day" onClick={() => setBoardDate(shiftDay(shownDay, -1))}>
            ◀ <span className="mf-wide">Previous</span>
          </button>
          <DayField label="Pick a day" compact day={shownDay} onDay={(d) => setBoardDate(d || null)} />
          <button type="button" className="secondary" disabled={isToday} onClick={() => setBoardDate(null)}>
            Today
          </button>
          <button type="button" className="secondary" aria-label="Next day" onClick={() => setBoardDate(shiftDay(shownDay, 1))}>
            <span className="mf-wide">Next</span> ▶
          </button>
          {office && (
            <>
              <Link to={{ name: 'week', from: boardDate }} className="bd-link">
                Week
              </Link>
              <Link to={{ name: 'overrides', date: boardDate }} className="bd-link">
                Overrides
              </Link>
            </>
          )}
        </nav>
      </div>
      <DayTotals day={boardDate} />
      <ErrorText error={error} />
      {!sessions && !error && <Busy label="Loading departures…" />}
      {sessions?.length === 0 && <p>No departures on {dayInWords(shownDay)}.</p>}
      <ul className="bd-list" aria-label="Departures">
        {sessions?.map((s) => {
          const state = boardStateOf(s, now);
          const isNext = s === next;
          return (
            <li key={s.id} ref={isNext ? nextRow : undefined} className={`bd-item ${state.key} ${isNext ? 'next' : ''}`}>
              <button type="button" className="bd-session" onClick={() => go({ name: 'session', sessionId: s.id })} aria-label={`${timeOf(s.startTimeLocal)} ${s.productName}`}>
                <span className="bd-time">{timeOf(s.startTimeLocal)}</span>
                <span className="bd-what">
                  <b>
                    {s.productName}
                    {isNext && <span className="bd-next">Next departure</span>}
                  </b>
                  <small>
                    {s.productCode}
                    {s.resources?.length ? ` · ${s.resources.map((r) => r.name).join(', ')}` : ' · no resources'}
                  </small>
                </span>
                <span className="bd-state">
                  <span aria-hidden="true">{state.icon}</span> {state.word}
                </span>
                <BoardNumbers s={s} />
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** A departure's numbers: seats as availability counts them (left, or how many over), then people. */
function BoardNumbers({ s }: { s: DayBoardSession }) {
  const left = seatsLeftParts(s.seatsAvailable);
  return (
    <span className="bd-numbers" aria-label={`Counts for ${s.productName} at ${timeOf(s.startTimeLocal)}`}>
      <span>
        <b>{s.seats}</b> capacity
      </span>
      <span title="Seats booked, as availability counts them (a family ticket of 4 is 4)">
        <b>{s.seatsBooked}</b> booked
      </span>
      <span className={s.seatsAvailable < 0 ? 'bad' : undefined}>
        <b>{left.count}</b> {left.word}
      </span>
      <span className="ok">
        <b>{s.checkedIn}</b> checked in
      </span>
      <span className="bad">
        <b>{s.noShow}</b> no-show
      </span>
      <span title="People not checked in yet">
        <b>{s.remaining}</b> remaining
      </span>
      <span>
        <b>{s.pickupCount ?? 0}</b> pickups
      </span>
    </span>
  );
}
