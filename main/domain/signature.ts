import type { Actor } from './context';

/**
 * Who did a piece of work, as it is stored with it: the device the person used ("Anna's phone", what
 * the client sent) and the API key, by id (a key of this instance) and by name. The name is kept
 * because keys never sync: on another instance the id names nobody, the name still reads. Check-in
 * events sign with it; any other record of who did something (a payment's taker) can do the same.
 */
export interface Signature {
  device: string | null;
  api_key_id: number | null;
  key_name: string | null;
}

/** The most a stored device or key name holds (the API refuses a longer device name). */
export const SIGNATURE_NAME_MAX = 100;

/** A name as it is kept: trimmed, control characters out, at most SIGNATURE_NAME_MAX; blank is none. */
export function cleanName(name: string | null | undefined): string | null {
  if (name === null || name === undefined) return null;
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, SIGNATURE_NAME_MAX).trim();
  return clean === '' ? null : clean;
}

/** The request's key and the device it names, as the pair to store. Work with no key (the engine's own) signs with no key. */
export function signatureOf(actor: Actor, device: string | null | undefined): Signature {
  return { device: cleanName(device), api_key_id: actor.keyId, key_name: actor.keyId === null ? null : cleanName(actor.name) };
}

/**
 * The key's name a stored signature reads as: its own name when it carries one, else (older
 * records) this instance's name for the key, when the key is one of this instance's.
 */
export function signedKeyName(stored: { api_key_id: number | null; key_name: string | null }, keyNames: ReadonlyMap<number, string>): string | null {
  if (stored.key_name !== null) return stored.key_name;
  return stored.api_key_id !== null ? (keyNames.get(stored.api_key_id) ?? null) : null;
}
