import type { Manifest } from '../../api/types';
import { useManifest } from '../../store/manifest';
import { personName, type DeskBooking } from '../../model/deskManifest';

/** Check-ins the engine refused after all, each until the desk says OK. */
export function RefusedAlerts() {
  const refused = useManifest((s) => s.refused);
  const dismissRefused = useManifest((s) => s.dismissRefused);
  return refused.map((r) => (
    <div key={r.eventId} className="mf-refused" role="alert">
      <span>✕ {r.message.replace(/\. To admit anyway.*$/, '')}</span>
      <button type="button" className="secondary" onClick={() => dismissRefused(r.eventId)}>
        OK
      </button>
    </div>
  ));
}

/** Check-ins that disagree with their booking (cancelled meanwhile), named by the person and booking they are about. */
export function ConflictNotes({ conflicts, bookings }: { conflicts: Manifest['conflicts']; bookings: readonly DeskBooking[] }) {
  return conflicts.map((c) => {
    const booking = bookings.find((b) => b.orderNumber === c.orderNumber);
    const person = booking?.participants.find((p) => p.id === c.participantId);
    return (
      <p key={c.message + (c.participantId ?? '')} className="note" role="note">
        ⚠ {person ? `${personName(person)} · ` : ''}
        {c.orderNumber ? `booking ${c.orderNumber}${booking?.customerName ? ` (${booking.customerName})` : ''}: ` : ''}
        {c.message}
      </p>
    );
  });
}
