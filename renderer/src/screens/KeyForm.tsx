import { useState } from 'react';
import { useConnection } from '../store/connection';
import { ErrorText } from '../components/Status';

/** Web mode: paste the key `tourdesk serve` printed. (Electron's preload bridge hands it over instead.) */
export function KeyForm() {
  const { connect, connecting, error } = useConnection();
  const [key, setKey] = useState('');
  return (
    <form
      className="card narrow"
      onSubmit={(event) => {
        event.preventDefault();
        void connect({ baseUrl: window.location.origin, apiKey: key.trim() });
      }}
    >
      <h2>Connect to this TourDesk</h2>
      <p>
        Paste the API key that <code>tourdesk serve</code> printed at first start (also in the data folder, api-key.txt).
      </p>
      <label>
        API key
        <input value={key} onChange={(e) => setKey(e.target.value)} placeholder="td_…" autoFocus />
      </label>
      <button type="submit" disabled={connecting || key.trim().length === 0}>
        {connecting ? 'Connecting…' : 'Connect'}
      </button>
      <ErrorText error={error} />
    </form>
  );
}
