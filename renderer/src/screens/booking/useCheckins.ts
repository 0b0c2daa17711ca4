import { useEffect, useState } from 'react';
import { getWithRetry } from '../../api/client';
import type { Booking, ParticipantCheckin } from '../../api/types';
import { useConnection } from '../../store/connection';

/** One tour of the booking as its manifest holds it: the session (for the links) and each person's check-in. */
export interface ItemCheckins {
  sessionId: number;
  /** By the participant's position in the item. */
  participants: Map<number, { id: number; checkin: ParticipantCheckin }>;
}

/**
 * Each person's check-in state (with when, who and which device) from the manifest of each tour's
 * session: the booking answer does not carry check-ins, the manifest does. A tour whose manifest cannot
 * be read (no session, a key without the right) is left out; the detail still shows the booking. A
 * busy or briefly unreachable engine is asked again (getWithRetry) before a tour counts as unread.
 */
export function useCheckins(booking: Booking | null, refresh: number): (ItemCheckins | null)[] {
  const config = useConnection((s) => s.config)!;
  const [items, setItems] = useState<(ItemCheckins | null)[]>([]);
  useEffect(() => {
    if (!booking) return;
    let live = true;
    void Promise.all(
      booking.items.map((item) =>
        getWithRetry(config, 'GET /v1/manifest', { query: { productCode: item.productCode, startTime: item.startTime } })
          .then(({ manifest }) => {
            const mine = manifest.bookings.find((b) => b.orderNumber === booking.orderNumber) ?? manifest.cancelled.find((b) => b.orderNumber === booking.orderNumber);
            return { sessionId: manifest.session.id, participants: new Map((mine?.participants ?? []).map((p) => [p.position, { id: p.id, checkin: p.checkin }])) };
          })
          .catch(() => null),
      ),
    ).then((found) => live && setItems(found));
    return () => {
      live = false;
    };
    // Read again whenever the booking is (a payment taken) or `refresh` moves (a check-in made here).
  }, [config, booking, refresh]);
  return items;
}
