import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import type { TourDeskBridge } from '../../preload/index';
import { savedKey, takeKeyFromFragment, useConnection } from './store/connection';
import { useNav } from './store/nav';
import { startQueueRetry, useQueue } from './store/queue';
import { KeyForm } from './screens/KeyForm';
import { DepartureBoard } from './screens/DepartureBoard';
import { SessionScreen } from './screens/SessionScreen';
import { WalkUpBooking } from './screens/WalkUpBooking';
import { ScannerScreen } from './screens/ScannerScreen';
import { PairPhone } from './screens/PairPhone';
import { QueueIndicator } from './components/QueueIndicator';
import { registerServiceWorker } from './serviceWorker';
import './styles.css';

declare global {
  interface Window {
    tourdesk?: TourDeskBridge;
  }
}

// Before anything reads the key: a pairing link's key leaves the address bar at once.
takeKeyFromFragment();

function Header() {
  const { config, device, setDevice, disconnect } = useConnection();
  const go = useNav((s) => s.go);
  return (
    <header className="top">
      <h1>
        <button type="button" className="link" onClick={() => go({ name: 'board' })}>
          TourDesk
        </button>
      </h1>
      {config && (
        <div className="row">
          <QueueIndicator />
          <button type="button" className="secondary small" onClick={() => go({ name: 'scan', sessionId: null })}>
            Scanner
          </button>
          {!window.tourdesk && (
            <button type="button" className="secondary small" onClick={() => go({ name: 'pair' })}>
              Pair a phone
            </button>
          )}
          <label className="inline">
            Device name
            <input value={device} onChange={(e) => setDevice(e.target.value)} size={12} />
          </label>
          {!window.tourdesk && (
            <button type="button" className="secondary small" onClick={disconnect}>
              Sign out
            </button>
          )}
        </div>
      )}
    </header>
  );
}

function App() {
  const { config, restore } = useConnection();
  const screen = useNav((s) => s.screen);
  useEffect(() => {
    if (window.tourdesk) {
      void window.tourdesk.getApiConfig().then((c) => c && restore(c));
    } else {
      const key = savedKey();
      if (key) restore({ baseUrl: window.location.origin, apiKey: key });
    }
    startQueueRetry();
  }, [restore]);
  // Events left from before a reload go out as soon as there is a key.
  useEffect(() => {
    if (config) void useQueue.getState().flush();
  }, [config]);
  if (config && screen.name === 'scan') return <ScannerScreen sessionId={screen.sessionId} />;
  return (
    <>
      <Header />
      <main>
        {!config ? (
          <KeyForm />
        ) : screen.name === 'session' ? (
          <SessionScreen sessionId={screen.sessionId} />
        ) : screen.name === 'walkup' ? (
          <WalkUpBooking sessionId={screen.sessionId} />
        ) : screen.name === 'pair' ? (
          <PairPhone />
        ) : (
          <DepartureBoard />
        )}
      </main>
    </>
  );
}

registerServiceWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
