import { create } from 'zustand';
import { parseRoute, urlOf, type Route, type Screen } from '../model/routes';

const hashMode = () => typeof location !== 'undefined' && location.protocol === 'file:';

function current(): Route {
  if (typeof location === 'undefined') return { screen: { name: 'board' }, boardDate: null };
  if (hashMode()) {
    const [path, search = ''] = location.hash.replace(/^#/, '').split('?');
    return parseRoute(path || '/', search);
  }
  return parseRoute(location.pathname, location.search);
}

function push(url: string, replace = false) {
  const target = hashMode() ? `#${url}` : url;
  if (replace) history.replaceState(null, '', target);
  else history.pushState(null, '', target);
}

interface NavState extends Route {
  go(screen: Screen): void;
  /** The same screen with new parameters (a search typed): the address changes, history does not grow. */
  replace(screen: Screen): void;
  /** The board's day (yyyy-MM-dd), or null for today in the company's timezone. */
  setBoardDate(date: string | null): void;
}

export const useNav = create<NavState>((set, get) => ({
  ...current(),
  go(screen) {
    push(urlOf(screen, screen.name === 'board' ? get().boardDate : null));
    set({ screen });
    window.scrollTo?.(0, 0);
  },
  replace(screen) {
    push(urlOf(screen, screen.name === 'board' ? get().boardDate : null), true);
    set({ screen });
  },
  setBoardDate(boardDate) {
    if (get().screen.name === 'board') push(urlOf({ name: 'board' }, boardDate), true);
    set({ boardDate });
  },
}));

if (typeof window !== 'undefined') {
  // Back and forward move between screens as in any web page.
  window.addEventListener('popstate', () => useNav.setState(current()));
  window.addEventListener('hashchange', () => hashMode() && useNav.setState(current()));
}
