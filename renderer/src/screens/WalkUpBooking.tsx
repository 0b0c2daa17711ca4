import { useEffect, useState } from 'react';
import { api, messageOf } from '../api/client';
import type { Booking } from '../api/types';
import { useConnection } from '../store/connection';
import { useManifest } from '../store/manifest';
import { useNav } from '../store/nav';
import { bookingBody, emptyForm, formProblem, totalQuantity, type WalkUpForm } from '../model/walkupForm';
import { Busy, ErrorText, timeOf } from '../components/Status';
import { departureTitle, usePageTitle } from '../components/usePageTitle';
import { useLiveQuote, useSaleOffer } from './walkup/useWalkUpPrices';
import { CustomerFieldset, ParticipantsFieldset, PaymentFieldset, PickupChoice, TicketsFieldset } from './walkup/WalkUpFields';
import { WalkUpBooked } from './walkup/WalkUpBooked';
import { money } from './Bookings';

/** Book someone at the desk onto this session: live price, payment, then their QR codes. */
export function WalkUpBooking({ sessionId }: { sessionId: number }) {
  const config = useConnection((s) => s.config)!;
  const session = useManifest((s) => (s.sessionId === sessionId ? s.manifest?.session : undefined));
  const go = useNav((s) => s.go);
  const [form, setForm] = useState<WalkUpForm>(emptyForm);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [booked, setBooked] = useState<Booking | null>(null);
  usePageTitle(session ? `Walk-up · ${departureTitle(session)}` : 'Walk-up');

  // Opened straight from its URL (/walkup?session=ID, a reload): the session comes with its manifest.
  useEffect(() => {
    if (useManifest.getState().sessionId !== sessionId || !useManifest.getState().manifest) void useManifest.getState().load(sessionId);
  }, [sessionId]);

  const { available, pickups } = useSaleOffer(config, session, sessionId, setError);
  const options = available?.priceOptions ?? [];
  const count = totalQuantity(form);
  // What is priced (the items) does not depend on the quote; only the payment does.
  const items = session ? bookingBody(form, session, options, null, null).items : undefined;
  const { quote, quoteError, clearQuote } = useLiveQuote(config, items, count);
  const body = session ? bookingBody(form, session, options, quote?.totalCurrency ?? null, quote?.totalAmount ?? null) : null;
  const problem = formProblem(form, options, available?.seatsAvailable ?? null, quote?.totalAmount ?? null);

  if (!session) return <Busy label="Loading session…" />;
  const set = (patch: Partial<WalkUpForm>) => setForm((f) => ({ ...f, ...patch }));
  const backToManifest = () => go({ name: 'session', sessionId });

  if (booked) return <WalkUpBooked booked={booked} sessionId={sessionId} onBack={backToManifest} onAnother={() => (setBooked(null), setForm(emptyForm()), clearQuote())} />;

  const book = () => {
    if (!body || problem) return;
    setBusy(true);
    setError(null);
    api(config, 'POST /v1/bookings', { body })
      .then((r) => setBooked(r.booking))
      .catch((err) => setError(messageOf(err)))
      .finally(() => setBusy(false));
  };
  return (
    <form className="card walkup" aria-labelledby="walkup-title" onSubmit={(e) => (e.preventDefault(), book())}>
      <div className="row spread">
        <h2 id="walkup-title">
          Walk-up booking · {timeOf(session.startTimeLocal)} {session.productName}
        </h2>
        <button type="button" className="secondary" onClick={backToManifest}>
          Cancel
        </button>
      </div>
      {!available && !error && <Busy label="Loading prices…" />}
      {available && <p>{available.seatsAvailable} seats left</p>}
      <TicketsFieldset form={form} set={set} options={options} />
      <CustomerFieldset form={form} set={set} />
      {count > 0 && <ParticipantsFieldset form={form} set={set} count={count} />}
      {pickups.length > 0 && <PickupChoice form={form} set={set} pickups={pickups} />}
      <PaymentFieldset form={form} set={set} quote={quote} />
      <p className="price" role="status" aria-label="Price">
        {count === 0 ? 'Choose tickets to see the price' : quote ? `Total ${money(quote.totalAmount, quote.totalCurrency)}` : quoteError ? '' : 'Pricing…'}
      </p>
      <ErrorText error={problem ?? quoteError} />
      <ErrorText error={error} />
      <button type="submit" className="big" disabled={busy || count === 0 || !quote || problem !== null}>
        {busy ? 'Booking…' : 'Book'}
      </button>
    </form>
  );
}
