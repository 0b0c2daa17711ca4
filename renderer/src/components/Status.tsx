/** A progress indicator for long work, announced to screen readers. */
export function Busy({ label }: { label: string }) {
  return (
    <p role="status" className="busy">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

/** An API error's errorMessage, as the server wrote it. */
export function ErrorText({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="error">
      {error}
    </p>
  ) : null;
}

/** Booked / checked-in / no-show / remaining, with a bar of the share checked in. */
export function Counts({ booked, checkedIn, noShow, remaining, label }: { booked: number; checkedIn: number; noShow: number; remaining: number; label: string }) {
  return (
    <div className="counts" aria-label={label}>
      <span>
        <b>{booked}</b> booked
      </span>
      <span className="ok">
        <b>{checkedIn}</b> checked in
      </span>
      <span className="bad">
        <b>{noShow}</b> no-show
      </span>
      <span>
        <b>{remaining}</b> remaining
      </span>
      <progress max={Math.max(booked, 1)} value={checkedIn} aria-label={`${checkedIn} of ${booked} checked in`} />
    </div>
  );
}

export const timeOf = (local: string) => local.slice(11, 16);
