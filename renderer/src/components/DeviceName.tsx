import { useState } from 'react';
import { DEVICE_NAME_MAX, useConnection } from '../store/connection';
import { useDefaultDeviceName } from '../store/deviceName';
import { Field } from './ui';

const HINT = 'Saved with every check-in made here, so the desk and the office see which device let each guest in.';

/** This device's name, where a device renames itself (the scanner's menu, Settings); blank signs with the default shown. */
export function DeviceNameField({ label = 'Device name', hint = HINT }: { label?: string; hint?: string | null }) {
  const { device, setDevice, stopNaming } = useConnection();
  const fallback = useDefaultDeviceName();
  return (
    <Field
      label={label}
      value={device}
      onChange={(e) => {
        setDevice(e.target.value);
        stopNaming();
      }}
      placeholder={fallback ?? 'Name this device'}
      hint={hint ?? undefined}
      maxLength={DEVICE_NAME_MAX}
      autoComplete="off"
    />
  );
}

/**
 * After a pairing link, the scanner asks the guide what to call this phone ("Anna's phone"), the
 * key's name already filled in. It asks without taking the focus, so a wedge scanner keeps scanning,
 * and the phone signs with the key's name until the guide answers.
 */
export function DeviceNamePrompt() {
  const { naming, nameDevice } = useConnection();
  const [name, setName] = useState(naming ?? '');
  if (naming === null) return null;
  const clean = name.trim();
  return (
    <form
      className="card device-naming"
      aria-labelledby="device-naming-title"
      onSubmit={(event) => {
        event.preventDefault();
        if (clean) nameDevice(clean);
      }}
    >
      <h2 id="device-naming-title">Name this phone</h2>
      <Field
        label="Device name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="Anna’s phone"
        maxLength={DEVICE_NAME_MAX}
        autoComplete="off"
        hint="The desk shows it beside every guest this phone checks in. You can change it later under “This device”."
      />
      <button type="submit" disabled={!clean}>
        Save the name
      </button>
    </form>
  );
}
