// The head's early script: a classic script of its own (about 1 KB, built by vite.config.ts and put
// in index.html's head ahead of the entry), run while the page is still parsed. A cold open waits on
// two slow starts, each tens of milliseconds on this hardware: IndexedDB opening the cache's backing
// store, and web mode's bridge socket connecting. Begun here, both run while the entry's ~650 KB
// are read, compiled and evaluated, instead of after; the app takes them over
// (early-handoff.ts): web-transport.ts the socket, early-rows.ts the open cache.
//
// It only starts things. It reads no secret (whether web mode has its launch key is enough), sends
// nothing, reads no rows and creates no database. Anything unexpected leaves it doing nothing: the
// app then starts both itself, as without this script.
import type { EarlyStart } from './early-handoff';
import { bridgeUrl, EARLY_GLOBAL, LAST_SESSION_KEY, SECRET_IN_HASH, SECRET_KEY } from './early-handoff';

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

function hasLaunchSecret(): boolean {
  return Boolean(sessionStorage.getItem(SECRET_KEY)) || SECRET_IN_HASH.test(location.hash);
}

try {
  const start: EarlyStart = {};
  (window as { [EARLY_GLOBAL]?: EarlyStart })[EARLY_GLOBAL] = start;
  const last = JSON.parse(localStorage.getItem(LAST_SESSION_KEY) ?? 'null') as { dbName?: unknown } | null;
  if (typeof last?.dbName === 'string') start.database = warmCache(last.dbName);
  // Electron's preload has its own bridge; web mode without its key signs in to nothing.
  if (!(window as { inboxBridge?: unknown }).inboxBridge && hasLaunchSecret()) start.socket = new WebSocket(bridgeUrl(location));
} catch {
  // Storage or IndexedDB refused (private mode, a sandbox): the app starts both as it would anyway.
}
