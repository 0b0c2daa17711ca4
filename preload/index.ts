import { contextBridge, ipcRenderer } from 'electron';
import { CHANNELS, type ApiConfig, type PrintResult } from '../main/electron/channels';

/**
 * The smallest bridge: the local API's base URL and key, and the native print dialog for the page
 * on screen (the manifest). Functions only; each is one IPC call the main process checks.
 */
const bridge = {
  getApiConfig: (): Promise<ApiConfig | null> => ipcRenderer.invoke(CHANNELS.config),
  printPage: (): Promise<PrintResult> => ipcRenderer.invoke(CHANNELS.print),
} satisfies Record<string, (...args: never[]) => Promise<unknown>>;

export type TourDeskBridge = typeof bridge;
contextBridge.exposeInMainWorld('tourdesk', bridge);
