// Bumped when a live event changed a conversation: views that show numbers only the service can
// count (the tab counts) ask for them again, once per burst.
import { create } from 'zustand';

export const useLiveRevision = create<{ n: number; bump(): void }>()((set) => ({ n: 0, bump: () => set((s) => ({ n: s.n + 1 })) }));
