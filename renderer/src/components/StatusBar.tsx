import { useEffect } from 'react';
import { lastSync, startInstanceChecks, useInstance } from '../store/instance';
import { useConnection } from '../store/connection';
import { useQueue } from '../store/queue';
import { when } from './ui';

/**
 * The line at the foot of every screen: which instance this is, whether the engine answers, what
 * waits to be sent (desk check-ins and scanner scans), the sync changes waiting and the last sync,
 * or, when a peer's last exchange failed, since when this instance has not synced.
 */
export function StatusBar() {
  const config = useConnection((s) => s.config);
  const { instance, sync, online, lastHeard, scannerWaiting } = useInstance();
  const deskWaiting = useQueue((s) => s.queue.length);
  useEffect(() => {
    startInstanceChecks();
  }, []);
  useEffect(() => {
    if (config) void useInstance.getState().refresh();
  }, [config]);
  const waiting = deskWaiting + scannerWaiting;
  const peers = sync?.peers ?? [];
  const changesWaiting = peers.reduce((n, p) => n + (p.opsToSend ?? 0), 0);
  const synced = lastSync(sync);
  // A peer whose last exchange failed: the bar says so in words, with each peer's reason on hover.
  const failing = peers.filter((p) => p.lastError);
  // Since when: the oldest last success among them (none if one of them never synced).
  const failingSince = failing.some((p) => !p.lastSuccessAt) ? null : (failing.map((p) => p.lastSuccessAt!).sort()[0] ?? null);
  const changes = `${changesWaiting} change${changesWaiting === 1 ? '' : 's'}`;
  return (
    <footer className="status-bar" aria-label="Status">
      <span>{instance ? `Instance ${instance.instanceNo}` : 'Instance …'}</span>
      <span className={`pill ${online ? 'ok' : 'warn'}`} role="status">
        <span aria-hidden="true">{online ? '●' : '◌'}</span> {online ? 'Online' : `Offline${lastHeard ? ` since ${when(lastHeard)}` : ''}`}
      </span>
      <span className={waiting ? 'pill warn' : ''} aria-label="Events waiting to send">
        {waiting === 0 ? 'Nothing waiting' : `${waiting} check-in${waiting === 1 ? '' : 's'} waiting to send`}
      </span>
      {sync && (
        <span aria-label="Sync" className={failing.length > 0 ? 'pill warn' : ''} title={failing.map((p) => `${p.url}: ${p.lastError}`).join('\n') || undefined}>
          {sync.exchanging && (sync.exchanging.snapshotRows > 0 || sync.exchanging.received > 0 || (sync.exchanging.remaining ?? 0) > 0)
            ? `Syncing with ${sync.exchanging.url}: ${[
                sync.exchanging.snapshotRows > 0 ? `${sync.exchanging.snapshotRows.toLocaleString()} rows taken` : '',
                `${sync.exchanging.received.toLocaleString()} changes received`,
                sync.exchanging.remaining ? `${sync.exchanging.remaining.toLocaleString()} to go` : '',
              ]
                .filter(Boolean)
                .join(', ')}`
            : peers.length === 0
            ? sync.seenBy.length > 0
              ? `${sync.seenBy.length} ${sync.seenBy.length === 1 ? 'instance syncs' : 'instances sync'} here · last ${when(sync.seenBy[0].lastSeenAt)}`
              : 'Not paired for sync'
            : failing.length > 0
              ? `Not synced${failing.length < peers.length ? ` with ${failing.length} of ${peers.length} peers` : ''} since ${failingSince ? when(failingSince) : 'pairing'} · last try failed · ${changes} waiting`
              : `${changes} to sync · last sync ${synced ? when(synced) : 'never'}`}
        </span>
      )}
      <span className="push muted">
        Press <kbd>?</kbd> for shortcuts
      </span>
    </footer>
  );
}
