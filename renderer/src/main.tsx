import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import type { TourDeskBridge } from '../../preload/index';
import { savedKey, useConnection } from './store/connection';
import { useNav } from './store/nav';
import { startQueueRetry, useQueue } from './store/queue';
import { KeyForm } from './screens/KeyForm';
import { DepartureBoard } from './screens/DepartureBoard';
import { SessionScreen } from './screens/SessionScreen';
import { WalkUpBooking } from './screens/WalkUpBooking';
import { QueueIndicator } from './components/QueueIndicator';
import './styles.css';

declare global {
  interface Window {
    tourdesk?: TourDeskBridge;
  }
}

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
  const { config, connect } = useConnection();
  const screen = useNav((s) => s.screen);
  useEffect(() => {
    if (window.tourdesk) {
      void window.tourdesk.getApiConfig().then((c) => c && connect(c));
    } else {
      const key = savedKey();
      if (key) void connect({ baseUrl: window.location.origin, apiKey: key });
    }
    startQueueRetry();
  }, [connect]);
  // Events left from before a reload go out as soon as there is a key.
  useEffect(() => {
    if (config) void useQueue.getState().flush();
  }, [config]);
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
        ) : (
          <DepartureBoard />
        )}
      </main>
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
