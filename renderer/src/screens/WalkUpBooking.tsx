import { useEffect, useState } from 'react';
import { api, messageOf } from '../api/client';
import type { Booking, BookingQuote, PickupLocationAnswer, SessionAnswer } from '../api/types';
import { useConnection } from '../store/connection';
import { useManifest } from '../store/manifest';
import { useNav } from '../store/nav';
import { bookingBody, codesOf, emptyForm, formProblem, totalQuantity, type WalkUpForm } from '../model/walkupForm';
import { Busy, ErrorText, timeOf } from '../components/Status';
import { QrCode } from '../components/QrCode';

/** Book someone at the desk onto this session: live price, payment, then their QR codes. */
export function WalkUpBooking({ sessionId }: { sessionId: number }) {
  const config = useConnection((s) => s.config)!;
  const session = useManifest((s) => (s.sessionId === sessionId ? s.manifest?.session : undefined));
  const go = useNav((s) => s.go);
  const [available, setAvailable] = useState<SessionAnswer | null>(null);
  const [pickups, setPickups] = useState<PickupLocationAnswer[]>([]);
  const [form, setForm] = useState<WalkUpForm>(emptyForm);
  const [quote, setQuote] = useState<BookingQuote | null>(null);
  const [quoteError, setQuoteError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [booked, setBooked] = useState<Booking | null>(null);

  // Opened straight from its URL (/walkup?session=ID, a reload): the session comes with its manifest.
  useEffect(() => {
    if (useManifest.getState().sessionId !== sessionId || !useManifest.getState().manifest) void useManifest.getState().load(sessionId);
  }, [sessionId]);

  useEffect(() => {
    if (!session) return;
    const end = new Date(Date.parse(session.startTime) + 60_000).toISOString();
    api(config, 'GET /v1/availability', { query: { productCode: session.productCode, startTime: session.startTime, endTime: end } })
      .then((r) => setAvailable(r.sessions.find((x) => x.id === sessionId || x.startTime === session.startTime) ?? null))
      .catch((e) => setError(messageOf(e)));
    api(config, 'GET /v1/products/:productCode/pickups', { params: { productCode: session.productCode } })
      .then((r) => setPickups(r.pickupLocations))
      .catch((e) => setError(messageOf(e)));
  }, [config, session, sessionId]);

  const options = available?.priceOptions ?? [];
  const count = totalQuantity(form);
  const body = session ? bookingBody(form, session, options, quote?.totalCurrency ?? null, quote?.totalAmount ?? null) : null;
  const quoteKey = JSON.stringify(body?.items);
  const problem = formProblem(form, options, available?.seatsAvailable ?? null, quote?.totalAmount ?? null);

  useEffect(() => {
    if (!body || count === 0) {
      setQuote(null);
      setQuoteError(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      api(config, 'POST /v1/bookings/quote', { body: { items: body.items } })
        .then((r) => live && (setQuote(r.booking), setQuoteError(null)))
        .catch((e) => live && (setQuote(null), setQuoteError(messageOf(e))));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // The quote depends on the items only (quantities, participants, pickup).
  }, [quoteKey, config]);

  if (!session) return <Busy label="Loading session…" />;
  const set = (patch: Partial<WalkUpForm>) => setForm((f) => ({ ...f, ...patch }));

  if (booked) {
    return (
      <section className="card" aria-labelledby="booked-title">
        <h2 id="booked-title">Booked: order {booked.orderNumber}</h2>
        <p>
          {booked.status} · {booked.totalAmount.toFixed(2)} {booked.totalCurrency}
          {booked.totalDue > 0 ? ` · ${booked.totalDue.toFixed(2)} still due` : ' · paid'}
        </p>
        <div className="qrs">
          {codesOf(booked).map((c) => (
            <QrCode key={c.code} orderNumber={booked.orderNumber} code={c.code} label={c.label} />
          ))}
        </div>
        <div className="row">
          <button type="button" onClick={() => go({ name: 'session', sessionId })}>
            Back to the manifest
          </button>
          <button type="button" className="secondary" onClick={() => (setBooked(null), setForm(emptyForm()), setQuote(null))}>
            Another walk-up booking
          </button>
        </div>
      </section>
    );
  }

  return (
    <form
      className="card walkup"
      aria-labelledby="walkup-title"
      onSubmit={(e) => {
        e.preventDefault();
        if (!body || problem) return;
        setBusy(true);
        setError(null);
        api(config, 'POST /v1/bookings', { body })
          .then((r) => setBooked(r.booking))
          .catch((err) => setError(messageOf(err)))
          .finally(() => setBusy(false));
      }}
    >
      <div className="row spread">
        <h2 id="walkup-title">
          Walk-up booking · {timeOf(session.startTimeLocal)} {session.productName}
        </h2>
        <button type="button" className="secondary" onClick={() => go({ name: 'session', sessionId })}>
          Cancel
        </button>
      </div>
      {!available && !error && <Busy label="Loading prices…" />}
      {available && <p>{available.seatsAvailable} seats left</p>}
      <fieldset>
        <legend>Tickets</legend>
        <div className="grid">
          {options.map((o) => (
            <label key={o.id}>
              {o.label} ({o.price.toFixed(2)})
              <input type="number" min={0} step={1} max={o.maxQuantity ?? 99} value={form.quantities[o.id] ?? 0} onChange={(e) => set({ quantities: { ...form.quantities, [o.id]: Math.max(0, Math.floor(Number(e.target.value)) || 0) } })} />
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Customer</legend>
        <div className="grid">
          <label>
            First name
            <input value={form.firstName} onChange={(e) => set({ firstName: e.target.value })} />
          </label>
          <label>
            Last name
            <input value={form.lastName} onChange={(e) => set({ lastName: e.target.value })} />
          </label>
          <label>
            Phone
            <input type="tel" value={form.phone} onChange={(e) => set({ phone: e.target.value })} />
          </label>
          <label>
            Email
            <input type="email" value={form.email} onChange={(e) => set({ email: e.target.value })} />
          </label>
        </div>
      </fieldset>
      {count > 0 && (
        <fieldset>
          <legend>Participants</legend>
          <div className="grid">
            {Array.from({ length: count }, (_, i) => (
              <label key={i}>
                Participant {i + 1} name
                <input
                  value={form.participantNames[i] ?? ''}
                  onChange={(e) => {
                    const names = [...form.participantNames];
                    names[i] = e.target.value;
                    set({ participantNames: names });
                  }}
                />
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {pickups.length > 0 && (
        <label>
          Pickup
          <select value={form.pickup} onChange={(e) => set({ pickup: e.target.value })}>
            <option value="">No pickup</option>
            {pickups.map((p) => (
              <option key={p.locationName} value={p.locationName}>
                {p.locationName}
                {p.address ? ` (${p.address})` : ''}
              </option>
            ))}
          </select>
        </label>
      )}
      <fieldset>
        <legend>Payment</legend>
        <div className="grid">
          <label>
            Payment type
            <select value={form.paymentType} onChange={(e) => set({ paymentType: e.target.value as WalkUpForm['paymentType'] })}>
              <option value="CASH">Cash</option>
              <option value="CREDITCARD">Credit card</option>
              <option value="">Not paid now</option>
            </select>
          </label>
          <label>
            Amount paid
            <input inputMode="decimal" value={form.paymentAmount} placeholder={quote ? quote.totalAmount.toFixed(2) : '0.00'} onChange={(e) => set({ paymentAmount: e.target.value })} disabled={!form.paymentType} />
          </label>
        </div>
      </fieldset>
      <p className="price" role="status" aria-label="Price">
        {count === 0 ? 'Choose tickets to see the price' : quote ? `Total ${quote.totalAmount.toFixed(2)} ${quote.totalCurrency}` : quoteError ? '' : 'Pricing…'}
      </p>
      <ErrorText error={problem ?? quoteError} />
      <ErrorText error={error} />
      <button type="submit" className="big" disabled={busy || count === 0 || !quote || problem !== null}>
        {busy ? 'Booking…' : 'Book'}
      </button>
    </form>
  );
}
