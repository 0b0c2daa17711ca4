import { useState } from 'react';
import { useScanner } from '../store/scanner';
import { MAX_WINDOW_DAYS, validWindow, type WindowSetting } from './copies';

const MAX_SIDE = MAX_WINDOW_DAYS - 1;

/**
 * Which days this device keeps for offline scanning, around today: saved on the device, and the copy
 * is fetched again for the new days at once (while online). Yesterday to 2 days ahead unless set.
 */
export function WindowSettingField() {
  const setting = useScanner((s) => s.window);
  // Drafted afresh whenever the kept setting changes (read from the device after the screen opened, or saved).
  return <WindowForm key={`${setting.daysBefore}-${setting.daysAfter}`} setting={setting} />;
}

function WindowForm({ setting }: { setting: WindowSetting }) {
  const copy = useScanner((s) => s.copy);
  const setWindow = useScanner((s) => s.setWindow);
  const [draft, setDraft] = useState<WindowSetting>(setting);
  const valid = validWindow(draft);
  const changed = draft.daysBefore !== setting.daysBefore || draft.daysAfter !== setting.daysAfter;
  const field = (key: keyof WindowSetting, label: string) => (
    <label>
      {label}
      <input type="number" inputMode="numeric" min={0} max={MAX_SIDE} step={1} value={Number.isNaN(draft[key]) ? '' : draft[key]} onChange={(e) => setDraft({ ...draft, [key]: e.target.valueAsNumber })} />
    </label>
  );
  return (
    <form
      className="window-setting"
      aria-label="Days kept on this device"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) void setWindow(draft);
      }}
    >
      <p className="muted">
        Kept for offline scanning: {copy.from ? `${copy.from} to ${copy.to}` : 'nothing yet'} (every booking of those days’ departures).
      </p>
      <div className="row">
        {field('daysBefore', 'Days before today')}
        {field('daysAfter', 'Days after today')}
      </div>
      {!valid && <p className="problem">Whole days from 0, at most {MAX_WINDOW_DAYS} days in all (today included).</p>}
      <button type="submit" className="secondary" disabled={!valid || !changed}>
        Keep these days
      </button>
    </form>
  );
}
