import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { savedKey, useDesk } from './store';
import type { TourDeskBridge } from '../../preload/index';
import './styles.css';

declare global {
  interface Window {
    tourdesk?: TourDeskBridge;
  }
}

function KeyForm() {
  const { connect, loading, error } = useDesk();
  const [key, setKey] = useState('');
  return (
    <form
      className="card"
      onSubmit={(event) => {
        event.preventDefault();
        void connect({ baseUrl: window.location.origin, apiKey: key.trim() });
      }}
    >
      <h2>Connect to this TourDesk</h2>
      <p>Paste the API key that <code>tourdesk serve</code> printed at first start (also in the data folder, api-key.txt).</p>
      <input aria-label="API key" value={key} onChange={(e) => setKey(e.target.value)} placeholder="td_…" autoFocus />
      <button type="submit" disabled={loading || key.trim().length === 0}>
        {loading ? 'Connecting…' : 'Connect'}
      </button>
      {error && <p role="alert" className="error">{error}</p>}
    </form>
  );
}

function App() {
  const { config, products, connect } = useDesk();
  useEffect(() => {
    if (window.tourdesk) {
      void window.tourdesk.getApiConfig().then((c) => c && connect(c));
    } else {
      const key = savedKey();
      if (key) void connect({ baseUrl: window.location.origin, apiKey: key });
    }
  }, [connect]);
  return (
    <main>
      <header>
        <h1>TourDesk</h1>
      </header>
      {!config ? (
        <KeyForm />
      ) : (
        <section className="card">
          <h2>Products</h2>
          <ul>
            {products.map((p) => (
              <li key={p.productCode}>
                <b>{p.name}</b> <small>{p.productCode} · {p.productType} · {p.bookingMode}</small>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
