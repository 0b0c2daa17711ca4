/**
 * Where the desktop window loads the app from. The engine serves the built renderer itself, so the
 * page and the API share one origin: no CORS, and the server's cross-site refusal (Origin must be
 * the app's own) holds for the desktop app as for any browser. In development the page comes from
 * electron-vite's dev server, which proxies /v1 and /media to the engine on a fixed port (see
 * electron.vite.config.ts), so the page's API is again its own origin.
 */
export const DEV_ENGINE_PORT = Number(process.env.TOURDESK_DEV_API_PORT ?? 8787);

export interface AppPage {
  /** The URL the window loads. */
  pageUrl: string;
  /** The base URL the renderer calls the API on (handed over by the preload bridge). */
  apiBaseUrl: string;
}

export function appPage(enginePort: number, devServerUrl?: string): AppPage {
  if (devServerUrl) return { pageUrl: devServerUrl, apiBaseUrl: new URL(devServerUrl).origin };
  const engine = `http://127.0.0.1:${enginePort}`;
  return { pageUrl: `${engine}/`, apiBaseUrl: engine };
}

/** The app's own pages: exactly the page's origin (a longer port or another host is not the app). */
export function isOwnPage(url: string, page: AppPage): boolean {
  try {
    return new URL(url).origin === new URL(page.pageUrl).origin;
  } catch {
    return false;
  }
}
