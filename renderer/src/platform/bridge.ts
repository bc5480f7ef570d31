// Picks the bridge implementation: the Electron preload's `window.inboxBridge`, or web mode's
// WebSocket transport. The rest of the renderer codes against the `Bridge` interface only.
import type { Bridge } from '../../../shared/bridge/contract';
import { SECRET_IN_HASH, SECRET_KEY } from './early-handoff';
import { createWebTransport } from './web-transport';

declare global {
  interface Window {
    inboxBridge?: Bridge;
  }
}

/**
 * The fragment without the launch secret (`#k=…`, alone or beside a route: `#/conversations/3&k=…`).
 * Only what is not the secret stays.
 */
export function withoutSecret(hash: string): string {
  const rest = hash
    .replace(/^#/, '')
    .split('&')
    .filter((part) => part && !part.startsWith('k='));
  return rest.length ? `#${rest.join('&')}` : '';
}

/** Web mode: the secret arrives in the URL fragment once; keep it for reloads, then take it out of the address (this history entry included). */
export function launchSecret(): string | undefined {
  const match = SECRET_IN_HASH.exec(location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(SECRET_KEY, match[1]);
    history.replaceState(null, '', location.pathname + location.search + withoutSecret(location.hash));
  }
  return sessionStorage.getItem(SECRET_KEY) ?? undefined;
}

let bridge: Bridge | undefined;

export function getBridge(): Bridge | undefined {
  if (bridge) return bridge;
  if (window.inboxBridge) return (bridge = window.inboxBridge);
  const secret = launchSecret();
  if (secret) return (bridge = createWebTransport(secret));
  return undefined;
}
