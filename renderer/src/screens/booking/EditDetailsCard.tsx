import { Button, Card, Field } from '../../components/ui';
import type { EditForm } from './editDetails';

/** The customer's details and the references, edited; dates, tours and numbers of people are not. */
export function EditDetailsCard({ editing, onChange, onSave, onDiscard, busy }: { editing: EditForm; onChange(next: EditForm): void; onSave(): void; onDiscard(): void; busy: boolean }) {
  const edit = (patch: Partial<EditForm>) => onChange({ ...editing, ...patch });
  return (
    <Card title="Edit details">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSave();
        }}
      >
        <div className="grid">
          <Field label="First name" value={editing.firstName} onChange={(e) => edit({ firstName: e.target.value })} autoFocus />
          <Field label="Last name" value={editing.lastName} onChange={(e) => edit({ lastName: e.target.value })} />
          <Field label="Phone" type="tel" value={editing.phone} onChange={(e) => edit({ phone: e.target.value })} />
          <Field label="Email" type="email" value={editing.email} onChange={(e) => edit({ email: e.target.value })} />
          <Field label="Reference" value={editing.resellerReference} onChange={(e) => edit({ resellerReference: e.target.value })} hint="The agent’s or the customer’s own reference." />
          <Field label="Comments" value={editing.resellerComments} onChange={(e) => edit({ resellerComments: e.target.value })} />
        </div>
        <p className="muted">Dates, tours and numbers of people cannot be changed here: cancel and book again.</p>
        <div className="row">
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Save changes'}
          </Button>
          <Button variant="secondary" onClick={onDiscard}>
            Discard changes
          </Button>
        </div>
      </form>
    </Card>
  );
}
