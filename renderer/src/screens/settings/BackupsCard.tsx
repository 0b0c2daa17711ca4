import { useEffect, useState } from 'react';
import type { BackupsAnswer } from '../../../../main/contract/settings';
import { plainWords } from '../../api/plainWords';
import { loadBackups } from '../../api/settings';
import { useConnection } from '../../store/connection';
import { ErrorText } from '../../components/Status';
import { Card, when } from '../../components/ui';

/** Where the data folder is, the backups kept, and how to restore one. */
export function BackupsCard({ dataFolder }: { dataFolder: string | null | undefined }) {
  const config = useConnection((s) => s.config)!;
  const [backups, setBackups] = useState<BackupsAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    loadBackups(config)
      .then(setBackups)
      .catch((e) => setError(plainWords(e)));
  }, [config]);
  return (
    <Card title="Backups and data folder">
      <dl className="facts">
        <dt>Data folder</dt>
        <dd>{dataFolder ? <code>{dataFolder}</code> : 'In memory (nothing kept on disk)'}</dd>
        <dt>Last backup</dt>
        <dd>{backups ? (backups.lastBackup ? `${when(backups.lastBackup.time)} (${backups.lastBackup.automatic ? 'automatic' : 'by hand'}) · ${backups.lastBackup.file}` : 'None yet') : '…'}</dd>
        <dt>Daily backups kept</dt>
        <dd>{backups ? `${backups.automaticBackups.length}, for ${backups.keepDays} days${backups.backupFolder ? `, in ${backups.backupFolder}` : ''}` : '…'}</dd>
      </dl>
      <h3>To restore a backup</h3>
      <ol>
        <li>Close the TourDesk app and stop <code>tourdesk serve</code> on this computer.</li>
        <li>
          Run <code>npx tourdesk restore BACKUP-FILE --data-dir {dataFolder ?? 'DATA-FOLDER'}</code>.
        </li>
        <li>Start TourDesk again. A restored desk that syncs should be started from a fresh folder and paired again (see docs/sync.md).</li>
      </ol>
      <p className="muted">
        Make one now with <code>npx tourdesk backup FILE</code> (safe while TourDesk runs).
      </p>
      <ErrorText error={error} />
    </Card>
  );
}
