import { useEffect } from 'react';
import { useManifest } from '../store/manifest';

/** After every check-in: what was done and an Undo, for 10 seconds. */
export function ManifestUndoToast() {
  const { toast, undo, dismissToast } = useManifest();
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => dismissToast(), Math.max(0, toast.until - Date.now()));
    return () => clearTimeout(timer);
  }, [toast, dismissToast]);
  if (!toast) return null;
  return (
    <div className="mf-toast" role="status" aria-label="Undo check-in">
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
