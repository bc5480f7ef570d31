// What a cold open starts before the rest of the app's modules are evaluated. main.tsx imports
// this module first, so in the bundle its body runs ahead of React, the screens and the session
// client: the bridge's transport starts (on the socket the head's script began, platform/early-start.ts,
// or a socket of its own) and the early read of the last session's rows
// (conversations/early-rows.ts) starts opening the cache while the rest of the code is still being
// evaluated, instead of after it. Both only start work; nothing here renders or writes.
import { startEarlyRead } from './conversations/early-rows';
import { getBridge } from './platform/bridge';

/** The page's link to main, or none (web mode opened without its launch key). */
export const bridge = getBridge();
if (bridge) startEarlyRead();
