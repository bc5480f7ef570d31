// The agent's preferences, kept on this computer across restarts (localStorage through zustand's
// persist middleware). Not per account: they describe how the agent works, not the data.
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** `enter`: Enter sends, Shift+Enter breaks the line. `mod-enter`: Ctrl/Cmd+Enter sends. */
export type SendKey = 'enter' | 'mod-enter';
/** How much room a list row takes: three lines (`comfortable`) or two (`compact`). */
export type Density = 'comfortable' | 'compact';

interface Preferences {
  sendKey: SendKey;
  /**
   * The app-wide notifications switch from before notification settings were per session: a
   * session without settings of its own starts from it (notifications/settings.ts). Not changed any more.
   */
  notifications: boolean;
  density: Density;
  setSendKey(k: SendKey): void;
  setDensity(d: Density): void;
  setNotifications(on: boolean): void;
}

export const usePreferences = create<Preferences>()(
  persist(
    (set) => ({
      sendKey: 'mod-enter',
      notifications: true,
      density: 'comfortable',
      setSendKey: (sendKey) => set({ sendKey }),
      setDensity: (density) => set({ density }),
      setNotifications: (notifications) => set({ notifications }),
    }),
    {
      name: 'inbox.preferences',
      storage: createJSONStorage(() => localStorage),
      // Version 1 had no `notifications` (nor, later, `density`); the defaults fill them in when merging what was stored.
      version: 1,
    },
  ),
);
