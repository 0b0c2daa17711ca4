import { create } from 'zustand';

/** How the desk looks: follow the system (light or dark), always light, always dark, or sunlight (high contrast). */
export type ThemeChoice = 'system' | 'light' | 'dark' | 'sunlight';
export const THEMES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'Follow this device (light or dark)' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'sunlight', label: 'Sunlight (high contrast, for outdoors)' },
];

const THEME_STORAGE = 'tourdesk.theme';
const KIOSK_STORAGE = 'tourdesk.kiosk';

const stored = (): ThemeChoice => {
  const value = typeof localStorage === 'undefined' ? null : localStorage.getItem(THEME_STORAGE);
  return THEMES.some((t) => t.value === value) ? (value as ThemeChoice) : 'system';
};

const darkQuery = () => (typeof matchMedia === 'undefined' ? null : matchMedia('(prefers-color-scheme: dark)'));

/** The theme the page shows now: the choice, with "system" read from prefers-color-scheme. */
function effectiveTheme(choice: ThemeChoice): 'light' | 'dark' | 'sunlight' {
  if (choice !== 'system') return choice;
  return darkQuery()?.matches ? 'dark' : 'light';
}

function apply(choice: ThemeChoice, kiosk: boolean) {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  root.dataset.theme = effectiveTheme(choice);
  root.classList.toggle('kiosk', kiosk);
}

interface PrefsState {
  theme: ThemeChoice;
  /** Kiosk: the scanner only, no way to the other screens (leaving it takes a deliberate confirm). */
  kiosk: boolean;
  setTheme(theme: ThemeChoice): void;
  setKiosk(on: boolean): void;
}

/** The look and the kiosk switch, kept on this device (localStorage) and applied to <html> at once. */
export const usePrefs = create<PrefsState>((set, get) => ({
  theme: stored(),
  kiosk: typeof localStorage !== 'undefined' && localStorage.getItem(KIOSK_STORAGE) === '1',
  setTheme(theme) {
    localStorage.setItem(THEME_STORAGE, theme);
    set({ theme });
    apply(theme, get().kiosk);
  },
  setKiosk(kiosk) {
    if (kiosk) localStorage.setItem(KIOSK_STORAGE, '1');
    else localStorage.removeItem(KIOSK_STORAGE);
    set({ kiosk });
    apply(get().theme, kiosk);
  },
}));

// Before the first paint: the stored look, and "system" follows the device as it changes (e.g. at dusk).
apply(usePrefs.getState().theme, usePrefs.getState().kiosk);
darkQuery()?.addEventListener('change', () => apply(usePrefs.getState().theme, usePrefs.getState().kiosk));
