import { contextBridge, ipcRenderer } from 'electron';

/** The smallest bridge: one function that returns the local API's base URL and a key. */
const bridge = {
  getApiConfig: (): Promise<{ baseUrl: string; apiKey: string } | null> => ipcRenderer.invoke('tourdesk:config'),
} satisfies Record<string, (...args: never[]) => Promise<unknown>>;

export type TourDeskBridge = typeof bridge;
contextBridge.exposeInMainWorld('tourdesk', bridge);
