import { useLayoutEffect, useState, type ReactNode } from 'react';
import { Toasts, useToasts } from './ui';

/**
 * One toast stack for a screen with its own toast (the manifest's Undo): the app's notes ("Took
 * $150.00 …") stand with it above the status bar, in the page's flow, instead of a second stack
 * fixed over the same corner.
 */
export function ToastDock({ children }: { children: ReactNode }) {
  const statusBar = useStatusBarHeight();
  useLayoutEffect(() => {
    useToasts.setState((s) => ({ docks: s.docks + 1 }));
    return () => useToasts.setState((s) => ({ docks: s.docks - 1 }));
  }, []);
  return (
    <div className="toast-dock" style={{ ['--status-bar-h' as string]: `${statusBar}px` }}>
      <Toasts docked />
      {children}
    </div>
  );
}

/** The sticky status bar's height, which the dock stands above (it wraps to two lines on a phone). */
function useStatusBarHeight(): number {
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const bar = document.querySelector<HTMLElement>('.status-bar');
    if (!bar) return;
    setHeight(bar.offsetHeight);
    const observer = new ResizeObserver(() => setHeight(bar.offsetHeight));
    observer.observe(bar);
    return () => observer.disconnect();
  }, []);
  return height;
}
