// The head's early script: a classic script of its own (about 1 KB, built by vite.config.ts and put
// in index.html's head ahead of the entry), run while the page is still parsed. A cold open waits on
// two slow starts, each tens of milliseconds on this hardware: IndexedDB opening the cache's backing
// store, and web mode's bridge socket connecting. Begun here, both run while the entry's ~650 KB
// are read, compiled and evaluated, instead of after; the app takes them over
// (early-handoff.ts): web-transport.ts the socket, early-rows.ts the open cache.
//
// Web mode's socket also says its hello as soon as it opens (with the launch key, read as
// platform/bridge.ts reads it) and asks the two questions every cold open asks main first
// (`EARLY_CALLS`), keeping what comes back unread for the transport: main answers while the entry is
// still compiled and run, instead of after. It reads no rows and creates no database. Anything
// unexpected leaves it doing nothing: the app then starts both itself, as without this script.
import type { EarlySaid, EarlyStart } from './early-handoff';
import { bridgeUrl, EARLY_CALLS, EARLY_GLOBAL, LAST_SESSION_KEY, SECRET_IN_HASH, SECRET_KEY } from './early-handoff';

/** How long the raw connection is held if the app never takes the cache (no session, another session). */
const HOLD_MS = 10_000;

/** Opens `name` at its current version, to be closed once the app's Dexie has it open. */
function warmCache(name: string): EarlyStart['database'] {
  let db: IDBDatabase | undefined;
  let released = false;
  const release = () => {
    released = true;
    db?.close();
  };
  const request = indexedDB.open(name);
  // Not there (deleted since it was remembered): create nothing, Dexie makes it with its schema.
  request.onupgradeneeded = () => request.transaction?.abort();
  request.onsuccess = () => {
    db = request.result;
    // A newer schema (Dexie's upgrade) or a deletion (a signed-out session's cache) waits on no one.
    db.onversionchange = release;
    if (released) db.close();
  };
  request.onerror = (event) => event.preventDefault();
  setTimeout(release, HOLD_MS);
  return { name, release };
}

/**
 * Web mode's launch key as platform/bridge.ts will find it (which keeps it and takes it out of the
 * address): the address's first, then the kept one. A hello with another key than the transport's
 * would be refused, and the page would wait to ask again.
 */
const launchSecret = (): string | undefined => SECRET_IN_HASH.exec(location.hash)?.[1] || (sessionStorage.getItem(SECRET_KEY) ?? undefined);

/** Opens the bridge's socket; once open, says the hello and asks `EARLY_CALLS`, keeping the frames that come back. */
function startBridge(start: EarlyStart, secret: string): void {
  const socket = new WebSocket(bridgeUrl(location));
  start.socket = socket;
  // The transport replaces both handlers when it takes the socket: these run only until then.
  socket.onopen = () => {
    const said: EarlySaid = { frames: [] };
    socket.onmessage = (message) => void said.frames.push(String(message.data));
    socket.send(JSON.stringify({ type: 'hello', secret }));
    EARLY_CALLS.forEach((name, i) => socket.send(JSON.stringify({ type: 'call', id: i + 1, name, input: {} })));
    start.said = said;
  };
}

try {
  const start: EarlyStart = {};
  (window as { [EARLY_GLOBAL]?: EarlyStart })[EARLY_GLOBAL] = start;
  const last = JSON.parse(localStorage.getItem(LAST_SESSION_KEY) ?? 'null') as { dbName?: unknown } | null;
  if (typeof last?.dbName === 'string') start.database = warmCache(last.dbName);
  // Electron's preload has its own bridge; web mode without its key signs in to nothing.
  const secret = (window as { inboxBridge?: unknown }).inboxBridge ? undefined : launchSecret();
  if (secret) startBridge(start, secret);
} catch {
  // Storage or IndexedDB refused (private mode, a sandbox): the app starts both as it would anyway.
}
