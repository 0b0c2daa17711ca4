import { useEffect } from 'react';
import { timeOf } from './Status';

const APP = 'TourDesk';

/**
 * Names the browser tab and history entry after what the screen shows ("Kayak Tour 18:00 · TourDesk"),
 * so a desk with several tabs open can tell them apart. Null leaves the title alone (a screen that is
 * still loading, or one embedded in another). Leaving the screen puts the app's name back.
 */
export function usePageTitle(title: string | null): void {
  useEffect(() => {
    if (title === null) return;
    document.title = `${title} · ${APP}`;
    return () => {
      document.title = APP;
    };
  }, [title]);
}

/** A departure as a tab names it: the product, then its local start time ("Kayak Tour 18:00"). */
export function departureTitle(session: { productName: string; startTimeLocal: string }): string {
  return `${session.productName} ${timeOf(session.startTimeLocal)}`;
}
