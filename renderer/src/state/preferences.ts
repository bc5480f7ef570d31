// The agent's preferences, kept on this computer across restarts (localStorage through zustand's
// persist middleware). Not per account: they describe how the agent types, not the data.
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** `enter`: Enter sends, Shift+Enter breaks the line. `mod-enter`: Ctrl/Cmd+Enter sends. */
export type SendKey = 'enter' | 'mod-enter';

interface Preferences {
  sendKey: SendKey;
  setSendKey(k: SendKey): void;
}

export const usePreferences = create<Preferences>()(
  persist((set) => ({ sendKey: 'mod-enter', setSendKey: (sendKey) => set({ sendKey }) }), {
    name: 'inbox.preferences',
    storage: createJSONStorage(() => localStorage),
    version: 1,
  }),
);
