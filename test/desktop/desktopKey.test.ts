import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bootEngine } from '../../main/boot';
import { DESKTOP_KEY_FILE, DESKTOP_KEY_NAME, obtainDesktopKey, readStoredDesktopKey, safeStorageSecrets, type SecretBox } from '../../main/electron/desktopKey';

/** A stand-in for the OS keychain: reversible, but the ciphertext never contains the key. */
function fakeKeychain(options: { available?: boolean; secret?: number } = {}) {
  const secret = options.secret ?? 0x5a;
  const flip = (bytes: Buffer) => Buffer.from(bytes.map((b) => b ^ secret));
  const box: SecretBox & { available: boolean; stale: boolean } = {
    available: options.available ?? true,
    stale: false,
    isAvailable: async () => box.available,
    encrypt: async (plaintext) => Buffer.concat([Buffer.from('ENC'), flip(Buffer.from(plaintext))]),
    decrypt: async (encrypted) => {
      if (encrypted.subarray(0, 3).toString() !== 'ENC') throw new Error('not ours');
      return { plaintext: flip(encrypted.subarray(3)).toString(), stale: box.stale };
    },
  };
  return box;
}

let dir: string;
const keyFile = () => join(dir, DESKTOP_KEY_FILE);

/** One desktop launch: open the data folder, obtain the key, close — as main/index.ts does. */
async function launch(secrets: SecretBox, say?: (line: string) => void) {
  const { engine } = await bootEngine({ dataDir: dir });
  try {
    const desktop = await obtainDesktopKey({ file: keyFile(), secrets, keys: engine.apiKeys, say });
    const keys = await engine.apiKeys.list();
    const actor = await engine.apiKeys.verify(desktop.key);
    return { desktop, activeDesktopKeys: keys.filter((k) => !k.revoked && k.name === DESKTOP_KEY_NAME), keys, actor };
  } finally {
    await engine.close();
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tourdesk-desktop-key-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the desktop key', () => {
  it('is minted once and reused at every later launch, stored encrypted in a 0600 file', async () => {
    const keychain = fakeKeychain();
    const first = await launch(keychain);
    expect(first.desktop.outcome).toBe('minted');
    expect(first.actor).toMatchObject({ role: 'supplier', keyId: first.desktop.keyId });

    const second = await launch(keychain);
    const third = await launch(keychain);
    expect(second.desktop).toEqual({ key: first.desktop.key, keyId: first.desktop.keyId, outcome: 'reused' });
    expect(third.desktop.key).toBe(first.desktop.key);
    expect(third.activeDesktopKeys.map((k) => k.id)).toEqual([first.desktop.keyId]);

    const text = readFileSync(keyFile(), 'utf8');
    expect(text).not.toContain(first.desktop.key);
    expect(readStoredDesktopKey(keyFile())).toMatchObject({ keyId: first.desktop.keyId, retiring: [] });
    if (process.platform !== 'win32') expect(statSync(keyFile()).mode & 0o777).toBe(0o600);
  });

  it('mints a new key and revokes the old one when the stored key no longer authenticates', async () => {
    const keychain = fakeKeychain();
    const first = await launch(keychain);
    const { engine } = await bootEngine({ dataDir: dir });
    await engine.apiKeys.revoke(String(first.desktop.keyId)); // revoked by hand in Settings or the CLI
    await engine.close();

    const second = await launch(keychain);
    expect(second.desktop.outcome).toBe('minted');
    expect(second.desktop.key).not.toBe(first.desktop.key);
    expect(second.activeDesktopKeys.map((k) => k.id)).toEqual([second.desktop.keyId]);
  });

  it('replaces and revokes the key when the keychain cannot decrypt it any more (keychain reset, folder copied)', async () => {
    const first = await launch(fakeKeychain({ secret: 0x11 }));
    const stored = readStoredDesktopKey(keyFile())!;
    writeFileSync(keyFile(), JSON.stringify({ ...stored, encryptedKey: Buffer.from('garbage').toString('base64') }));

    const second = await launch(fakeKeychain({ secret: 0x11 }));
    expect(second.desktop.outcome).toBe('minted');
    expect(second.keys.find((k) => k.id === first.desktop.keyId)?.revoked).toBe(true);
    expect(second.activeDesktopKeys).toHaveLength(1);
  });

  it('without a keychain keeps the key in memory only: never on disk, replaced and revoked at the next launch', async () => {
    const noKeychain = fakeKeychain({ available: false });
    const said: string[] = [];
    const first = await launch(noKeychain, (line) => said.push(line));
    expect(first.desktop.outcome).toBe('memory-only');
    expect(first.actor?.role).toBe('supplier');
    expect(said.join('\n')).toMatch(/keychain is not available/);
    expect(readFileSync(keyFile(), 'utf8')).not.toContain(first.desktop.key);
    expect(readStoredDesktopKey(keyFile())).toMatchObject({ keyId: first.desktop.keyId, encryptedKey: null });

    const second = await launch(noKeychain);
    expect(second.desktop.outcome).toBe('memory-only');
    expect(second.desktop.key).not.toBe(first.desktop.key);
    expect(second.activeDesktopKeys.map((k) => k.id)).toEqual([second.desktop.keyId]);

    // Once a keychain appears, the key is stored and kept from then on.
    noKeychain.available = true;
    const third = await launch(noKeychain);
    const fourth = await launch(noKeychain);
    expect(third.desktop.outcome).toBe('minted');
    expect(fourth.desktop).toMatchObject({ outcome: 'reused', key: third.desktop.key });
    expect(fourth.activeDesktopKeys.map((k) => k.id)).toEqual([third.desktop.keyId]);
  });

  it('treats an encryption refused by the keychain (access denied) like no keychain', async () => {
    const keychain = fakeKeychain();
    keychain.encrypt = async () => {
      throw new Error('User denied keychain access');
    };
    const first = await launch(keychain);
    expect(first.desktop.outcome).toBe('memory-only');
    expect(first.actor?.role).toBe('supplier');
  });

  it('finishes revoking a key an interrupted launch had marked for retirement', async () => {
    const keychain = fakeKeychain();
    const first = await launch(keychain);
    const { engine } = await bootEngine({ dataDir: dir });
    const orphan = await engine.apiKeys.create({ role: 'supplier', name: DESKTOP_KEY_NAME });
    await engine.close();
    const stored = readStoredDesktopKey(keyFile())!;
    writeFileSync(keyFile(), JSON.stringify({ ...stored, retiring: [orphan.id] }));

    const second = await launch(keychain);
    expect(second.desktop).toMatchObject({ outcome: 'reused', key: first.desktop.key });
    expect(second.keys.find((k) => k.id === orphan.id)?.revoked).toBe(true);
    expect(readStoredDesktopKey(keyFile())?.retiring).toEqual([]);
  });

  it('revokes the per-launch "Desktop session" keys earlier versions left behind, and no other key', async () => {
    const { engine } = await bootEngine({ dataDir: dir });
    const legacy = await engine.apiKeys.create({ role: 'supplier', name: 'Desktop session 2025-03-01T08:00:00.000Z' });
    const kept = await engine.apiKeys.create({ role: 'supplier', name: 'Desktop session notes' });
    await engine.close();

    const after = await launch(fakeKeychain());
    expect(after.keys.find((k) => k.id === legacy.id)?.revoked).toBe(true);
    expect(after.keys.find((k) => k.id === kept.id)?.revoked).toBe(false);
    expect(after.keys.find((k) => k.name === 'First supplier key')?.revoked).toBe(false);
  });

  it('re-encrypts the stored key when the keychain says its encryption is stale', async () => {
    const keychain = fakeKeychain();
    await launch(keychain);
    const before = readFileSync(keyFile(), 'utf8');
    keychain.stale = true;
    keychain.encrypt = async (plaintext) => Buffer.concat([Buffer.from('ENC'), Buffer.from(plaintext).map((b) => b ^ 0x5a), Buffer.from([0])]);
    const again = await launch(keychain);
    expect(again.desktop.outcome).toBe('reused');
    expect(readFileSync(keyFile(), 'utf8')).not.toBe(before);
  });
});

describe('safeStorage as the keychain', () => {
  const fakeSafeStorage = (available: boolean, backend: 'basic_text' | 'gnome_libsecret') => ({
    isAsyncEncryptionAvailable: async () => available,
    getSelectedStorageBackend: () => backend,
    encryptStringAsync: async (text: string) => Buffer.from(`E:${text}`),
    decryptStringAsync: async (data: Buffer) => ({ result: data.toString().slice(2), shouldReEncrypt: false }),
  });

  it("counts Linux's basic_text backend (a fixed password) as no keychain", async () => {
    expect(await safeStorageSecrets(fakeSafeStorage(true, 'basic_text'), 'linux').isAvailable()).toBe(false);
    expect(await safeStorageSecrets(fakeSafeStorage(true, 'gnome_libsecret'), 'linux').isAvailable()).toBe(true);
    expect(await safeStorageSecrets(fakeSafeStorage(false, 'gnome_libsecret'), 'linux').isAvailable()).toBe(false);
    expect(await safeStorageSecrets(fakeSafeStorage(true, 'basic_text'), 'darwin').isAvailable()).toBe(true);
  });

  it('passes encryption through and reports a stale encryption', async () => {
    const box = safeStorageSecrets({ ...fakeSafeStorage(true, 'gnome_libsecret'), decryptStringAsync: async () => ({ result: 'td_x', shouldReEncrypt: true }) }, 'linux');
    expect((await box.encrypt('td_secret')).toString()).toBe('E:td_secret');
    expect(await box.decrypt(Buffer.from('whatever'))).toEqual({ plaintext: 'td_x', stale: true });
  });
});
