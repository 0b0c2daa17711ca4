import type { Manifest } from '../../api/types';

/** Booked, in, no-show and remaining, with how many of them are still waiting to send. */
export function SessionTotals({ totals, waitingCount }: { totals: Manifest['totals']; waitingCount: number }) {
  return (
    <div className="mf-totals" role="group" aria-label="Session totals">
      <span>
        <b>{totals.booked}</b> booked
      </span>
      <span className="ok">
        <b>{totals.checkedIn}</b> checked in
      </span>
      <span className="bad">
        <b>{totals.noShow}</b> no-show
      </span>
      <span>
        <b>{totals.remaining}</b> remaining
      </span>
      {waitingCount > 0 && <small className="waiting-note">Includes {waitingCount} waiting to send</small>}
      <progress max={Math.max(totals.booked, 1)} value={totals.checkedIn} aria-label={`${totals.checkedIn} of ${totals.booked} checked in`} />
    </div>
  );
}
