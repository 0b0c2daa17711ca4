import { useEffect } from 'react';
import { lastSync, startInstanceChecks, useInstance } from '../store/instance';
import { useConnection } from '../store/connection';
import { useQueue } from '../store/queue';
import { when } from './ui';

/**
 * The line at the foot of every screen: which instance this is, whether the engine answers, what
 * waits to be sent (desk check-ins and scanner scans), the sync changes waiting and the last sync.
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
        <span aria-label="Sync">
          {peers.length === 0 ? 'Not paired for sync' : `${changesWaiting} change${changesWaiting === 1 ? '' : 's'} to sync · last sync ${synced ? when(synced) : 'never'}`}
        </span>
      )}
      <span className="push muted">
        Press <kbd>?</kbd> for shortcuts
      </span>
    </footer>
  );
}
