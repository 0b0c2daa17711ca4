import { useEffect, useRef, useState } from 'react';
import { createWedge } from './wedge';

const TEXT_FIELD = 'input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]):not([type=file]), textarea, select, [contenteditable="true"]';

/**
 * Listens to the whole page for a wedge scanner, whatever has focus, except while a person is
 * typing in a text field (then the scanner says it is paused). Returns why it is paused, or null.
 */
export function useWedge(onCode: (code: string) => void): string | null {
  const callback = useRef(onCode);
  callback.current = onCode;
  const [paused, setPaused] = useState<string | null>(null);

  useEffect(() => {
    const wedge = createWedge();
    const typing = (target: EventTarget | null) => target instanceof Element && target.closest(TEXT_FIELD) !== null;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      const code = wedge.key(event.key, event.timeStamp);
      if (code) {
        // The Enter that ends a scan must not also press whatever button has focus.
        event.preventDefault();
        event.stopPropagation();
        callback.current(code);
      }
    };
    const update = () => setPaused(typing(document.activeElement) ? 'typing in a field' : !document.hasFocus() ? 'this window is not active — tap or click it' : null);
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('focusin', update);
    const later = () => setTimeout(update, 0);
    window.addEventListener('focusout', later);
    window.addEventListener('blur', update);
    window.addEventListener('focus', update);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('focusin', update);
      window.removeEventListener('focusout', later);
      window.removeEventListener('blur', update);
      window.removeEventListener('focus', update);
    };
  }, []);
  return paused;
}
