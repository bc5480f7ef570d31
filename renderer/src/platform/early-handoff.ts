// What the head's early script (early-start.ts) started before the entry was evaluated, and how the
// app takes it over. The two sides meet only through this module's names: the early script is
// built on its own (vite.config.ts) and bundles the constants below; the app imports the rest.

/** Which session this browser showed last (its cache's name and the agent): conversations/early-rows.ts keeps it. */
export const LAST_SESSION_KEY = 'inbox.lastSession';
/** Web mode's launch secret, kept for reloads by platform/bridge.ts. */
export const SECRET_KEY = 'inbox.launchSecret';
/** The launch secret in the address's fragment (`#k=…`, alone or beside a route), as the host hands it over. */
export const SECRET_IN_HASH = /(?:^#|&)k=([A-Za-z0-9_-]+)/;
/** Where the early script leaves what it started. */
export const EARLY_GLOBAL = '__inboxEarlyStart';

export interface EarlyStart {
  /** Web mode's bridge socket, connecting (or open, with nothing sent on it yet). */
  socket?: WebSocket;
  /** The last session's cache, opened raw so IndexedDB's backing store is open when Dexie asks. */
  database?: { name: string; release(): void };
}

/** The web host's bridge socket address for this page. */
export function bridgeUrl(where: Pick<Location, 'protocol' | 'host'>): string {
  return `${where.protocol === 'https:' ? 'wss' : 'ws'}://${where.host}/bridge`;
}

function early(): EarlyStart | undefined {
  return (globalThis as { [EARLY_GLOBAL]?: EarlyStart })[EARLY_GLOBAL];
}

/**
 * The socket the early script opened to `url`, once: still connecting or already open (then with
 * nothing sent or received, as the host sends nothing before a hello). A closed one is dropped.
 */
export function takeEarlySocket(url: string): WebSocket | undefined {
  const start = early();
  const socket = start?.socket;
  if (!start || !socket) return undefined;
  delete start.socket;
  if (socket.url === url && (socket.readyState === socket.CONNECTING || socket.readyState === socket.OPEN)) return socket;
  socket.close();
  return undefined;
}

/** Closes the early script's raw connection to the remembered cache (Dexie's own is open by now, or not wanted). */
export function releaseEarlyDatabase(): void {
  const start = early();
  start?.database?.release();
  if (start) delete start.database;
}
