import { useEffect, useId, useRef, useState, type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { create } from 'zustand';
import { formats } from '../lib/formats';

/**
 * The desk's small component set: buttons, fields, cards, toasts and dialogs, all drawn from the
 * theme tokens in styles.css (so light, dark and sunlight need nothing here). Targets are ≥ 48 px.
 */

type Variant = 'primary' | 'secondary' | 'danger' | 'quiet';
export function Button({ variant = 'primary', className = '', type = 'button', ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return <button type={type} className={`btn ${variant} ${className}`.trim()} {...props} />;
}

/** A labelled input with an optional hint; the label is the field's accessible name. */
export function Field({ label, hint, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...props} />
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

export function SelectField({ label, children, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { label: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...props}>
        {children}
      </select>
    </div>
  );
}

export function Card({ title, actions, children, id, className = '' }: { title?: ReactNode; actions?: ReactNode; children: ReactNode; id?: string; className?: string }) {
  const headingId = useId();
  return (
    <section className={`card ${className}`.trim()} id={id} aria-labelledby={title ? headingId : undefined}>
      {(title || actions) && (
        <div className="card-head">
          {title && <h2 id={headingId}>{title}</h2>}
          {actions && <div className="row">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}

/**
 * A modal dialog (the browser's <dialog> opened with showModal: focus moves in and is trapped, Escape
 * closes it, and focus goes back to what had it). aria-modal is spelled out for screen readers that
 * do not infer it from showModal.
 */
export function Dialog({ open, title, onClose, children, actions }: { open: boolean; title: string; onClose(): void; children: ReactNode; actions: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const titleId = useId();
  return (
    <dialog ref={ref} className="dialog" aria-modal="true" aria-labelledby={titleId} onClose={onClose} onCancel={onClose}>
      <h2 id={titleId}>{title}</h2>
      {children}
      <div className="row dialog-actions">{actions}</div>
    </dialog>
  );
}

/** "Are you sure?" for what cannot be taken back; the confirming button names the action. */
export function ConfirmDialog({ open, title, children, confirmLabel, cancelLabel = 'Keep it', onConfirm, onClose, busy }: { open: boolean; title: string; children: ReactNode; confirmLabel: string; cancelLabel?: string; onConfirm(): void; onClose(): void; busy?: boolean }) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose} autoFocus>
            {cancelLabel}
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={busy}>
            {busy ? 'Working…' : confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}

interface Toast {
  id: number;
  text: string;
  kind: 'ok' | 'error' | 'info';
}
let nextToast = 1;
export const useToasts = create<{ toasts: Toast[]; docks: number; show(text: string, kind?: Toast['kind']): void; dismiss(id: number): void }>((set, get) => ({
  toasts: [],
  // A screen with its own toast (the manifest's Undo) docks the notes beside it: one stack, never two overlapping.
  docks: 0,
  show(text, kind = 'ok') {
    const id = nextToast++;
    set({ toasts: [...get().toasts, { id, text, kind }].slice(-3) });
    setTimeout(() => get().dismiss(id), kind === 'error' ? 10_000 : 5_000);
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((t) => t.id !== id) });
  },
}));

/** Short notes after an action ("Key revoked"), announced to screen readers, gone after a few seconds; in a screen's dock when it has one. */
export function Toasts({ docked = false }: { docked?: boolean }) {
  const { toasts, docks, dismiss } = useToasts();
  if (docks > 0 && !docked) return null;
  return (
    <div className={docked ? 'toasts docked' : 'toasts'} role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast ${t.kind}`}>
          <span aria-hidden="true">{t.kind === 'error' ? '⚠' : t.kind === 'ok' ? '✓' : 'ℹ'}</span>
          <span>{t.text}</span>
          <Button variant="quiet" onClick={() => dismiss(t.id)} aria-label="Dismiss">
            ✕
          </Button>
        </div>
      ))}
    </div>
  );
}

/** Copies text to the clipboard and says so (the key shown once, a link). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="secondary"
      onClick={() => {
        const done = () => (setCopied(true), setTimeout(() => setCopied(false), 2000));
        if (navigator.clipboard?.writeText) navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text) && done());
        else if (fallbackCopy(text)) done();
      }}
    >
      {copied ? 'Copied ✓' : label}
    </Button>
  );
}

/** Clipboard without the async API (plain-HTTP pages on the desk's network are not secure contexts). */
function fallbackCopy(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  return ok;
}

/** A date and time in words in the company's locale and zone ("Tue 1 Jan 2030, 2:05 pm"). */
export function when(iso: string | null | undefined): string {
  return iso ? formats().dateTime(iso) : 'never';
}
