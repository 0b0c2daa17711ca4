import { useEffect, useLayoutEffect, useState } from 'react';
import { useManifest } from '../store/manifest';

/** After every check-in: what was done and an Undo, for 10 seconds. */
export function ManifestUndoToast() {
  const { toast, undo, dismissToast } = useManifest();
  const statusBar = useStatusBarHeight(!!toast);
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => dismissToast(), Math.max(0, toast.until - Date.now()));
    return () => clearTimeout(timer);
  }, [toast, dismissToast]);
  if (!toast) return null;
  return (
    <div className="mf-toast" role="status" aria-label="Undo check-in" style={{ ['--status-bar-h' as string]: `${statusBar}px` }}>
      <span>✓ {toast.label}</span>
      <button type="button" onClick={() => void undo(toast.eventIds)}>
        Undo
      </button>
      <button type="button" className="mf-toast-close" aria-label="Dismiss" onClick={dismissToast}>
        ✕
      </button>
      <span className="mf-toast-timer" style={{ animationDuration: `${Math.max(0, toast.until - Date.now())}ms` }} aria-hidden="true" />
    </div>
  );
}

/** The sticky status bar's height, which the toast stands above (it wraps to two lines on a phone). */
function useStatusBarHeight(shown: boolean): number {
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const bar = document.querySelector<HTMLElement>('.status-bar');
    if (!shown || !bar) return;
    setHeight(bar.offsetHeight);
    const observer = new ResizeObserver(() => setHeight(bar.offsetHeight));
    observer.observe(bar);
    return () => observer.disconnect();
  }, [shown]);
  return height;
}
