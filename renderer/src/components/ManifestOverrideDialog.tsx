import { formats } from '../lib/formats';
import { useEffect, useRef } from 'react';
import type { DeskParticipant } from '../model/deskManifest';
import { personName, type DeskBooking, type Refusal } from '../model/deskManifest';

export interface PendingOverride {
  booking: DeskBooking;
  people: DeskParticipant[];
  refusal: Refusal;
}

/**
 * The deliberate second action: admitting someone a scan would refuse names who, which booking and
 * the rule, and the engine records the override with the key and device that made it.
 */
export function ManifestOverrideDialog({ pending, onAdmit, onCancel, onPayAndAdmit }: { pending: PendingOverride; onAdmit(): void; onCancel(): void; /** Offered when the rule is an unpaid balance: take it, then check in. */ onPayAndAdmit?(): void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    cancel.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onCancel();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onCancel]);
  const names = pending.people.map(personName).join(', ');
  const payment = pending.refusal.rule === 'NOT_PAID' && pending.booking.live && pending.booking.live.payment.totalDue > 0 ? pending.booking.live.payment : null;
  return (
    <div className="mf-dialog-backdrop">
      <div className="mf-dialog" role="alertdialog" aria-modal="true" aria-labelledby="mf-dialog-title" aria-describedby="mf-dialog-reason">
        <h3 id="mf-dialog-title">✕ Not checked in: {names}</h3>
        <p id="mf-dialog-reason">
          <b>{pending.refusal.reason}.</b> A scan of this ticket would be refused.
        </p>
        <p className="mf-dialog-small">Admitting anyway is recorded with your device and key.</p>
        <div className="mf-dialog-actions">
          <button ref={cancel} type="button" className="secondary" onClick={onCancel}>
            Do not admit
          </button>
          <button type="button" className="mf-override" onClick={onAdmit}>
            {pending.refusal.action}
          </button>
          {payment && onPayAndAdmit && (
            <button type="button" className="mf-primary" onClick={onPayAndAdmit}>
              Take {formats().money(payment.totalDue, payment.totalCurrency)} and check in
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
