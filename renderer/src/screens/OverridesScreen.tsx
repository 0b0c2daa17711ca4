import { formats } from '../lib/formats';
import { useEffect, useState } from 'react';
import { getWithRetry, messageOf, type ApiConfig } from '../api/client';
import type { OverrideCheckin } from '../../../main/contract/desk';
import { useConnection } from '../store/connection';
import { useNav } from '../store/nav';
import { Busy, ErrorText, timeOf } from '../components/Status';
import { dayInWords, shiftDay } from '../components/BoardDate';
import { Link } from '../components/Link';
import { usePageTitle } from '../components/usePageTitle';
import { rulesInWords } from './week/deskWords';
import './week/week.css';

/** The API's page size: a day with more overrides is read page by page. */
const PAGE = 100;

async function allOverrides(config: ApiConfig, date: string | null): Promise<OverrideCheckin[]> {
  const all: OverrideCheckin[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = (await getWithRetry(config, 'GET /v1/checkin/overrides', { query: { date: date ?? undefined, limit: PAGE, offset } })).overrides;
    all.push(...page);
    if (page.length < PAGE) return all;
  }
}

/** Who admitted whom under which rule, from which device: the check-ins of a day's departures that passed a rule. */
export function OverridesScreen({ date }: { date: string | null }) {
  const config = useConnection((s) => s.config)!;
  const replace = useNav((s) => s.replace);
  const [rows, setRows] = useState<OverrideCheckin[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [today, setToday] = useState<string | null>(null);
  // The company's today (not this device's): the week answers it when asked for no day.
  useEffect(() => {
    void getWithRetry(config, 'GET /v1/manifest/week', { query: { days: 1 } })
      .then((r) => setToday(r.week.from))
      .catch(() => undefined);
  }, [config]);
  useEffect(() => {
    let live = true;
    setRows(null);
    setError(null);
    allOverrides(config, date)
      .then((r) => live && setRows(r))
      .catch((e) => live && setError(messageOf(e)));
    return () => {
      live = false;
    };
  }, [config, date]);
  const shown = date ?? today;
  usePageTitle(`Overrides${date ? ` · ${date}` : ''}`);
  return (
    <section className="card" aria-labelledby="overrides-title">
      <div className="board-head">
        <h2 id="overrides-title">Overrides · {shown ? dayInWords(shown) : 'today'}</h2>
        <Link to={{ name: 'week', from: null }}>The week</Link>
      </div>
      <p className="muted">Check-ins admitted past a rule (not paid, closed, another departure…) on the departures of one day.</p>
      <div className="ov-filter" role="group" aria-label="Day">
        <button type="button" className="secondary" aria-label="Previous day" disabled={!shown} onClick={() => shown && replace({ name: 'overrides', date: shiftDay(shown, -1) })}>
          ◀
        </button>
        <input type="date" aria-label="Day of the departures" value={shown ?? ''} onChange={(e) => replace({ name: 'overrides', date: e.target.value || null })} />
        <button type="button" className="secondary" disabled={date === null || date === today} onClick={() => replace({ name: 'overrides', date: null })}>
          Today
        </button>
        <button type="button" className="secondary" aria-label="Next day" disabled={!shown} onClick={() => shown && replace({ name: 'overrides', date: shiftDay(shown, 1) })}>
          ▶
        </button>
      </div>
      <ErrorText error={error} />
      {!rows && !error && <Busy label="Loading overrides…" />}
      {rows?.length === 0 && <p>No check-in was admitted under an override on these departures.</p>}
      {rows && rows.length > 0 && (
        <table className="ov-table" aria-label="Overrides">
          <thead>
            <tr>
              <th>When</th>
              <th>Departure</th>
              <th>Who was admitted</th>
              <th>Rule passed</th>
              <th>By</th>
              <th>Device</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((o) => (
              <tr key={o.eventId}>
                <td data-label="When">{formats().dateTime(o.occurredAtLocal)}</td>
                <td data-label="Departure">
                  <Link to={{ name: 'session', sessionId: o.session.id }}>
                    {timeOf(o.session.startTimeLocal)} {o.session.productName}
                  </Link>
                </td>
                <td data-label="Who">
                  {o.participant.name ?? 'A participant without a name'}
                  {o.orderNumber && (
                    <>
                      {' · '}
                      <Link to={{ name: 'booking', orderNumber: o.orderNumber }}>{o.orderNumber}</Link>
                    </>
                  )}
                </td>
                <td data-label="Rule">{rulesInWords(o.rules)}</td>
                <td data-label="By">{o.by ?? 'Key not known'}</td>
                <td data-label="Device">{o.device ?? 'Not named'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
