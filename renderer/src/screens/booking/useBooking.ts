import { useCallback, useEffect, useState } from 'react';
import type { Booking } from '../../../../main/contract/bookings';
import { api } from '../../api/client';
import { plainWords } from '../../api/plainWords';
import { useConnection } from '../../store/connection';
import { useToasts } from '../../components/ui';
import { updateBody, type EditForm } from './editDetails';

/** One booking as the engine answers it, saved with edited details or cancelled; each outcome is toasted or kept as `error`. */
export function useBooking(orderNumber: string) {
  const config = useConnection((s) => s.config)!;
  const toast = useToasts((s) => s.show);
  const [booking, setBooking] = useState<Booking | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    setError(null);
    api(config, 'GET /v1/bookings/:orderNumber', { params: { orderNumber } })
      .then((r) => setBooking(r.booking))
      .catch((e) => setError(plainWords(e)));
  }, [config, orderNumber]);
  useEffect(load, [load]);

  /** Runs a change with the screen busy; the error stays on screen, and whether it worked is the answer. */
  async function change(run: () => Promise<void>): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      await run();
      return true;
    } catch (e) {
      setError(plainWords(e));
      return false;
    } finally {
      setBusy(false);
    }
  }

  const save = (edited: Booking, form: EditForm) =>
    change(async () => {
      const answer = await api(config, 'PUT /v1/bookings/:orderNumber', { params: { orderNumber }, body: updateBody(edited, form) });
      setBooking(answer.booking);
      toast(answer.requestStatus.warning ? `Saved, but note: ${(answer.requestStatus.warning as unknown as { warningMessage?: string }).warningMessage ?? answer.requestStatus.warning}` : 'Booking saved');
    });

  const cancel = () =>
    change(async () => {
      const answer = await api(config, 'DELETE /v1/bookings/:orderNumber', { params: { orderNumber } });
      setBooking(answer.booking);
      toast(`Booking ${orderNumber} cancelled; seats released${answer.booking.totalPaid < 0 || answer.booking.payments.some((p) => p.refund) ? ' and the payment refunded' : ''}`);
    });

  /** The booking as a change made elsewhere on the screen (a payment taken) left it. */
  const reload = (next: Booking) => setBooking(next);

  return { booking, error, busy, save, cancel, reload };
}
