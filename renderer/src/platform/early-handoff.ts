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

/**
 * What every cold open asks main first (App.tsx: who is signed in, and which signed-out sessions'
 * caches to delete before anything shows), each with no input. The early script asks them on its
 * socket right behind the hello, as calls 1 and 2, so main's answers travel while the entry is
 * compiled and run; the transport takes them over as its own calls (web-transport.ts).
 */
export const EARLY_CALLS = ['session.get', 'session.obsoleteCaches'] as const;

/** The early script's hello and first calls went out on its socket; what came back since, unread. */
export interface EarlySaid {
  frames: string[];
}

export interface EarlyStart {
  /** Web mode's bridge socket, connecting, or open: with nothing sent on it yet, or with `said`. */
  socket?: WebSocket;
  /** Set once the hello and `EARLY_CALLS` were sent on `socket`. */
  said?: EarlySaid;
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
 * The socket the early script opened to `url`, once: still connecting (nothing sent on it), or open,
 * with nothing sent yet or with its hello and first calls said and the frames received since. A
 * closed one is dropped, and with it any calls said on it (the transport asks them again).
 */
export function takeEarlySocket(url: string): { socket: WebSocket; said?: EarlySaid } | undefined {
  const start = early();
  const socket = start?.socket;
  if (!start || !socket) return undefined;
  const said = start.said;
  delete start.socket;
  delete start.said;
  if (socket.url === url && (socket.readyState === socket.CONNECTING || socket.readyState === socket.OPEN)) return said ? { socket, said } : { socket };
  socket.close();
  return undefined;
}

/** Closes the early script's raw connection to the remembered cache (Dexie's own is open by now, or not wanted). */
export function releaseEarlyDatabase(): void {
  const start = early();
  start?.database?.release();
  if (start) delete start.database;
}
