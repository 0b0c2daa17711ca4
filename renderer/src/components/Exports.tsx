import { useState } from 'react';
import { apiBlobUrl, messageOf } from '../api/client';
import { useConnection } from '../store/connection';
import { ErrorText } from './Status';

/** The CSV and printable manifests need the key, so they are fetched here and handed over as blob URLs. */
export function Exports({ sessionId, name }: { sessionId: number; name: string }) {
  const config = useConnection((s) => s.config)!;
  const [links, setLinks] = useState<{ csv?: string; html?: string }>({});
  const [error, setError] = useState<string | null>(null);

  async function get(kind: 'csv' | 'html') {
    setError(null);
    try {
      const url = await apiBlobUrl(config, `/v1/manifest.${kind}?sessionId=${sessionId}`);
      setLinks((l) => ({ ...l, [kind]: url }));
      const a = document.createElement('a');
      a.href = url;
      if (kind === 'csv') a.download = `${name}.csv`;
      else a.target = '_blank';
      a.click();
    } catch (e) {
      setError(messageOf(e));
    }
  }

  return (
    <div className="row exports">
      <button type="button" className="secondary" onClick={() => void get('csv')}>
        Download CSV
      </button>
      <button type="button" className="secondary" onClick={() => void get('html')}>
        Printable manifest
      </button>
      {links.csv && (
        <a href={links.csv} download={`${name}.csv`}>
          Save CSV again
        </a>
      )}
      {links.html && (
        <a href={links.html} target="_blank" rel="noreferrer" download={`${name}.html`}>
          Save printable page
        </a>
      )}
      <ErrorText error={error} />
    </div>
  );
}
