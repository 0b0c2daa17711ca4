import { useEffect, useState } from 'react';
import type { Screen } from '../model/routes';
import { useNav } from '../store/nav';
import { Button, Dialog } from './ui';

/** Two-key "go to" shortcuts, as in mail and issue trackers: g then a letter. */
const GO_TO: { key: string; label: string; screen: Screen }[] = [
  { key: 'd', label: 'Departures', screen: { name: 'board' } },
  { key: 'b', label: 'Bookings', screen: { name: 'bookings', q: '', date: null } },
  { key: 'c', label: 'Scanner (check-in)', screen: { name: 'scan', sessionId: null } },
  { key: 's', label: 'Settings', screen: { name: 'settings' } },
];

const typing = (target: EventTarget | null) => target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/** Focuses the screen's search field, or opens booking search when the screen has none. */
function focusSearch(go: (s: Screen) => void) {
  const field = document.querySelector<HTMLInputElement>('[data-search], [role=search] input');
  if (field) {
    field.focus();
    field.select();
  } else go({ name: 'bookings', q: '', date: null });
}

/**
 * The keyboard shortcuts, listed by `?`. Off on the scanner: a wedge scanner types codes as keys,
 * and they must never navigate.
 */
export function Shortcuts({ enabled }: { enabled: boolean }) {
  const go = useNav((s) => s.go);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    let pendingG = 0;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target) || document.querySelector('dialog[open]')) return;
      if (event.key === '?') {
        event.preventDefault();
        setOpen(true);
      } else if (event.key === '/') {
        event.preventDefault();
        focusSearch(go);
      } else if (event.key === 'g') {
        pendingG = Date.now();
      } else if (Date.now() - pendingG < 1500) {
        const target = GO_TO.find((t) => t.key === event.key);
        pendingG = 0;
        if (target) {
          event.preventDefault();
          go(target.screen);
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled, go]);
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={() => setOpen(false)} actions={<Button onClick={() => setOpen(false)}>Close</Button>}>
      <table className="shortcuts" aria-label="Keyboard shortcuts">
        <tbody>
          <tr>
            <td>
              <kbd>?</kbd>
            </td>
            <td>This list</td>
          </tr>
          <tr>
            <td>
              <kbd>/</kbd>
            </td>
            <td>Search (bookings, or the manifest’s search)</td>
          </tr>
          {GO_TO.map((t) => (
            <tr key={t.key}>
              <td>
                <kbd>g</kbd> then <kbd>{t.key}</kbd>
              </td>
              <td>{t.label}</td>
            </tr>
          ))}
          <tr>
            <td>
              <kbd>Tab</kbd> / <kbd>Shift</kbd>+<kbd>Tab</kbd>
            </td>
            <td>Next / previous button or field; <kbd>Enter</kbd> presses it, <kbd>Esc</kbd> closes a dialog</td>
          </tr>
        </tbody>
      </table>
      <p className="muted">Shortcuts are off on the scanner, where a barcode scanner types into the page.</p>
    </Dialog>
  );
}
