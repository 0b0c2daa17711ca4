import { useState } from 'react';
import type { Booking } from '../../api/types';
import { useManifest } from '../../store/manifest';
import { useNav } from '../../store/nav';

/**
 * "Check in now" after a walk-up sale: the session's manifest is read again (it did not hold the new
 * booking), the booking's people are checked in through the outbox as a tap on the manifest would, and
 * the desk goes back to the manifest where the undo toast stands.
 */
export function useCheckInNow(sessionId: number) {
  const go = useNav((s) => s.go);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const checkInNow = async (booked: Booking) => {
    setBusy(true);
    setProblem(null);
    try {
      await useManifest.getState().load(sessionId);
      const found = useManifest.getState().manifest?.bookings.find((b) => b.orderNumber === booked.orderNumber);
      if (!found) return setProblem(`Booking ${booked.orderNumber} is not on this departure’s manifest yet: check them in from the manifest.`);
      const ids = found.participants.filter((p) => p.checkin.state !== 'CHECKED_IN').map((p) => p.id);
      await useManifest.getState().checkIn(ids, `All ${ids.length} checked in · ${booked.orderNumber}`);
      go({ name: 'session', sessionId });
    } finally {
      setBusy(false);
    }
  };
  return { checkInNow, problem, busy };
}
