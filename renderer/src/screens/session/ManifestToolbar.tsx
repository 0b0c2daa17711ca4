import type { Manifest } from '../../api/types';
import { Exports } from '../../components/Exports';
import { ScanBox } from '../../components/ScanBox';

export type ManifestTool = 'scan' | 'files' | null;

/** The search box, and the scan box or the CSV and print files, one open at a time. */
export function ManifestToolbar({ typed, onType, tools, onTools, session, sessionId }: { typed: string; onType(text: string): void; tools: ManifestTool; onTools(tool: ManifestTool): void; session: Manifest['session']; sessionId: number }) {
  return (
    <>
      <div className="mf-bar">
        <label className="mf-search">
          <span className="mf-visually-hidden">Find a booking</span>
          <input type="search" value={typed} onChange={(e) => onType(e.target.value)} placeholder="Name, order or phone" aria-label="Find a booking" autoComplete="off" data-search />
        </label>
        <button type="button" className={tools === 'scan' ? '' : 'secondary'} aria-expanded={tools === 'scan'} onClick={() => onTools(tools === 'scan' ? null : 'scan')}>
          Scan
        </button>
        <button type="button" className={tools === 'files' ? '' : 'secondary'} aria-expanded={tools === 'files'} onClick={() => onTools(tools === 'files' ? null : 'files')}>
          CSV / Print
        </button>
      </div>
      {tools === 'scan' && (
        <div className="mf-tool">
          <ScanBox sessionId={sessionId} />
        </div>
      )}
      {tools === 'files' && (
        <div className="mf-tool">
          <Exports sessionId={sessionId} name={`manifest-${session.productCode}-${session.startTimeLocal.slice(0, 16).replace(/[: ]/g, '-')}`} />
        </div>
      )}
    </>
  );
}
