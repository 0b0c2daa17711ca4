import { formats } from '../lib/formats';

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

/** A departure's time of day ('9:00 am' or '09:00', as the company's locale writes it). */
export const timeOf = (local: string) => formats().time(local);
