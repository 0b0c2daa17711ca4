import type { ApiKeyAnswer } from '../../../../main/contract/apiKeys';
import { Button, when } from '../../components/ui';
import { ROLE_WORDS } from './roleWords';

/** The keys shown, each by its hash's prefix; the key this device uses cannot be revoked from here. */
export function KeysTable({ keys, ownKeyId, onRevoke }: { keys: readonly ApiKeyAnswer[]; ownKeyId: number | null; onRevoke(key: ApiKeyAnswer): void }) {
  return (
      <div className="table-wrap">
        <table className="keys" aria-label="API keys">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col" title="The start of the key's SHA-256 hash: keys are never stored, so none can be shown">Fingerprint</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="sr-only">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id} className={k.revoked ? 'revoked' : ''}>
                <td>
                  {k.name}
                  {k.resellerName && k.resellerName !== k.name ? <small className="muted"> · {k.resellerName}</small> : null}
                </td>
                <td>{ROLE_WORDS[k.role] ?? k.role}</td>
                <td>
                  {/* Keys are listed by a prefix of their hash (never of the key): 8 hex digits tell them apart. */}
                  <code title="the start of the key's SHA-256 hash">{k.prefix.replace(/^sha256:/, '#')}</code>
                </td>
                <td>{when(k.lastUsedAt)}</td>
                <td>
                  {k.revoked ? (
                    <span className="badge bad">✕ Revoked</span>
                  ) : k.id === ownKeyId ? (
                    <span className="badge ok">This device</span>
                  ) : (
                    <Button variant="danger" onClick={() => onRevoke(k)} aria-label={`Revoke ${k.name}`}>
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
  );
}
