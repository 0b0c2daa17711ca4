import { useState } from 'react';
import { plainWords } from '../../api/plainWords';
import { pairPeer } from '../../api/settings';
import { useConnection } from '../../store/connection';
import { useInstance } from '../../store/instance';
import { ErrorText } from '../../components/Status';
import { Button, Field, useToasts } from '../../components/ui';

/** Pairs this instance with a hub or another desk (office keys). */
export function PairPeerForm() {
  const config = useConnection((s) => s.config)!;
  const toast = useToasts((s) => s.show);
  const [pairUrl, setPairUrl] = useState('');
  const [pairKey, setPairKey] = useState('');
  const [pairing, setPairing] = useState(false);
  const [pairError, setPairError] = useState<string | null>(null);
  /** Pairs with a peer (POST /v1/sync/peers); the key is sent once and never shown again. */
  async function pair() {
    setPairing(true);
    setPairError(null);
    try {
      const peer = await pairPeer(config, pairUrl, pairKey);
      setPairUrl('');
      setPairKey('');
      toast(`Paired with ${peer.url} (instance ${peer.instanceNo})${peer.hub ? ': its catalogue arrives with the first sync' : ''}`);
      await useInstance.getState().refresh();
    } catch (e) {
      setPairError(plainWords(e));
    } finally {
      setPairing(false);
    }
  }
  return (
      <form
        aria-label="Pair with a peer"
        onSubmit={(e) => {
          e.preventDefault();
          void pair();
        }}
      >
        <h3>Pair with a hub or another desk</h3>
        <div className="grid">
          <Field label="Peer address" value={pairUrl} onChange={(e) => setPairUrl(e.target.value)} placeholder="http://192.168.1.20:8080" required hint="The hub’s address as its desks reach it." />
          <Field label="Peer key" type="password" autoComplete="off" value={pairKey} onChange={(e) => setPairKey(e.target.value)} required hint="A sync (or office) key made on the peer: tourdesk keys create --role sync." />
        </div>
        <Button type="submit" disabled={pairing}>
          {pairing ? 'Pairing…' : 'Pair'}
        </Button>
        <ErrorText error={pairError} />
      </form>
  );
}
