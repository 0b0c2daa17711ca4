import { useEffect, useState } from 'react';
import type { Screen } from '../model/routes';
import { useNav } from '../store/nav';
import { Button, Dialog } from './ui';
import { shortcutAction } from './shortcutKeys';

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

/** The scan box an event came from (the manifest's, marked data-scanbox), or null. */
const scanBoxOf = (target: EventTarget | null) => (target instanceof HTMLInputElement && target.dataset.scanbox !== undefined ? target : null);

/** Puts a held-back "g" into the scan box as if typed (React hears it as an input event). */
function typeInto(box: HTMLInputElement, text: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(box, box.value + text);
  box.dispatchEvent(new Event('input', { bubbles: true }));
}

const GO_KEYS = GO_TO.map((t) => t.key);

/**
 * The keyboard shortcuts, listed by `?`, on every screen but the scanner (a wedge scanner types
 * codes as keys there, and they must never navigate). On the manifest they share the keyboard with
 * the scan box by the rule in shortcutKeys.ts.
 */
export function Shortcuts({ enabled }: { enabled: boolean }) {
  const go = useNav((s) => s.go);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    let held: { time: number; box: HTMLInputElement | null } | null = null;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1 || document.querySelector('dialog[open]')) return;
      const box = scanBoxOf(event.target);
      const action = shortcutAction({ key: event.key, time: event.timeStamp, inField: typing(event.target), inEmptyScanBox: box !== null && box.value === '', heldG: held?.time ?? null, scanBoxOnPage: document.querySelector('[data-scanbox]') !== null }, GO_KEYS);
      const heldBox = held?.box ?? null;
      held = null;
      if (action.kind === 'type') {
        if (action.releaseG && heldBox) typeInto(heldBox, 'g');
        return;
      }
      if (action.kind === 'holdG') {
        held = { time: event.timeStamp, box };
        // Outside a field the "g" types nothing; in the empty scan box it waits to see if a code follows.
        if (box) event.preventDefault();
        return;
      }
      event.preventDefault();
      if (action.kind === 'help') setOpen(true);
      else if (action.kind === 'search') focusSearch(go);
      else go(GO_TO.find((t) => t.key === action.letter)!.screen);
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
      <p className="muted">On a manifest the scan box takes codes: these keys work there while it is empty. Shortcuts are off on the scanner, where a barcode scanner types into the page.</p>
    </Dialog>
  );
}
