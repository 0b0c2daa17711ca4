import { useEffect, useState } from 'react';
import { api, ApiError } from '../../api/client';
import type { WeekDay } from '../../../../main/contract/desk';
import { useConnection } from '../../store/connection';
import { isOfficeKey, useInstance } from '../../store/instance';
import { paymentTypeWord } from './deskWords';
import { useFormats } from '../../lib/formats';

const REFRESH_MS = 30_000;

/** The money a day took at the desk, by payment type ("Cash $290.00 (3)", money in the company's format), or that it took none. */
export function MoneyTaken({ taken }: { taken: WeekDay['totals']['moneyTaken'] }) {
  const { money } = useFormats((s) => s.formats);
  if (taken.length === 0) return <span className="muted">No money taken at the desk</span>;
  return (
    <>
      {taken.map((m) => (
        <span key={`${m.type}-${m.currency}`} className="wk-money">
          {paymentTypeWord(m.type)} <b>{money(m.amount, m.currency)}</b> <small>({m.payments})</small>
        </span>
      ))}
    </>
  );
}

/**
 * The board's day totals: seats sold, checked in, no-shows and the money taken at the desk by type,
 * as GET /v1/manifest/week answers them for one day (null: the company's today). They are the
 * office's: a guide's key, which may not read the takings, neither sees nor asks for them.
 */
export function DayTotals({ day }: { day: string | null }) {
  const config = useConnection((s) => s.config)!;
  const [totals, setTotals] = useState<WeekDay['totals'] | null>(null);
  const [hidden, setHidden] = useState(false);
  const office = useInstance((s) => isOfficeKey(s.instance?.key.role));
  useEffect(() => {
    if (!office) return;
    let live = true;
    setTotals(null);
    const load = () =>
      api(config, 'GET /v1/manifest/week', { query: { from: day ?? undefined, days: 1 } })
        .then((r) => live && setTotals(r.week.days[0]?.totals ?? null))
        .catch((e) => live && e instanceof ApiError && e.status === 403 && setHidden(true));
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [config, day, office]);
  if (!office || hidden || !totals) return null;
  return (
    <section className="bd-totals" aria-label="Day totals">
      <span>
        <b>{totals.seatsSold}</b> seats sold
      </span>
      <span className="ok">
        <b>{totals.checkedIn}</b> checked in
      </span>
      <span className="bad">
        <b>{totals.noShow}</b> no-shows
      </span>
      <span className="bd-money">
        <MoneyTaken taken={totals.moneyTaken} />
      </span>
    </section>
  );
}
