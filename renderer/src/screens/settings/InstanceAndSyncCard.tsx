import { useState } from 'react';
import { plainWords } from '../../api/plainWords';
import { syncNow, unpairPeer } from '../../api/settings';
import { useConnection } from '../../store/connection';
import { followsHub, isOfficeKey, useInstance } from '../../store/instance';
import { Busy, ErrorText } from '../../components/Status';
import { Button, Card, ConfirmDialog, useToasts } from '../../components/ui';
import { PairPeerForm } from './PairPeerForm';
import { ROLE_WORDS } from './roleWords';
import { PeersTable, SeenByTable } from './SyncTables';

/** This instance, its peers and the instances that sync with it; pairing, unpairing and Sync now (office keys). */
export function InstanceAndSyncCard() {
  const { instance, sync } = useInstance();
  const config = useConnection((s) => s.config)!;
  const toast = useToasts((s) => s.show);
  const [syncing, setSyncing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const peers = sync?.peers ?? [];
  const office = isOfficeKey(instance?.key.role);

  async function unpair(url: string) {
    setError(null);
    try {
      await unpairPeer(config, url);
      toast(`${url} removed: no more exchanges with it`);
      await useInstance.getState().refresh();
    } catch (e) {
      setError(plainWords(e));
    } finally {
      setRemoving(null);
    }
  }

  /** Sync now: one exchange with every peer; the bar and the table take the status it answers. */
  async function exchangeNow() {
    setSyncing(true);
    setError(null);
    try {
      const answer = await syncNow(config);
      useInstance.setState({ sync: answer.status });
      const failed = answer.peers.filter((p) => p.error !== null);
      if (failed.length > 0) setError(failed.map((p) => `${p.url}: ${p.error}`).join('; '));
      else toast(`Synced: ${answer.peers.reduce((n, p) => n + p.received, 0)} changes received, ${answer.peers.reduce((n, p) => n + p.sent, 0)} sent`);
    } catch (e) {
      setError(plainWords(e));
    } finally {
      setSyncing(false);
    }
  }
  return (
    <Card title="This instance and sync">
      <dl className="facts">
        <dt>Instance number</dt>
        <dd>{instance?.instanceNo ?? '…'}</dd>
        {sync && (
          <>
            <dt>Identity</dt>
            <dd>
              <code>{sync.instance.origin}</code>
            </dd>
            <dt>Catalogue</dt>
            <dd>{followsHub(sync) ? `Follows the hub ${sync.instance.catalogueOwner}` : 'Kept here'}</dd>
          </>
        )}
        <dt>Signed in as</dt>
        <dd>
          {instance ? `${instance.key.name} (${ROLE_WORDS[instance.key.role] ?? instance.key.role})` : '…'}
        </dd>
      </dl>
      <h3>Peers</h3>
      {peers.length === 0 ? (
        <p>Not paired with another TourDesk yet.</p>
      ) : (
        <PeersTable peers={peers} office={office} onRemove={setRemoving} />
      )}
      {(sync?.seenBy.length ?? 0) > 0 && (
        <>
          <h3>Instances that sync with this one</h3>
          <SeenByTable seenBy={sync!.seenBy} />
        </>
      )}
      {peers.length > 0 && office && (
        <Button variant="secondary" disabled={syncing} onClick={() => void exchangeNow()}>
          {syncing ? 'Syncing…' : 'Sync now'}
        </Button>
      )}
      {syncing && <Busy label="Exchanging with every peer…" />}
      <ErrorText error={error} />
      {office && <PairPeerForm />}
      <p className="muted">This instance syncs with its peers every few seconds by itself. The peer’s key is kept sealed on this computer and never shown again.</p>
      <ConfirmDialog open={removing !== null} title={`Remove ${removing ?? ''}?`} confirmLabel="Remove the peer" onConfirm={() => removing && void unpair(removing)} onClose={() => setRemoving(null)}>
        <p>No more exchanges with it. What was already exchanged stays on both sides; pair again to resume.</p>
      </ConfirmDialog>
    </Card>
  );
}
