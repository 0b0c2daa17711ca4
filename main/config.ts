import { homedir } from 'node:os';
import { join } from 'node:path';

/** The platform's user data folder for TourDesk (TOURDESK_DATA_DIR overrides it). */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.TOURDESK_DATA_DIR) return env.TOURDESK_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'TourDesk');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'TourDesk');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'tourdesk');
}

export const DATABASE_FILE = 'tourdesk.sqlite';
export const KEY_FILE = 'api-key.txt';
