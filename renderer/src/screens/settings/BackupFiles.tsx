import { useState } from 'react';
import type { BackupFile, BackupsAnswer } from '../../../../main/contract/settings';
import { apiBlobUrl, type ApiConfig } from '../../api/client';
import { plainWords } from '../../api/plainWords';
import { backUpNow } from '../../api/settings';
import { useConnection } from '../../store/connection';
import { Busy, ErrorText } from '../../components/Status';
import { Button, when } from '../../components/ui';
import { sizeInWords } from '../week/deskWords';

/** Fetches a backup with the key (the link needs it in a header) and hands it to the browser as a download. */
async function download(config: ApiConfig, file: BackupFile): Promise<void> {
  const url = await apiBlobUrl(config, file.downloadPath);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.name;
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has the bytes once the click is handled; the URL is let go a little later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

type Work = { kind: 'backing-up' } | { kind: 'downloading'; name: string } | null;

/**
 * "Back up now", the newest backup to download and every backup kept, with sizes. A server that
 * cannot copy its own data (a hub on PostgreSQL) says how it is backed up instead.
 */
export function BackupFiles({ backups, onChanged }: { backups: BackupsAnswer; onChanged(): void }) {
  const config = useConnection((s) => s.config)!;
  const [work, setWork] = useState<Work>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (backups.backupAdvice) {
    return (
      <p className="note" role="note">
        {backups.backupAdvice}.
      </p>
    );
  }
  const start = (next: Work, job: () => Promise<string | null>) => {
    setWork(next);
    setError(null);
    setDone(null);
    job()
      .then(setDone)
      .catch((e) => setError(plainWords(e)))
      .finally(() => setWork(null));
  };
  const backUp = () =>
    start({ kind: 'backing-up' }, async () => {
      const made = await backUpNow(config);
      onChanged();
      return `Backed up: ${made.name} (${sizeInWords(made.bytes)}, ${made.mediaFiles} media ${made.mediaFiles === 1 ? 'file' : 'files'}).`;
    });
  const fetchFile = (file: BackupFile) => start({ kind: 'downloading', name: file.name }, () => download(config, file).then(() => null));
  const newest = backups.backups[0];
  return (
    <>
      <div className="row">
        <Button onClick={backUp} disabled={work !== null}>
          Back up now
        </Button>
        {newest && (
          <Button variant="secondary" onClick={() => fetchFile(newest)} disabled={work !== null}>
            Download the newest backup ({sizeInWords(newest.bytes)})
          </Button>
        )}
      </div>
      {work?.kind === 'backing-up' && <Busy label="Backing up the database and media… (safe while TourDesk runs)" />}
      {work?.kind === 'downloading' && <Busy label={`Downloading ${work.name}…`} />}
      {done && (
        <p role="status" className="ok">
          ✓ {done}
        </p>
      )}
      <ErrorText error={error} />
      {backups.backups.length === 0 ? (
        <p className="muted">No backups yet.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Backups">
            <thead>
              <tr>
                <th>Backup</th>
                <th>Made</th>
                <th>Size</th>
                <th>
                  <span className="sr-only">Download</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {backups.backups.map((file) => (
                <tr key={file.name}>
                  <td>
                    <code>{file.name}</code>
                  </td>
                  <td>
                    {when(file.time)} · {file.automatic ? 'daily' : 'by hand'}
                  </td>
                  <td>{sizeInWords(file.bytes)}</td>
                  <td>
                    <Button variant="secondary" onClick={() => fetchFile(file)} disabled={work !== null} aria-label={`Download ${file.name}`}>
                      Download
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
