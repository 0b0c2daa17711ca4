import { CHANNELS, type ApiConfig, type PrintResult } from './channels';
import { printContents, type Printable } from './printing';

/** `ipcMain`, the part used here. */
export interface IpcRegistry {
  handle(channel: string, listener: (event: BridgeEvent) => unknown): void;
}

export interface BridgeEvent {
  sender: Printable;
  senderFrame: { url: string } | null;
}

/**
 * The main side of the preload bridge. Every call is checked against the page that sent it: only the
 * app's own page (isAppUrl) gets the key or a print dialog, even if something else ever loads in a frame.
 */
export function registerBridge(ipc: IpcRegistry, deps: { getConfig(): ApiConfig | null; isAppUrl(url: string): boolean }): void {
  const fromApp = (event: BridgeEvent) => {
    const url = event.senderFrame?.url ?? '';
    if (!deps.isAppUrl(url)) throw new Error('Refused: not the TourDesk page');
  };
  ipc.handle(CHANNELS.config, (event): ApiConfig | null => {
    fromApp(event);
    return deps.getConfig();
  });
  ipc.handle(CHANNELS.print, (event): Promise<PrintResult> => {
    fromApp(event);
    return printContents(event.sender);
  });
}
