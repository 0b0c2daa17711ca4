import { useEffect, useState } from 'react';
import { recordedCheckin } from '../../api/answers';
import { useManifest } from '../../store/manifest';
import { personName } from '../../model/deskManifest';
import type { ManifestActions } from '../../components/ManifestList';
import type { PendingOverride } from '../../components/ManifestOverrideDialog';
import type { PaymentTarget } from '../payment/TakePaymentDialog';
import type { DeskBooking } from '../../model/deskManifest';

/**
 * What the desk does to a session's manifest: check in, undo, no-show, the people ticked for a
 * check-in (cleared once they are in, or another session opens), and an override it is asked about.
 */
export function useDeskActions(sessionId: number) {
  const checkIn = useManifest((s) => s.checkIn);
  const record = useManifest((s) => s.record);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [asking, setAsking] = useState<PendingOverride | null>(null);
  const [paying, setPaying] = useState<PaymentTarget | null>(null);
  useEffect(() => setSelected(new Set()), [sessionId]);
  const paymentOf = (booking: DeskBooking): PaymentTarget | null =>
    booking.live ? { orderNumber: booking.orderNumber, customerName: booking.customerName ?? booking.orderNumber, due: booking.live.payment.totalDue, currency: booking.live.payment.totalCurrency } : null;

  const done = (ids: number[]) => setSelected((s) => new Set([...s].filter((id) => !ids.includes(id))));
  const actions: ManifestActions = {
    checkIn(booking, people) {
      const all = people.length === booking.participants.length;
      const label = people.length === 1 ? `${personName(people[0])} checked in` : `${all ? 'All' : people.length} of ${booking.participants.length} checked in · ${booking.customerName ?? booking.orderNumber}`;
      void checkIn(people.map((p) => p.id), label);
      done(people.map((p) => p.id));
    },
    admitAnyway(booking, people, refusal) {
      setAsking({ booking, people, refusal });
    },
    undo(p) {
      const event = recordedCheckin(p.checkin);
      if (event) void record([{ kind: 'UNDO', undoesEventId: event.eventId }]);
    },
    noShow(p) {
      void record([{ kind: 'NO_SHOW', participantId: p.id }]);
    },
    takePayment(booking) {
      setPaying(paymentOf(booking));
    },
    toggle(id) {
      setSelected((s) => {
        const next = new Set(s);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
    },
  };

  /** The override asked about, given: the rule it overrides goes with the check-in. */
  const admit = ({ booking, people, refusal }: PendingOverride) => {
    const names = people.map(personName).join(', ');
    void checkIn(people.map((p) => p.id), `${names} admitted anyway (${refusal.rule.replaceAll('_', ' ').toLowerCase()}) · ${booking.orderNumber}`, [refusal.rule]);
    done(people.map((p) => p.id));
    setAsking(null);
  };

  /**
   * "Take 150.00 and check in" instead of an override: the payment first (the outbox sends it ahead of
   * the check-in), then the check-in; a part payment leaves the rule to override, as a clerk chose.
   */
  const payAndAdmit = ({ booking, people, refusal }: PendingOverride) => {
    const target = paymentOf(booking);
    setAsking(null);
    if (!target) return;
    const names = people.map(personName).join(', ');
    setPaying({ ...target, thenCheckIn: (covered) => void checkIn(people.map((p) => p.id), `${names} paid and checked in · ${booking.orderNumber}`, covered ? undefined : [refusal.rule]).then(() => done(people.map((p) => p.id))) });
  };

  return { selected, actions, asking, admit, payAndAdmit, dismissAsking: () => setAsking(null), paying, dismissPaying: () => setPaying(null) };
}
