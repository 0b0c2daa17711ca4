import { create } from 'zustand';
import { api, messageOf, type ApiConfig } from '../api/client';

const KEY_STORAGE = 'tourdesk.apiKey';
const DEVICE_STORAGE = 'tourdesk.device';

interface ConnectionState {
  config: ApiConfig | null;
  connecting: boolean;
  error: string | null;
  device: string;
  connect(config: ApiConfig): Promise<void>;
  disconnect(): void;
  setDevice(name: string): void;
}

/** The API key and this desk's device name (stored with every check-in event). */
export const useConnection = create<ConnectionState>((set) => ({
  config: null,
  connecting: false,
  error: null,
  device: localStorage.getItem(DEVICE_STORAGE) ?? 'Desk',
  async connect(config) {
    set({ connecting: true, error: null });
    try {
      // The cheapest call every key role may make that proves the key.
      await api(config, 'GET', '/v1/manifest/day?limit=1');
      sessionStorage.setItem(KEY_STORAGE, config.apiKey);
      set({ config, connecting: false });
    } catch (error) {
      set({ connecting: false, error: messageOf(error) });
    }
  },
  disconnect() {
    sessionStorage.removeItem(KEY_STORAGE);
    set({ config: null });
  },
  setDevice(name) {
    localStorage.setItem(DEVICE_STORAGE, name);
    set({ device: name });
  },
}));

export const savedKey = () => sessionStorage.getItem(KEY_STORAGE);
