import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { SafeStorage } from 'electron';

/**
 * The desktop app's one supplier key, kept across launches.
 *
 * The key is stored encrypted with Electron's safeStorage (the OS keychain: Keychain on macOS, DPAPI on
 * Windows, libsecret/KWallet on Linux) in `desktop-key.json` in the data folder (mode 0600), next to the
 * key's id, which is not a secret. At launch the stored key is reused if it still authenticates as that
 * supplier key; otherwise (never stored, revoked, keychain reset, file copied from another account) a new
 * key is minted and the old one revoked by its id.
 *
 * Without usable safeStorage (no keychain, or Linux's `basic_text` backend, whose "encryption" uses a
 * password hard-coded in Chromium) the key is never written to disk: each launch mints a key that lives
 * in memory for that launch, and the next launch revokes it. There is still only one live desktop key.
 *
 * Keys to revoke are written down before they are revoked (`retiring`), so a crash between minting and
 * revoking leaves no forgotten key behind: the next launch finishes the job.
 */
export const DESKTOP_KEY_FILE = 'desktop-key.json';
export const DESKTOP_KEY_NAME = 'Desktop app';
/** Earlier versions minted one of these at every launch and never revoked them. */
const LEGACY_SESSION_KEY = /^Desktop session \d{4}-\d\d-\d\dT[\d:.]+Z$/;

/** Electron's safeStorage, reduced to what we need (see `safeStorageSecrets`), so tests use a fake. */
export interface SecretBox {
  isAvailable(): Promise<boolean>;
  encrypt(plaintext: string): Promise<Buffer>;
  /** `stale`: the OS rotated its key; the caller should store a fresh encryption. */
  decrypt(encrypted: Buffer): Promise<{ plaintext: string; stale: boolean }>;
}

/** The engine's apiKeys service, the part used here. */
export interface DesktopKeyStore {
  create(input: { role: 'supplier'; name: string }): Promise<{ id: number; key: string }>;
  verify(key: string): Promise<{ keyId: number | null; role: string } | null>;
  revoke(idOrPrefix: string): Promise<unknown>;
  list(): Promise<{ id: number; name: string; revoked: boolean }[]>;
}

export interface StoredDesktopKey {
  version: 1;
  keyId: number;
  /** base64 of safeStorage's ciphertext; null when safeStorage was unavailable (the key lived in memory only). */
  encryptedKey: string | null;
  /** Key ids that must be revoked (written before revoking, cleared after). */
  retiring: number[];
}

export type DesktopKeyOutcome = 'reused' | 'minted' | 'memory-only';

export interface DesktopKey {
  key: string;
  keyId: number;
  outcome: DesktopKeyOutcome;
}

export function readStoredDesktopKey(file: string): StoredDesktopKey | null {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  const stored = data as Partial<StoredDesktopKey> | null;
  if (!stored || stored.version !== 1 || !Number.isSafeInteger(stored.keyId)) return null;
  return {
    version: 1,
    keyId: stored.keyId!,
    encryptedKey: typeof stored.encryptedKey === 'string' ? stored.encryptedKey : null,
    retiring: Array.isArray(stored.retiring) ? stored.retiring.filter((id) => Number.isSafeInteger(id)) : [],
  };
}

export function writeStoredDesktopKey(file: string, stored: StoredDesktopKey): void {
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(stored)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600); // the mode above is ignored when the file already existed
  renameSync(temporary, file);
}

async function tryDecrypt(secrets: SecretBox, stored: StoredDesktopKey | null) {
  if (!stored?.encryptedKey) return null;
  try {
    return await secrets.decrypt(Buffer.from(stored.encryptedKey, 'base64'));
  } catch {
    return null; // keychain reset, or the file came from another user or machine
  }
}

async function tryEncrypt(secrets: SecretBox, available: boolean, key: string): Promise<string | null> {
  if (!available) return null;
  try {
    return (await secrets.encrypt(key)).toString('base64');
  } catch {
    return null; // e.g. the user denied keychain access on macOS
  }
}

async function revokeQuietly(keys: DesktopKeyStore, id: number): Promise<void> {
  // Already revoked (by hand, or by an earlier launch that crashed after revoking) is fine.
  await keys.revoke(String(id)).catch(() => {});
}

export async function obtainDesktopKey(options: { file: string; secrets: SecretBox; keys: DesktopKeyStore; say?: (line: string) => void }): Promise<DesktopKey> {
  const { file, secrets, keys } = options;
  const say = options.say ?? (() => {});
  const stored = readStoredDesktopKey(file);
  const available = await secrets.isAvailable().catch(() => false);

  let result: DesktopKey | null = null;
  const decrypted = available ? await tryDecrypt(secrets, stored) : null;
  if (stored && decrypted) {
    const actor = await keys.verify(decrypted.plaintext);
    if (actor && actor.keyId === stored.keyId && actor.role === 'supplier') {
      result = { key: decrypted.plaintext, keyId: stored.keyId, outcome: 'reused' };
      const fresher = decrypted.stale ? await tryEncrypt(secrets, available, decrypted.plaintext) : null;
      if (fresher) writeStoredDesktopKey(file, { ...stored, encryptedKey: fresher });
    }
  }

  const retiring = new Set(stored?.retiring ?? []);
  if (!result) {
    const minted = await keys.create({ role: 'supplier', name: DESKTOP_KEY_NAME });
    if (stored) retiring.add(stored.keyId);
    const encryptedKey = await tryEncrypt(secrets, available, minted.key);
    writeStoredDesktopKey(file, { version: 1, keyId: minted.id, encryptedKey, retiring: [...retiring] });
    result = { key: minted.key, keyId: minted.id, outcome: encryptedKey ? 'minted' : 'memory-only' };
    if (!encryptedKey) say('The system keychain is not available: the desktop key is kept in memory for this launch only, and replaced (the old one revoked) at the next launch.');
  }

  for (const key of await keys.list()) {
    if (!key.revoked && key.id !== result.keyId && LEGACY_SESSION_KEY.test(key.name)) retiring.add(key.id);
  }
  if (retiring.size > 0) {
    for (const id of retiring) if (id !== result.keyId) await revokeQuietly(keys, id);
    const current = readStoredDesktopKey(file);
    if (current) writeStoredDesktopKey(file, { ...current, retiring: [] });
  }
  return result;
}

/**
 * Electron's safeStorage as a SecretBox. On Linux, the `basic_text` backend counts as unavailable:
 * Chromium encrypts with a fixed, public password there, which would be plaintext with extra steps.
 */
export function safeStorageSecrets(
  safeStorage: Pick<SafeStorage, 'isAsyncEncryptionAvailable' | 'encryptStringAsync' | 'decryptStringAsync' | 'getSelectedStorageBackend'>,
  platform: NodeJS.Platform,
): SecretBox {
  return {
    async isAvailable() {
      if (!(await safeStorage.isAsyncEncryptionAvailable())) return false;
      return platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text';
    },
    encrypt: (plaintext) => safeStorage.encryptStringAsync(plaintext),
    async decrypt(encrypted) {
      const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(encrypted);
      return { plaintext: result, stale: shouldReEncrypt };
    },
  };
}
