import { useState } from 'react';
import { api, messageOf } from '../api/client';
import { useConnection } from '../store/connection';
import { useNav } from '../store/nav';
import { ErrorText } from '../components/Status';
import { Field } from '../components/ui';
import { usePageTitle } from '../components/usePageTitle';
import type { PairingAnswer as Pairing } from '../../../main/contract/pairing';


/**
 * A guide's phone gets the scanner by scanning this QR code: it opens the scanner on the desk's
 * address, signed in with a new check-in key (revoke it with `tourdesk keys revoke`).
 */
export function PairPhone({ embedded = false }: { embedded?: boolean }) {
  const config = useConnection((s) => s.config)!;
  const go = useNav((s) => s.go);
  // Asked, not guessed: the name is the phone's key and what the desk shows beside each guest it checks in.
  const [name, setName] = useState('');
  const [origin, setOrigin] = useState('');
  const [pairing, setPairing] = useState<Pairing | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Inside Settings, the settings screen names the tab.
  usePageTitle(embedded ? null : 'Pair a phone');

  async function create() {
    setError(null);
    try {
      const answer = await api(config, 'POST /v1/pairing/checkin', { body: { name: name.trim(), origin: origin.trim() || undefined } });
      setPairing(answer.pairing);
    } catch (e) {
      setError(messageOf(e));
    }
  }

  return (
    <section className={embedded ? 'card' : 'card narrow'} aria-labelledby="pair-title">
      {!embedded && (
        <button type="button" className="secondary small" onClick={() => go({ name: 'board' })}>
          ◀ Departures
        </button>
      )}
      <h2 id="pair-title">Pair a guide’s phone</h2>
      <p>The phone must be on this desk’s network. The QR code opens the scanner there, signed in with a new check-in key.</p>
      <Field
        label="Name of the phone"
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="Anna’s phone"
        maxLength={100}
        autoComplete="off"
        hint="Its key’s name, and the name the desk shows beside every guest it checks in (the guide can change it on the phone)."
      />
      <label>
        Address the phone opens (optional)
        <input value={origin} onChange={(e) => setOrigin(e.target.value)} placeholder="https://192.168.1.20:8443" />
      </label>
      <button type="button" onClick={() => void create()} disabled={!name.trim()}>
        Make a pairing QR code
      </button>
      <ErrorText error={error} />
      {pairing && (
        <div className="pairing">
          <img alt={`QR code that signs ${pairing.name} in`} src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(pairing.qrSvg)}`} width={280} height={280} />
          <p>
            Key {pairing.keyId} “{pairing.name}” · opens <code>{pairing.url.split('#')[0]}</code>
          </p>
          {!pairing.secure && (
            <p className="note" role="note">
              ⚠ This address is plain HTTP: a phone will not allow the camera or the offline app there. Start the desk with <code>tourdesk serve --host 0.0.0.0 --tls</code>.
            </p>
          )}
          {pairing.origins.length > 1 && <p>Other addresses of this desk: {pairing.origins.slice(1).join(', ')}</p>}
        </div>
      )}
    </section>
  );
}
