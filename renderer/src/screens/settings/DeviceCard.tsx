import { useConnection } from '../../store/connection';
import { THEMES, usePrefs } from '../../store/prefs';
import { Card, Field } from '../../components/ui';

/** This device's name, colours and kiosk mode (kept on the device). */
export function DeviceCard() {
  const { theme, setTheme, kiosk, setKiosk } = usePrefs();
  const { device, setDevice } = useConnection();
  return (
    <Card title="This device">
      <Field label="Device name" value={device} onChange={(e) => setDevice(e.target.value)} hint="Saved with every check-in made here, so the office knows which device it was." maxLength={100} />
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
