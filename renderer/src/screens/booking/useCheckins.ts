import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { Booking, ParticipantCheckin } from '../../api/types';
import { useConnection } from '../../store/connection';

const RETRIES = 5;
const RETRY_MS = 2_000;

/** One tour of the booking as its manifest holds it: the session (for the links) and each person's check-in. */
export interface ItemCheckins {
  sessionId: number;
  /** By the participant's position in the item. */
  participants: Map<number, { id: number; checkin: ParticipantCheckin }>;
}

/**
 * Each person's check-in state (with when, who and which device) from the manifest of each tour's
 * session: the booking answer does not carry check-ins, the manifest does. A tour whose manifest cannot
 * be read (no session, a key without the right) is left out; the detail still shows the booking.
 */
export function useCheckins(booking: Booking | null, refresh: number): (ItemCheckins | null)[] {
  const config = useConnection((s) => s.config)!;
  const [items, setItems] = useState<(ItemCheckins | null)[]>([]);
  // Retries count per booking answer: a new one (a payment taken) starts again from none.
  const [retry, setRetry] = useState<{ of: Booking | null; n: number }>({ of: null, n: 0 });
  const attempt = retry.of === booking ? retry.n : 0;
  useEffect(() => {
    if (!booking) return;
    let live = true;
    let again: ReturnType<typeof setTimeout> | undefined;
    void Promise.all(
      booking.items.map((item) =>
        api(config, 'GET /v1/manifest', { query: { productCode: item.productCode, startTime: item.startTime } })
          .then(({ manifest }) => {
            const mine = manifest.bookings.find((b) => b.orderNumber === booking.orderNumber) ?? manifest.cancelled.find((b) => b.orderNumber === booking.orderNumber);
            return { sessionId: manifest.session.id, participants: new Map((mine?.participants ?? []).map((p) => [p.position, { id: p.id, checkin: p.checkin }])) };
          })
          .catch(() => null),
      ),
    ).then((found) => {
      if (!live) return;
      setItems(found);
      // A manifest that could not be read (a busy or briefly unreachable engine) or that does not hold
      // the booking yet is asked again a few times, so the people do not stay "not known" until a reload.
      const incomplete = found.some((f, i) => !f || f.participants.size < booking.items[i].participants.length);
      if (incomplete && attempt < RETRIES) again = setTimeout(() => setRetry({ of: booking, n: attempt + 1 }), RETRY_MS);
    });
    return () => {
      live = false;
      clearTimeout(again);
    };
    // Read again whenever the booking is (a payment taken) or `refresh` moves (a check-in made here).
  }, [config, booking, refresh, attempt]);
  return items;
}
