import type { PeerStatus, SeenInstance } from '../../../../main/contract/sync';
import { Button, when } from '../../components/ui';
import { clockWords, quietFor } from '../../components/syncWords';

/** The peers this instance exchanges with; office keys may remove one (`onRemove` asks first). */
export function PeersTable({ peers, office, onRemove }: { peers: readonly PeerStatus[]; office: boolean; onRemove(url: string): void }) {
  return (
      <div className="table-wrap">
        <table aria-label="Peers">
          <thead>
            <tr>
              <th scope="col">Peer</th>
              <th scope="col">Last sync</th>
              <th scope="col">Waiting</th>
              <th scope="col">Clock here</th>
              <th scope="col">Problem</th>
              {office && (
                <th scope="col">
                  <span className="mf-visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {peers.map((p) => (
              <tr key={p.url}>
                <td>
                  {p.url}
                  {p.instanceNo ? <small className="muted"> · instance {p.instanceNo}</small> : null}
                </td>
                <td>{when(p.lastSuccessAt)}</td>
                <td>
                  {p.opsToSend ?? 0} to send · {p.opsToReceive ?? 0} to receive
                </td>
                <td>{clockWords(p.clockSkewMs)}</td>
                <td>{p.lastError ?? '—'}</td>
                {office && (
                  <td>
                    <Button variant="secondary" onClick={() => onRemove(p.url)} aria-label={`Remove ${p.url}`}>
                      Remove
                    </Button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
  );
}

/** The instances that exchanged with this one (a hub's desks), each with how long it has been quiet. */
export function SeenByTable({ seenBy }: { seenBy: readonly SeenInstance[] }) {
  return (
      <div className="table-wrap">
        <table aria-label="Instances that sync with this one">
          <thead>
            <tr>
              <th scope="col">Instance</th>
              <th scope="col">Identity</th>
              <th scope="col">Last exchange</th>
            </tr>
          </thead>
          <tbody>
            {seenBy.map((s) => {
              const quiet = quietFor(s.lastSeenAt, Date.now());
              return (
                <tr key={s.origin}>
                  <td>{s.instanceNo}</td>
                  <td>
                    <code>{s.origin}</code>
                  </td>
                  <td>
                    {when(s.lastSeenAt)}
                    {quiet && <span className="pill warn"> not seen for {quiet}</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
  );
}
