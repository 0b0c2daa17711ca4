import { useEffect, useState } from 'react';
import { plainWords } from '../../api/plainWords';
import { loadCompany, saveCompany, type Company } from '../../api/settings';
import { useConnection } from '../../store/connection';
import { followsHub, useInstance } from '../../store/instance';
import { ErrorText } from '../../components/Status';
import { Button, Card, Field, useToasts } from '../../components/ui';

/** The company's name, timezone, currency and contacts (read-only on a desk that follows a hub). */
export function CompanyCard() {
  const config = useConnection((s) => s.config)!;
  const toast = useToasts((s) => s.show);
  const [form, setForm] = useState<Company | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A desk that follows a hub shows the hub's company and cannot change it (the engine refuses).
  const readOnly = useInstance((s) => followsHub(s.sync));
  useEffect(() => {
    loadCompany(config)
      .then(setForm)
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
            setForm(await saveCompany(config, form));
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
