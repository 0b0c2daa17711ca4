import { useCallback, useEffect, useState } from 'react';
import type { ApiKeyAnswer, ApiKeyCreated } from '../../../main/contract/apiKeys';
import type { BackupsAnswer as Backups, CompanyAnswer } from '../../../main/contract/settings';
import { api } from '../api/client';
import { plainWords } from '../api/plainWords';
import { useConnection } from '../store/connection';
import { followsHub, isOfficeKey, useInstance } from '../store/instance';
import { THEMES, usePrefs } from '../store/prefs';
import { Busy, ErrorText } from '../components/Status';
import { Button, Card, ConfirmDialog, CopyButton, Field, SelectField, useToasts, when } from '../components/ui';
import { clockWords, quietFor } from '../components/syncWords';
import { PairPhone } from './PairPhone';

/** The company fields the settings screen edits (PUT /v1/company takes these). */
type Company = Pick<CompanyAnswer, 'companyName' | 'timezone' | 'currency' | 'email' | 'phone' | 'website'>;

const ROLE_WORDS: Record<string, string> = { supplier: 'Office (everything)', agent: 'Agent (their own bookings)', checkin: 'Check-in (scan and tick off)' };

function CompanySettings() {
  const config = useConnection((s) => s.config)!;
  const toast = useToasts((s) => s.show);
  const [form, setForm] = useState<Company | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A desk that follows a hub shows the hub's company and cannot change it (the engine refuses).
  const readOnly = useInstance((s) => followsHub(s.sync));
  useEffect(() => {
    api(config, 'GET /v1/company')
      .then((r) => setForm(r.company))
      .catch((e) => setError(plainWords(e)));
  }, [config]);
  if (!form) return <Card title="Company">{error ? <ErrorText error={error} /> : <p>Loading…</p>}</Card>;
  const set = (field: keyof Company) => (e: { target: { value: string } }) => setForm({ ...form, [field]: e.target.value });
  return (
    <Card title="Company">
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          try {
            const blank = (v: string | null) => (v?.trim() ? v.trim() : null);
            const answer = await api(config, 'PUT /v1/company', { body: { companyName: form.companyName, timezone: form.timezone.trim(), currency: form.currency.trim().toUpperCase(), email: blank(form.email), phone: blank(form.phone), website: blank(form.website) } });
            setForm(answer.company);
            toast('Company saved');
          } catch (err) {
            setError(plainWords(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <fieldset className="plain" disabled={readOnly}>
          <div className="grid">
            <Field label="Company name" value={form.companyName} onChange={set('companyName')} required />
            <Field label="Timezone" value={form.timezone} onChange={set('timezone')} hint="An IANA name, e.g. Europe/Berlin or Australia/Sydney. Departure times are shown in it." />
            <Field label="Currency" value={form.currency} onChange={set('currency')} maxLength={3} hint="Three letters, e.g. EUR, USD, AUD." />
            <Field label="Email" type="email" value={form.email ?? ''} onChange={set('email')} />
            <Field label="Phone" type="tel" value={form.phone ?? ''} onChange={set('phone')} />
            <Field label="Website" type="url" value={form.website ?? ''} onChange={set('website')} />
          </div>
        </fieldset>
        {readOnly ? (
          <p className="muted" role="note">
            This desk follows its hub’s catalogue: the company is changed on the hub and arrives here with the next sync.
          </p>
        ) : (
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Save company'}
          </Button>
        )}
        <ErrorText error={error} />
      </form>
    </Card>
  );
}

function ApiKeys({ ownKeyId }: { ownKeyId: number | null }) {
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
    api(config, 'GET /v1/apiKeys')
      .then((r) => setKeys(r.apiKeys))
      .catch((e) => setError(plainWords(e)));
  }, [config]);
  useEffect(load, [load]);

  async function create() {
    setBusy(true);
    setError(null);
    try {
      const answer = await api(config, 'POST /v1/apiKeys', { body: { name: name.trim(), role } });
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
      await api(config, 'DELETE /v1/apiKeys/:keyId', { params: { keyId: key.id } });
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
      {keys && (
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
              {shown.map((k) => (
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
                      <Button variant="danger" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                        Revoke
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
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

function InstanceAndSync() {
  const { instance, sync } = useInstance();
  const config = useConnection((s) => s.config)!;
  const toast = useToasts((s) => s.show);
  const [syncing, setSyncing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pairUrl, setPairUrl] = useState('');
  const [pairKey, setPairKey] = useState('');
  const [pairing, setPairing] = useState(false);
  const [pairError, setPairError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const peers = sync?.peers ?? [];
  const office = isOfficeKey(instance?.key.role);

  /** Pairs with a peer (POST /v1/sync/peers); the key is sent once and never shown again. */
  async function pair() {
    setPairing(true);
    setPairError(null);
    try {
      const answer = await api(config, 'POST /v1/sync/peers', { body: { url: pairUrl.trim(), key: pairKey.trim() } });
      setPairUrl('');
      setPairKey('');
      toast(`Paired with ${answer.peer.url} (instance ${answer.peer.instanceNo})${answer.peer.hub ? ': its catalogue arrives with the first sync' : ''}`);
      await useInstance.getState().refresh();
    } catch (e) {
      setPairError(plainWords(e));
    } finally {
      setPairing(false);
    }
  }
  async function unpair(url: string) {
    setError(null);
    try {
      await api(config, 'DELETE /v1/sync/peers', { query: { url } });
      toast(`${url} removed: no more exchanges with it`);
      await useInstance.getState().refresh();
    } catch (e) {
      setError(plainWords(e));
    } finally {
      setRemoving(null);
    }
  }

  /** Sync now: one exchange with every peer; the bar and the table take the status it answers. */
  async function syncNow() {
    setSyncing(true);
    setError(null);
    try {
      const answer = await api(config, 'POST /v1/sync/run');
      useInstance.setState({ sync: answer.status });
      const failed = answer.peers.filter((p) => p.error !== null);
      if (failed.length > 0) setError(failed.map((p) => `${p.url}: ${p.error}`).join('; '));
      else toast(`Synced: ${answer.peers.reduce((n, p) => n + p.received, 0)} changes received, ${answer.peers.reduce((n, p) => n + p.sent, 0)} sent`);
    } catch (e) {
      setError(plainWords(e));
    } finally {
      setSyncing(false);
    }
  }
  return (
    <Card title="This instance and sync">
      <dl className="facts">
        <dt>Instance number</dt>
        <dd>{instance?.instanceNo ?? '…'}</dd>
        {sync && (
          <>
            <dt>Identity</dt>
            <dd>
              <code>{sync.instance.origin}</code>
            </dd>
            <dt>Catalogue</dt>
            <dd>{followsHub(sync) ? `Follows the hub ${sync.instance.catalogueOwner}` : 'Kept here'}</dd>
          </>
        )}
        <dt>Signed in as</dt>
        <dd>
          {instance ? `${instance.key.name} (${ROLE_WORDS[instance.key.role] ?? instance.key.role})` : '…'}
        </dd>
      </dl>
      <h3>Peers</h3>
      {peers.length === 0 ? (
        <p>Not paired with another TourDesk yet.</p>
      ) : (
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
                      <Button variant="secondary" onClick={() => setRemoving(p.url)} aria-label={`Remove ${p.url}`}>
                        Remove
                      </Button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(sync?.seenBy.length ?? 0) > 0 && (
        <>
          <h3>Instances that sync with this one</h3>
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
                {sync!.seenBy.map((s) => {
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
        </>
      )}
      {peers.length > 0 && office && (
        <Button variant="secondary" disabled={syncing} onClick={() => void syncNow()}>
          {syncing ? 'Syncing…' : 'Sync now'}
        </Button>
      )}
      {syncing && <Busy label="Exchanging with every peer…" />}
      <ErrorText error={error} />
      {office && (
        <form
          aria-label="Pair with a peer"
          onSubmit={(e) => {
            e.preventDefault();
            void pair();
          }}
        >
          <h3>Pair with a hub or another desk</h3>
          <div className="grid">
            <Field label="Peer address" value={pairUrl} onChange={(e) => setPairUrl(e.target.value)} placeholder="http://192.168.1.20:8080" required hint="The hub’s address as its desks reach it." />
            <Field label="Peer key" type="password" autoComplete="off" value={pairKey} onChange={(e) => setPairKey(e.target.value)} required hint="A sync (or office) key made on the peer: tourdesk keys create --role sync." />
          </div>
          <Button type="submit" disabled={pairing}>
            {pairing ? 'Pairing…' : 'Pair'}
          </Button>
          <ErrorText error={pairError} />
        </form>
      )}
      <p className="muted">This instance syncs with its peers every few seconds by itself. The peer’s key is kept sealed on this computer and never shown again.</p>
      <ConfirmDialog open={removing !== null} title={`Remove ${removing ?? ''}?`} confirmLabel="Remove the peer" onConfirm={() => removing && void unpair(removing)} onClose={() => setRemoving(null)}>
        <p>No more exchanges with it. What was already exchanged stays on both sides; pair again to resume.</p>
      </ConfirmDialog>
    </Card>
  );
}

function BackupsCard({ dataFolder }: { dataFolder: string | null | undefined }) {
  const config = useConnection((s) => s.config)!;
  const [backups, setBackups] = useState<Backups | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api(config, 'GET /v1/system/backups')
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

function Look() {
  const { theme, setTheme, kiosk, setKiosk } = usePrefs();
  const { device, setDevice } = useConnection();
  return (
    <Card title="This device">
      <Field label="Device name" value={device} onChange={(e) => setDevice(e.target.value)} hint="Saved with every check-in made here, so the office knows which device it was." maxLength={100} />
      <fieldset>
        <legend>Colours</legend>
        {THEMES.map((t) => (
          <label key={t.value} className="check">
            <input type="radio" name="theme" value={t.value} checked={theme === t.value} onChange={() => setTheme(t.value)} /> {t.label}
          </label>
        ))}
      </fieldset>
      <label className="check">
        <input type="checkbox" checked={kiosk} onChange={(e) => setKiosk(e.target.checked)} /> Kiosk: this device shows only the scanner (leaving it asks first)
      </label>
      <p className="muted">Colours and kiosk are kept on this device only.</p>
    </Card>
  );
}

/** /settings: the company, keys, this instance and its peers, backups, and this device's look. */
export function Settings() {
  const instance = useInstance((s) => s.instance);
  const supplier = instance !== null && isOfficeKey(instance.key.role);
  return (
    <>
      <h1 className="page-title">Settings</h1>
      <Look />
      {instance && !supplier && <p className="note">This device is signed in with a {instance.key.role} key: company, keys and backups need an office (supplier) key.</p>}
      {supplier && <CompanySettings />}
      {supplier && <ApiKeys ownKeyId={instance.key.id} />}
      {supplier && !window.tourdesk && <PairPhone embedded />}
      <InstanceAndSync />
      {supplier && <BackupsCard dataFolder={instance.dataFolder} />}
    </>
  );
}
