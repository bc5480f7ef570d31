// In-app toasts: what would have been an OS notification while the agent is looking at the window
// (another conversation than the open one). UI state only; a toast goes by itself after a while,
// and one with the same tag replaces the one before (a conversation's burst stays one toast).
import { create } from 'zustand';

export interface Toast {
  tag: string;
  title: string;
  body: string;
  conversationId?: number;
  /** Bumped by each replacement, so the timer starts again. */
  n: number;
}

interface ToastState {
  toasts: Toast[];
  show(t: Omit<Toast, 'n'>): void;
  dismiss(tag: string): void;
}

/** At most this many at once; the oldest goes. */
const MAX_TOASTS = 4;

export const useToasts = create<ToastState>()((set) => ({
  toasts: [],
  show: (t) =>
    set((s) => {
      const prior = s.toasts.find((x) => x.tag === t.tag);
      const next = { ...t, n: (prior?.n ?? 0) + 1 };
      return { toasts: [...s.toasts.filter((x) => x.tag !== t.tag), next].slice(-MAX_TOASTS) };
    }),
  dismiss: (tag) => set((s) => ({ toasts: s.toasts.filter((x) => x.tag !== tag) })),
}));
