// What the first list rows do not need, behind dynamic imports: the conversation (with markdown,
// the sanitizer, the composer, the emoji picker and the file viewers), the command palette, the
// shortcuts sheet and the settings screens. The built entry is one classic script that holds them
// (vite.config.ts: a new window starts from the compiled code Chromium keeps for a classic script),
// so their modules are compiled only when first called and run only when imported: the cold open
// runs what paints the list; `preloadScreens` runs the rest's modules once the list is up, so the
// first conversation opened does not wait for them. (The dev server still loads each on its own.)
import { lazy, memo } from 'react';

const conversationView = () => import('./ConversationView');
const commandPalette = () => import('../components/CommandPalette');
const shortcutsSheet = () => import('../components/ShortcutsSheet');
const notificationSettings = () => import('../components/NotificationSettings');
const waitingSettings = () => import('../components/WaitingSettings');

// Memoised: the inbox renders again when a picker opens or closes (every triage key but e), and the
// open conversation (its thread, composer and contact panel) did each time (issue 14).
export const ConversationView = memo(lazy(() => conversationView().then((m) => ({ default: m.ConversationView }))));
export const CommandPalette = lazy(() => commandPalette().then((m) => ({ default: m.CommandPalette })));
export const ShortcutsSheet = lazy(() => shortcutsSheet().then((m) => ({ default: m.ShortcutsSheet })));
export const NotificationSettings = lazy(() => notificationSettings().then((m) => ({ default: m.NotificationSettings })));
export const WaitingSettings = lazy(() => waitingSettings().then((m) => ({ default: m.WaitingSettings })));

/** Imports every screen above (each import runs once; `lazy` then finds it loaded). */
export function preloadScreens(): Promise<unknown> {
  return Promise.all([conversationView(), commandPalette(), shortcutsSheet(), notificationSettings(), waitingSettings()]);
}
