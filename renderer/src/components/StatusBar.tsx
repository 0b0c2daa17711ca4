import { useEffect } from 'react';
import { lastSync, startInstanceChecks, useInstance } from '../store/instance';
import { useConnection } from '../store/connection';
import { useOutbox } from '../store/outbox';
import { when } from './ui';
import { formats } from '../lib/formats';
import { clockWarning, quietFor } from './syncWords';
import type { SyncStatus } from '../../../main/contract/sync';

/**
 * The line at the foot of every screen: which instance this is, whether the engine answers, what
 * waits to be sent (this device's outbox), the sync changes waiting and the last sync,
 * or, when a peer's last exchange failed, since when this instance has not synced.
 */
export function StatusBar() {
  const config = useConnection((s) => s.config);
  const { instance, sync, online, lastHeard } = useInstance();
  const waiting = useOutbox((s) => s.items.length);
  const payments = useOutbox((s) => s.items.filter((q) => q.kind === 'payment').length);
  useEffect(() => {
    startInstanceChecks();
  }, []);
  useEffect(() => {
    if (config) void useInstance.getState().refresh();
  }, [config]);
  // A peer whose last exchange failed: the bar says so in words, with each peer's reason on hover.
  const failing = (sync?.peers ?? []).filter((p) => p.lastError);
  const clock = clockWarning(sync?.peers ?? []);
  // A hub (no peers of its own): the instances that sync here but have gone quiet.
  const now = Date.now();
  const quiet = (sync && sync.peers.length === 0 ? sync.seenBy : []).flatMap((s) => {
    const quietSince = quietFor(s.lastSeenAt, now);
    return quietSince === null ? [] : [`Instance ${s.instanceNo}: not seen for ${quietSince} (last exchange ${when(s.lastSeenAt)})`];
  });
  const warn = failing.length > 0 || quiet.length > 0;
  const hover = [...failing.map((p) => `${p.url}: ${p.lastError}`), ...quiet].join('\n');
  return (
    <footer className="status-bar" aria-label="Status">
      <span>{instance ? `Instance ${instance.instanceNo}` : 'Instance …'}</span>
      <span className={`pill ${online ? 'ok' : 'warn'}`} role="status">
        <span aria-hidden="true">{online ? '●' : '◌'}</span> {online ? 'Online' : `Offline${lastHeard ? ` since ${when(lastHeard)}` : ''}`}
      </span>
      <span className={waiting ? 'pill warn' : ''} aria-label="Events waiting to send">
        {waiting === 0 ? 'Nothing waiting' : `${waitingWords(waiting - payments, payments)} waiting to send`}
      </span>
      {sync && (
        <span aria-label="Sync" className={warn ? 'pill warn' : ''} title={hover || undefined}>
          {syncWords(sync, failing, quiet.length)}
        </span>
      )}
      {clock && (
        <span aria-label="Clock" className="pill warn" title={clock.title}>
          {clock.text}
        </span>
      )}
      <span className="push muted">
        Press <kbd>?</kbd> for shortcuts
      </span>
    </footer>
  );
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The bar's sync part in words, the first that applies: an exchange under way and how far it has
 * come; a hub's desks (no peers of its own); since when it has not synced with the peers that fail;
 * else what waits and the last sync.
 */
function syncWords(sync: SyncStatus, failing: SyncStatus['peers'], quiet: number): string {
  const { exchanging: running, peers } = sync;
  if (running && (running.snapshotRows > 0 || running.received > 0 || (running.remaining ?? 0) > 0)) {
    const { count: n } = formats();
    const parts = [running.snapshotRows > 0 ? `${n(running.snapshotRows)} rows taken` : '', `${n(running.received)} changes received`, running.remaining ? `${n(running.remaining)} to go` : ''];
    return `Syncing with ${running.url}: ${parts.filter(Boolean).join(', ')}`;
  }
  if (peers.length === 0) {
    if (sync.seenBy.length === 0) return 'Not paired for sync';
    return `${count(sync.seenBy.length, 'instance syncs', 'instances sync')} here · last ${when(sync.seenBy[0].lastSeenAt)}${quiet > 0 ? ` · ${quiet} not seen for a while` : ''}`;
  }
  const changes = count(peers.reduce((n, p) => n + (p.opsToSend ?? 0), 0), 'change', 'changes');
  if (failing.length > 0) {
    // Since when: the oldest last success among them (none if one of them never synced).
    const since = failing.some((p) => !p.lastSuccessAt) ? null : failing.map((p) => p.lastSuccessAt!).sort()[0];
    return `Not synced${failing.length < peers.length ? ` with ${failing.length} of ${peers.length} peers` : ''} since ${since ? when(since) : 'pairing'} · last try failed · ${changes} waiting`;
  }
  const synced = lastSync(sync);
  return `${changes} to sync · last sync ${synced ? when(synced) : 'never'}`;
}

/** "2 check-ins and 1 payment": what this device's outbox holds, by kind. */
const waitingWords = (checkins: number, payments: number) =>
  [checkins && `${checkins} check-in${checkins === 1 ? '' : 's'}`, payments && `${payments} payment${payments === 1 ? '' : 's'}`].filter(Boolean).join(' and ');
