import { THEMES, usePrefs } from '../../store/prefs';
import { Card } from '../../components/ui';
import { DeviceNameField } from '../../components/DeviceName';

/** This device's name, colours and kiosk mode (kept on the device). */
export function DeviceCard() {
  const { theme, setTheme, kiosk, setKiosk } = usePrefs();
  return (
    <Card title="This device">
      <DeviceNameField />
      <fieldset>
        <legend>Colours</legend>
        {THEMES.map((t) => (
          <label key={t.value} className="check">
            <input type="radio" name="theme" value={t.value} checked={theme === t.value} onChange={() => setTheme(t.value)} /> {t.label}
          </label>
        ))}
      </fieldset>
      <label className="check">
        <input type="checkbox" checked={kiosk} onChange={(e) => setKiosk(e.target.checked)} /> Kiosk: this device shows only the scanner (leaving it asks first)
      </label>
      <p className="muted">Colours and kiosk are kept on this device only.</p>
    </Card>
  );
}
