import { useState, type ReactNode } from 'react';
import { useConnection } from '../store/connection';
import { useNav } from '../store/nav';
import { ErrorText } from '../components/Status';

/**
 * Signed out in a browser. On the scanner's address a guide's phone signs in by scanning the desk's
 * pairing QR code, so that comes first and a pasted key is the fallback; elsewhere it is the desk,
 * which pastes the key `tourdesk serve` printed. (Electron's preload bridge hands the key over instead.)
 */
export function KeyForm() {
  const scanner = useNav((s) => s.screen.name === 'scan');
  const error = useConnection((s) => s.error);
  if (!scanner) {
    return (
      <KeyEntry title="Connect to this TourDesk">
        <p>
          Paste the API key that <code>tourdesk serve</code> printed at first start (also in the data folder, api-key.txt).
        </p>
      </KeyEntry>
    );
  }
  return (
    <section className="card narrow" aria-labelledby="scanner-signin-title">
      <h2 id="scanner-signin-title">Sign this phone in to the scanner</h2>
      <p>
        Scan the desk’s pairing QR code with this phone’s camera. On the desk it is under <b>Settings › Pair a guide’s phone</b>; the code opens the scanner
        here, signed in.
      </p>
      <ErrorText error={error} />
      <details>
        <summary>No camera? Paste a key instead</summary>
        <KeyEntry title={null}>
          <p>Paste a check-in key the desk gave you.</p>
        </KeyEntry>
      </details>
    </section>
  );
}

/** The key form itself: proves the key with the engine before keeping it. Untitled, its caller shows the error. */
function KeyEntry({ title, children }: { title: string | null; children: ReactNode }) {
  const { connect, connecting, error } = useConnection();
  const [key, setKey] = useState('');
  return (
    <form
      className={title ? 'card narrow' : undefined}
      onSubmit={(event) => {
        event.preventDefault();
        void connect({ baseUrl: window.location.origin, apiKey: key.trim() });
      }}
    >
      {title && <h2>{title}</h2>}
      {children}
      <label>
        API key
        <input value={key} onChange={(e) => setKey(e.target.value)} placeholder="td_…" autoFocus={title !== null} />
      </label>
      <button type="submit" disabled={connecting || key.trim().length === 0}>
        {connecting ? 'Connecting…' : 'Connect'}
      </button>
      {title && <ErrorText error={error} />}
    </form>
  );
}
