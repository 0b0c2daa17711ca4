import { create } from 'zustand';
import { api, ApiError, messageOf, type ApiConfig } from '../api/client';

const KEY_STORAGE = 'tourdesk.apiKey';
const DEVICE_STORAGE = 'tourdesk.device';
/** A pairing's device name waiting for the guide to keep or change it (the scanner asks until then). */
const NAMING_STORAGE = 'tourdesk.deviceNaming';
/** The most a device name holds (the API refuses a longer one). */
export const DEVICE_NAME_MAX = 100;

interface ConnectionState {
  config: ApiConfig | null;
  connecting: boolean;
  error: string | null;
  /** The name this device chose ('' until it chooses: see store/deviceName.ts for what it signs with then). */
  device: string;
  /** Set by a pairing link: the name it suggested, until the guide keeps or changes it. */
  naming: string | null;
  /** Proves a key typed on the key form, then keeps it on this device. */
  connect(config: ApiConfig): Promise<void>;
  /** A key this device already holds: used at once (the scanner works offline), checked when the engine answers. */
  restore(config: ApiConfig): void;
  disconnect(): void;
  setDevice(name: string): void;
  /** The guide's answer to the pairing's question: this device's name, asked no more. */
  nameDevice(name: string): void;
  /** The pairing's question answered elsewhere (the device renamed itself in its menu). */
  stopNaming(): void;
}

/** The API key and this device's name (stored with every check-in event). No device is named "Desk" by default. */
export const useConnection = create<ConnectionState>((set, get) => ({
  config: null,
  connecting: false,
  error: null,
  device: localStorage.getItem(DEVICE_STORAGE) ?? '',
  naming: localStorage.getItem(NAMING_STORAGE),
  async connect(config) {
    set({ connecting: true, error: null });
    try {
      // The cheapest call every key role may make that proves the key.
      await api(config, 'GET /v1/manifest/day', { query: { limit: 1 } });
      if (!window.tourdesk) localStorage.setItem(KEY_STORAGE, config.apiKey);
      set({ config, connecting: false });
    } catch (error) {
      set({ connecting: false, error: messageOf(error) });
    }
  },
  restore(config) {
    set({ config, error: null });
    api(config, 'GET /v1/manifest/day', { query: { limit: 1 }, timeoutMs: 5_000 }).catch((error) => {
      // Only the engine saying no (a revoked key) signs the device out; unreachable is just offline.
      if (error instanceof ApiError && error.status === 401 && get().config?.apiKey === config.apiKey) {
        get().disconnect();
        set({ error: 'This device was signed out: its key is no longer valid' });
      }
    });
  },
  disconnect() {
    localStorage.removeItem(KEY_STORAGE);
    set({ config: null });
  },
  setDevice(name) {
    const kept = name.slice(0, DEVICE_NAME_MAX);
    localStorage.setItem(DEVICE_STORAGE, kept);
    set({ device: kept });
  },
  nameDevice(name) {
    get().setDevice(name.trim());
    get().stopNaming();
  },
  stopNaming() {
    localStorage.removeItem(NAMING_STORAGE);
    set({ naming: null });
  },
}));

/** The key this device was signed in with (kept until "Sign out"; never in a URL). */
export const savedKey = () => localStorage.getItem(KEY_STORAGE);

/**
 * A pairing link (`https://desk:8443/scan#key=td_…`) carries a new check-in key in the fragment,
 * which browsers never send to a server. The app keeps it on the device and takes it out of the
 * address bar and the history at once, so it is not bookmarked, shared or shown. Returns the key
 * taken, or null when the address holds none.
 */
export function takeKeyFromFragment(): string | null {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const key = params.get('key');
  if (!key || location.protocol === 'file:') return null;
  localStorage.setItem(KEY_STORAGE, key);
  // The link names the device after its key; it signs with that at once, and the scanner asks the guide to keep or change it.
  const deviceName = params.get('device')?.trim();
  if (deviceName) {
    useConnection.getState().setDevice(deviceName);
    localStorage.setItem(NAMING_STORAGE, deviceName.slice(0, DEVICE_NAME_MAX));
    useConnection.setState({ naming: deviceName.slice(0, DEVICE_NAME_MAX) });
  }
  history.replaceState(null, '', location.pathname + location.search);
  return key;
}

if (typeof window !== 'undefined') {
  // A pairing link opened in a tab already on its address changes only the fragment: the page does
  // not load again, so the key is taken here and signs in at once, as a fresh load would.
  window.addEventListener('hashchange', () => {
    const key = takeKeyFromFragment();
    if (key) useConnection.getState().restore({ baseUrl: location.origin, apiKey: key });
  });
}
