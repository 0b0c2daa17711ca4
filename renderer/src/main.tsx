import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { TourDeskBridge } from '../../preload/index';
import { savedKey, takeKeyFromFragment, useConnection } from './store/connection';
import type { Screen } from './model/routes';
import { useNav } from './store/nav';
import { startOutbox, useOutbox } from './store/outbox';
import { usePrefs } from './store/prefs';
import { mayBook, useInstance } from './store/instance';
import { useDefaultDeviceName } from './store/deviceName';
import { KeyForm } from './screens/KeyForm';
import { DepartureBoard } from './screens/DepartureBoard';
import { SessionScreen } from './screens/SessionScreen';
import { WalkUpBooking } from './screens/WalkUpBooking';
import { ScannerScreen } from './screens/ScannerScreen';
import { PairPhone } from './screens/PairPhone';
import { Bookings } from './screens/Bookings';
import { BookingDetail } from './screens/BookingDetail';
import { TicketsPage } from './screens/print/TicketsPage';
import { ReceiptPage } from './screens/print/ReceiptPage';
import { Settings } from './screens/settings/Settings';
import { WeekScreen } from './screens/week/WeekScreen';
import { OverridesScreen } from './screens/OverridesScreen';
import { RunSheet } from './screens/session/RunSheet';
import { QueueIndicator } from './components/QueueIndicator';
import { StatusBar } from './components/StatusBar';
import { Shortcuts } from './components/Shortcuts';
import { useFormats } from './lib/formats';
import { Link } from './components/Link';
import { usePageTitle } from './components/usePageTitle';
import { Button, ConfirmDialog, Toasts } from './components/ui';
import { registerServiceWorker } from './serviceWorker';
import './styles.css';

declare global {
  interface Window {
    tourdesk?: TourDeskBridge;
  }
}

// Before anything reads the key: a pairing link's key leaves the address bar at once.
takeKeyFromFragment();

/** The header's places; the current one is marked for screen readers and by an underline. */
const PLACES: { label: string; screen: Screen; matches: Screen['name'][]; shortcut: string; booking?: true }[] = [
  { label: 'Departures', screen: { name: 'board' }, matches: ['board', 'session', 'walkup', 'week', 'overrides', 'runsheet'], shortcut: 'g d' },
  { label: 'Bookings', screen: { name: 'bookings', q: '', date: null }, matches: ['bookings', 'booking', 'tickets', 'receipt'], shortcut: 'g b', booking: true },
  { label: 'Scanner', screen: { name: 'scan', sessionId: null }, matches: ['scan'], shortcut: 'g c' },
  { label: 'Settings', screen: { name: 'settings' }, matches: ['settings', 'pair'], shortcut: 'g s' },
];

function Header() {
  const { config, device, setDevice, disconnect } = useConnection();
  const screen = useNav((s) => s.screen);
  const booking = useInstance((s) => mayBook(s.instance?.key.role));
  const defaultDevice = useDefaultDeviceName();
  return (
    <header className="top">
      <Link to={{ name: 'board' }} className="brand">
        <img src="/favicon.svg" alt="" width={28} height={28} /> TourDesk
      </Link>
      {config && (
        <>
          <nav aria-label="Main">
            {PLACES.filter((p) => booking || !p.booking).map((p) => (
              <Link key={p.label} to={p.screen} aria-current={p.matches.includes(screen.name) ? 'page' : undefined} title={`${p.label} (${p.shortcut})`}>
                {p.label}
              </Link>
            ))}
          </nav>
          <div className="row header-tools">
            <QueueIndicator />
            <label className="inline">
              Device name
              <input value={device} onChange={(e) => setDevice(e.target.value)} size={10} placeholder={defaultDevice ?? undefined} maxLength={100} />
            </label>
            {!window.tourdesk && (
              <Button variant="secondary" onClick={disconnect}>
                Sign out
              </Button>
            )}
          </div>
        </>
      )}
    </header>
  );
}

/** Kiosk: the scanner and nothing else; the way out is one small button that asks first. */
function KioskExit() {
  const setKiosk = usePrefs((s) => s.setKiosk);
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Button variant="secondary" className="kiosk-exit" onClick={() => setAsking(true)}>
        Leave kiosk
      </Button>
      <ConfirmDialog open={asking} title="Leave kiosk mode?" confirmLabel="Leave kiosk mode" onConfirm={() => (setKiosk(false), setAsking(false))} onClose={() => setAsking(false)}>
        <p>The other screens (bookings, settings) become reachable on this device again.</p>
      </ConfirmDialog>
    </>
  );
}

function Screens({ screen }: { screen: Screen }) {
  switch (screen.name) {
    case 'session':
      return <SessionScreen sessionId={screen.sessionId} />;
    case 'walkup':
      return <WalkUpBooking sessionId={screen.sessionId} />;
    case 'pair':
      return <PairPhone />;
    case 'bookings':
      return <Bookings q={screen.q} date={screen.date} />;
    case 'booking':
      return <BookingDetail key={screen.orderNumber} orderNumber={screen.orderNumber} />;
    case 'tickets':
      return <TicketsPage key={screen.orderNumber} orderNumber={screen.orderNumber} size={screen.size} />;
    case 'receipt':
      return <ReceiptPage key={`${screen.orderNumber}/${screen.paymentId}`} orderNumber={screen.orderNumber} paymentId={screen.paymentId} />;
    case 'settings':
      return <Settings />;
    case 'week':
      return <WeekScreen from={screen.from} />;
    case 'overrides':
      return <OverridesScreen date={screen.date} />;
    case 'runsheet':
      return <RunSheet sessionId={screen.sessionId} />;
    default:
      return <DepartureBoard />;
  }
}

function App() {
  const { config, restore } = useConnection();
  const screen = useNav((s) => s.screen);
  const kiosk = usePrefs((s) => s.kiosk);
  // Every screen writes dates and money in the company's formats: when they arrive (or change), all redraw.
  useFormats((s) => s.formats);
  const scanning = !!config && (screen.name === 'scan' || kiosk);
  // The scanner and the sign-in form are named here; every other screen names its own tab.
  usePageTitle(!config ? 'Sign in' : scanning ? 'Scanner' : null);
  useEffect(() => {
    if (window.tourdesk) {
      void window.tourdesk.getApiConfig().then((c) => c && restore(c));
    } else {
      const key = savedKey();
      if (key) restore({ baseUrl: window.location.origin, apiKey: key });
    }
    startOutbox();
  }, [restore]);
  // Events left from before a reload go out as soon as there is a key.
  useEffect(() => {
    if (config) void useOutbox.getState().flush();
  }, [config]);
  // Kiosk pins the address to the scanner, so a reload or a typed URL lands there too.
  useEffect(() => {
    if (kiosk && config && screen.name !== 'scan') useNav.getState().replace({ name: 'scan', sessionId: null });
  }, [kiosk, config, screen.name]);
  if (scanning) {
    return (
      <>
        <ScannerScreen sessionId={screen.name === 'scan' ? screen.sessionId : null} />
        {kiosk && <KioskExit />}
        <Toasts />
      </>
    );
  }
  return (
    <>
      <a className="skip" href="#content">
        Skip to the content
      </a>
      <Header />
      <main id="content" tabIndex={-1}>
        {!config ? <KeyForm /> : <Screens screen={screen} />}
      </main>
      {config && <StatusBar />}
      <Shortcuts enabled={!!config} />
      <Toasts />
    </>
  );
}

registerServiceWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
