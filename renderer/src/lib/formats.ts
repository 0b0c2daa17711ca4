import { create } from 'zustand';
import { deviceZone, formatsFor, type Formats, type FormatSettings } from '../../../main/domain/format';

/**
 * The company's formats on this device: its locale and zone as the engine last said
 * (GET /v1/system/instance), kept so an offline start reads the same; before the first answer, this
 * device's language and zone.
 */
const STORAGE = 'tourdesk.companyFormat';

function stored(): FormatSettings | null {
  try {
    const value = typeof localStorage === 'undefined' ? null : (JSON.parse(localStorage.getItem(STORAGE) ?? 'null') as FormatSettings | null);
    return value && typeof value.timezone === 'string' ? { locale: value.locale ?? null, timezone: value.timezone } : null;
  } catch {
    return null;
  }
}

const initial: FormatSettings = stored() ?? { locale: typeof navigator === 'undefined' ? 'en' : navigator.language, timezone: deviceZone() };

export const useFormats = create<{ formats: Formats; setCompany(settings: FormatSettings): void }>((set, get) => ({
  formats: formatsFor(initial),
  setCompany(settings) {
    const formats = formatsFor(settings);
    if (formats === get().formats) return;
    try {
      localStorage.setItem(STORAGE, JSON.stringify({ locale: settings.locale ?? null, timezone: settings.timezone }));
    } catch {
      // A private window without storage still shows the company's formats until it closes.
    }
    set({ formats });
  },
}));

/** The formats now, for code outside a component (a component takes `useFormats` to redraw when they change). */
export const formats = (): Formats => useFormats.getState().formats;

/** The device's own clock, for the few places labelled so. */
export const deviceFormats = (): Formats => formatsFor({ locale: formats().locale, timezone: deviceZone() });

export { participantLabel } from '../../../main/domain/format';
