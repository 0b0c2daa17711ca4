/** The IPC channels between the preload bridge and the main process (the whole list). */
export const CHANNELS = {
  config: 'tourdesk:config',
  print: 'tourdesk:print',
} as const;

export interface ApiConfig {
  baseUrl: string;
  apiKey: string;
}

/** `printed: false` with reason 'cancelled' is the clerk closing the dialog, not an error. */
export interface PrintResult {
  printed: boolean;
  reason?: string;
}
