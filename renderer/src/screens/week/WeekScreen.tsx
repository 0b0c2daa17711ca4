import { useEffect, useState } from 'react';
import { getWithRetry, messageOf } from '../../api/client';
import type { WeekAnswer, WeekDay } from '../../../../main/contract/desk';
import { useConnection } from '../../store/connection';
import { useNav } from '../../store/nav';
import { urlOf } from '../../model/routes';
import { Busy, ErrorText, timeOf } from '../../components/Status';
import { dayInWords, shiftDay } from '../../components/BoardDate';
import { Link } from '../../components/Link';
import { usePageTitle } from '../../components/usePageTitle';
import { MoneyTaken } from './DayTotals';
import { seatsLeft } from './deskWords';
import { formats } from '../../lib/formats';
import './week.css';

/** A short day heading ("Wed 2 Jan") in the company's format; the date itself, not the device's day. */
const shortDay = (day: string) => formats().dayShort(day);

function DayCard({ day }: { day: WeekDay }) {
  const go = useNav((s) => s.go);
  const { totals } = day;
  return (
    <li className="wk-day" aria-label={dayInWords(day.date)}>
      <h3>
        <a href={urlOf({ name: 'board' }, day.date)} title="This day on the board" onClick={(e) => (e.preventDefault(), useNav.getState().setBoardDate(day.date), go({ name: 'board' }))}>
          {shortDay(day.date)}
        </a>
      </h3>
      {day.departures.length === 0 ? (
        <p className="muted">No departures</p>
      ) : (
        <ul className="wk-departures" aria-label={`Departures on ${day.date}`}>
          {day.departures.map((d) => (
            <li key={d.sessionId}>
              <button type="button" className="wk-departure" onClick={() => go({ name: 'session', sessionId: d.sessionId })}>
                <span className="wk-time">{timeOf(d.startTimeLocal)}</span> <span className="wk-name">{d.productName}</span>
                <span className={`wk-seats ${d.seatsSold > d.capacity ? 'bad' : ''}`}>
                  {d.seatsSold}/{d.capacity} seats · {seatsLeft(d.capacity - d.seatsSold)}
                </span>
                <span className="wk-people">
                  <span className="ok">{d.checkedIn} in</span> · <span className="bad">{d.noShow} no-show</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="wk-day-totals" aria-label={`Totals on ${day.date}`}>
        <b>{totals.seatsSold}</b> seats · <b>{totals.checkedIn}</b> in · <b>{totals.noShow}</b> no-shows
        <br />
        <MoneyTaken taken={totals.moneyTaken} />
      </p>
    </li>
  );
}

/** Seven days of departures for the manager: seats sold of capacity, checked in, no-shows, money taken; week by week. */
export function WeekScreen({ from }: { from: string | null }) {
  const config = useConnection((s) => s.config)!;
  const go = useNav((s) => s.go);
  const [week, setWeek] = useState<WeekAnswer['week'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setWeek(null);
    setError(null);
    getWithRetry(config, 'GET /v1/manifest/week', { query: { from: from ?? undefined } })
      .then((r) => live && setWeek(r.week))
      .catch((e) => live && setError(messageOf(e)));
    return () => {
      live = false;
    };
  }, [config, from]);
  const first = week?.from ?? from;
  const last = week?.days.at(-1)?.date;
  usePageTitle(first ? `Week of ${first}` : 'Week');
  const sum = (pick: (d: WeekDay) => number) => (week ? week.days.reduce((n, d) => n + pick(d), 0) : 0);
  const departures = sum((d) => d.departures.length);
  return (
    <section className="card wk" aria-labelledby="week-title">
      <div className="board-head">
        <h2 id="week-title">{first && last ? `${dayInWords(first)} to ${dayInWords(last)}` : 'The week'}</h2>
        <nav className="board-nav" aria-label="Week">
          <button type="button" className="secondary" aria-label="Previous week" disabled={!first} onClick={() => first && go({ name: 'week', from: shiftDay(first, -7) })}>
            ◀ <span className="mf-wide">Previous week</span>
          </button>
          <button type="button" className="secondary" disabled={from === null} onClick={() => go({ name: 'week', from: null })}>
            This week
          </button>
          <button type="button" className="secondary" aria-label="Next week" disabled={!first} onClick={() => first && go({ name: 'week', from: shiftDay(first, 7) })}>
            <span className="mf-wide">Next week</span> ▶
          </button>
          <Link to={{ name: 'overrides', date: null }}>Overrides</Link>
        </nav>
      </div>
      <ErrorText error={error} />
      {!week && !error && <Busy label="Loading the week…" />}
      {week && (
        <>
          <p className="wk-totals" aria-label="Week totals">
            <b>{sum((d) => d.totals.seatsSold)}</b> seats sold · <b>{sum((d) => d.totals.checkedIn)}</b> checked in · <b>{sum((d) => d.totals.noShow)}</b> no-shows · <b>{departures}</b> {departures === 1 ? 'departure' : 'departures'}
          </p>
          <ol className="wk-days" aria-label="Days">
            {week.days.map((d) => (
              <DayCard key={d.date} day={d} />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
