import { useCallback, useEffect, useState } from 'react';
import type { BackupsAnswer } from '../../../../main/contract/settings';
import { plainWords } from '../../api/plainWords';
import { loadBackups } from '../../api/settings';
import { useConnection } from '../../store/connection';
import { Busy, ErrorText } from '../../components/Status';
import { Card, when } from '../../components/ui';
import { BackupFiles } from './BackupFiles';

/** Where the data folder is, backing it up now, the backups kept (to download), and how to restore one. */
export function BackupsCard({ dataFolder }: { dataFolder: string | null | undefined }) {
  const config = useConnection((s) => s.config)!;
  const [backups, setBackups] = useState<BackupsAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(
    () =>
      loadBackups(config)
        .then(setBackups)
        .catch((e) => setError(plainWords(e))),
    [config],
  );
  useEffect(() => void load(), [load]);
  const sqlite = backups !== null && !backups.backupAdvice;
  return (
    <Card title="Backups and data folder">
      <dl className="facts">
        <dt>Data folder</dt>
        <dd>{dataFolder ? <code>{dataFolder}</code> : 'In memory (nothing kept on disk)'}</dd>
        {sqlite && (
          <>
            <dt>Last backup</dt>
            <dd>{backups.lastBackup ? `${when(backups.lastBackup.time)} (${backups.lastBackup.automatic ? 'automatic' : 'by hand'})` : 'None yet'}</dd>
            <dt>Daily backups kept</dt>
            <dd>{`${backups.automaticBackups.length}, for ${backups.keepDays} days${backups.backupFolder ? `, in ${backups.backupFolder}` : ''}`}</dd>
          </>
        )}
      </dl>
      {!backups && !error && <Busy label="Loading backups…" />}
      {backups && <BackupFiles backups={backups} onChanged={() => void load()} />}
      {sqlite && (
        <>
          <h3>To restore a backup</h3>
          <ol>
            <li>Close the TourDesk app and stop <code>tourdesk serve</code> on this computer.</li>
            <li>
              Run <code>npx tourdesk restore BACKUP-FILE --data-dir {dataFolder ?? 'DATA-FOLDER'}</code>.
            </li>
            <li>Start TourDesk again. A restored desk that syncs should be started from a fresh folder and paired again (see docs/sync.md).</li>
          </ol>
        </>
      )}
      <ErrorText error={error} />
    </Card>
  );
}
