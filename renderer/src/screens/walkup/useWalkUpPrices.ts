import { useEffect, useState } from 'react';
import { api, messageOf, type ApiConfig } from '../../api/client';
import type { BookingQuote, Manifest, PickupLocationAnswer, SessionAnswer } from '../../api/types';
import type { bookingBody } from '../../model/walkupForm';

const QUOTE_DELAY_MS = 250;

type WalkUpItems = ReturnType<typeof bookingBody>['items'];

/** The session's price options and seats left, and its product's pickup places; a failure to load either goes to `onError`. */
export function useSaleOffer(config: ApiConfig, session: Manifest['session'] | undefined, sessionId: number, onError: (message: string) => void) {
  const [available, setAvailable] = useState<SessionAnswer | null>(null);
  const [pickups, setPickups] = useState<PickupLocationAnswer[]>([]);
  useEffect(() => {
    if (!session) return;
    const end = new Date(Date.parse(session.startTime) + 60_000).toISOString();
    api(config, 'GET /v1/availability', { query: { productCode: session.productCode, startTime: session.startTime, endTime: end } })
      .then((r) => setAvailable(r.sessions.find((x) => x.id === sessionId || x.startTime === session.startTime) ?? null))
      .catch((e) => onError(messageOf(e)));
    api(config, 'GET /v1/products/:productCode/pickups', { params: { productCode: session.productCode } })
      .then((r) => setPickups(r.pickupLocations))
      .catch((e) => onError(messageOf(e)));
  }, [config, session, sessionId]);
  return { available, pickups };
}

/** The engine's price for the chosen items, asked again a moment after they last changed (none while no ticket is chosen). */
export function useLiveQuote(config: ApiConfig, items: WalkUpItems | undefined, count: number) {
  const [quote, setQuote] = useState<BookingQuote | null>(null);
  const [quoteError, setQuoteError] = useState<string | null>(null);
  const quoteKey = JSON.stringify(items);
  useEffect(() => {
    if (!items || count === 0) {
      setQuote(null);
      setQuoteError(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      api(config, 'POST /v1/bookings/quote', { body: { items } })
        .then((r) => live && (setQuote(r.booking), setQuoteError(null)))
        .catch((e) => live && (setQuote(null), setQuoteError(messageOf(e))));
    }, QUOTE_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // The quote depends on the items only (quantities, participants, pickup).
  }, [quoteKey, config]);
  return { quote, quoteError, clearQuote: () => setQuote(null) };
}
