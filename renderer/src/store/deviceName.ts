import { useConnection } from './connection';
import { useInstance, type Instance } from './instance';

/**
 * The name a device signs its check-ins with when it has chosen none: a guide's phone (a check-in
 * key) goes by its key's name, a desk by its instance's name, as the status bar shows it. Unknown
 * yet (the engine not heard): none, and the engine signs with the key's name alone.
 */
export function defaultDeviceName(instance: Instance | null): string | null {
  if (!instance) return null;
  return instance.key.role === 'checkin' ? instance.key.name : `Instance ${instance.instanceNo}`;
}

/** The device name sent with an event now: the one chosen here, else the default above. */
export function currentDeviceName(): string | undefined {
  return useConnection.getState().device.trim() || defaultDeviceName(useInstance.getState().instance) || undefined;
}

/** The default, for a name field's placeholder. */
export function useDefaultDeviceName(): string | null {
  return useInstance((s) => defaultDeviceName(s.instance));
}
