import { create } from 'zustand';

export type Screen = { name: 'board' } | { name: 'session'; sessionId: number } | { name: 'walkup'; sessionId: number };

interface NavState {
  screen: Screen;
  /** The board's day (yyyy-MM-dd), or null for today in the company's timezone. */
  boardDate: string | null;
  go(screen: Screen): void;
  setBoardDate(date: string | null): void;
}

export const useNav = create<NavState>((set) => ({
  screen: { name: 'board' },
  boardDate: null,
  go: (screen) => set({ screen }),
  setBoardDate: (boardDate) => set({ boardDate }),
}));
