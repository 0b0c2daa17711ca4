import type { Page } from 'playwright-core';

/**
 * Each code typed into the scanner page as a wedge scanner types it (its characters, then Enter, as
 * keydown events on the body), timed from the first key to the painted frame that shows its verdict
 * (`.verdict[data-code=…]`), one after the other; `settleMs` between two scans (a guide's next ticket
 * comes after the screen settles). The samples in ms, in the order of the codes.
 */
export function timeWedgeScans(page: Page, codes: string[], settleMs = 0): Promise<number[]> {
  // In-page code as text: tsx's helpers (__name) do not exist in the page, and bypassCSP must be on
  // (the page's CSP rightly refuses string-evaluated code).
  return page.evaluate(`(async (list, settleMs) => {
    const samples = [];
    for (const code of list) {
      const started = performance.now();
      const shown = new Promise((resolve) => {
        const observer = new MutationObserver(() => { if (document.querySelector('.verdict[data-code="' + code + '"]')) { observer.disconnect(); resolve(); } });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
      });
      for (const key of [...code, 'Enter']) document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
      await shown;
      await new Promise((r) => requestAnimationFrame(() => r())); // until the frame with the verdict is painted
      samples.push(performance.now() - started);
      if (settleMs) await new Promise((r) => setTimeout(r, settleMs));
    }
    return samples;
  })(${JSON.stringify(codes)}, ${settleMs})`);
}
