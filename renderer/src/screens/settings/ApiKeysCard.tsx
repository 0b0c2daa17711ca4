import { useCallback, useEffect, useState } from 'react';
import type { ApiKeyAnswer, ApiKeyCreated } from '../../../../main/contract/apiKeys';
import { plainWords } from '../../api/plainWords';
import { createKey, listKeys, revokeKey } from '../../api/settings';
import { useConnection } from '../../store/connection';
import { ErrorText } from '../../components/Status';
import { Button, Card, ConfirmDialog, CopyButton, Field, SelectField, useToasts } from '../../components/ui';
import { KeysTable } from './KeysTable';
import { ROLE_WORDS } from './roleWords';

/** The API keys: each listed by its hash's prefix, made (shown once) and revoked here. */
export function ApiKeysCard({ ownKeyId }: { ownKeyId: number | null }) {
  const config = useConnection((s) => s.config)!;
  const toast = useToasts((s) => s.show);
  const [keys, setKeys] = useState<ApiKeyAnswer[] | null>(null);
  const [name, setName] = useState('');
  const [role, setRole] = useState<ApiKeyAnswer['role']>('checkin');
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyAnswer | null>(null);
  const [showRevoked, setShowRevoked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => {
    listKeys(config)
      .then(setKeys)
      .catch((e) => setError(plainWords(e)));
  }, [config]);
  useEffect(load, [load]);

  async function create() {
    setBusy(true);
    setError(null);
    try {
      const answer = await createKey(config, name, role);
      setCreated({ apiKey: answer.apiKey, key: answer.key });
      setName('');
      load();
    } catch (e) {
      setError(plainWords(e));
    } finally {
      setBusy(false);
    }
  }
  async function revoke(key: ApiKeyAnswer) {
    setBusy(true);
    setError(null);
    try {
      await revokeKey(config, key.id);
      toast(`Key “${key.name}” revoked: it stops working at once`);
      load();
    } catch (e) {
      setError(plainWords(e));
    } finally {
      setBusy(false);
      setRevoking(null);
    }
  }
  const shown = (keys ?? []).filter((k) => showRevoked || !k.revoked);
  const revokedCount = (keys ?? []).filter((k) => k.revoked).length;
  return (
    <Card title="API keys" id="keys">
      <p className="muted">Each device, phone and agent gets its own key, so one can be revoked without the others.</p>
      {keys && <KeysTable keys={shown} ownKeyId={ownKeyId} onRevoke={setRevoking} />}
      {revokedCount > 0 && (
        <label className="check">
          <input type="checkbox" checked={showRevoked} onChange={(e) => setShowRevoked(e.target.checked)} /> Show {revokedCount} revoked
        </label>
      )}
      <form
        className="row end"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <Field label="New key’s name" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Pier tablet" maxLength={100} />
        <SelectField label="Role" value={role} onChange={(e) => setRole(e.target.value as ApiKeyAnswer['role'])}>
          {Object.entries(ROLE_WORDS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <Button type="submit" disabled={busy || !name.trim()}>
          Create key
        </Button>
      </form>
      {created && (
        <div className="once" role="alert">
          <p>
            <strong>Key “{created.apiKey.name}” made. Copy it now: it is shown only this once.</strong>
          </p>
          <div className="row">
            <code className="secret" aria-label="The new key">
              {created.key}
            </code>
            <CopyButton text={created.key} label="Copy key" />
            <Button variant="secondary" onClick={() => setCreated(null)}>
              Done
            </Button>
          </div>
        </div>
      )}
      <ErrorText error={error} />
      <ConfirmDialog open={revoking !== null} title={`Revoke “${revoking?.name ?? ''}”?`} confirmLabel="Revoke the key" onConfirm={() => revoking && void revoke(revoking)} onClose={() => setRevoking(null)} busy={busy}>
        <p>Whatever uses this key (a phone, an agent’s system) is signed out at once and cannot sign in with it again.</p>
      </ConfirmDialog>
    </Card>
  );
}
