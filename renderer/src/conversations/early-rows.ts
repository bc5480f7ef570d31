// The cold open's first rows, read while the page is still asking main who is signed in. The
// bridge's handshake and the session's answer take a round trip through main (tens of
// milliseconds) before the inbox mounts and its list would start reading; the last session's
// cache and the persisted view are known from this browser's own storage, so the read starts at
// once and the list's first render already has its rows. Used only when the session main names
// is that one and the view is unchanged; anything else is read as before. The database opened for
// it is handed to that session's client (one connection, as before).
import { InboxDb } from '../db/schema';
import type { CachedConversation } from '../db/schema';
import type { Directory } from '../directory/cached-directory';
import { readCachedDirectory } from '../directory/cached-directory';
import { WAITING_SETTINGS_KEY } from '../waiting/settings-key';
import { LAST_SESSION_KEY, releaseEarlyDatabase } from '../platform/early-handoff';
import { useUi } from '../state/ui';
import { readFirstRows, viewKey } from './view';

/** Rows read first, ahead of the whole view: more than a tall window shows, plus overscan. */
export const FIRST_ROWS = 60;

interface EarlyRead {
  dbName: string;
  meId: number;
  key: string;
  db: InboxDb;
  /** Handed to a client (or closed). */
  taken?: boolean;
  /** Set once read. */
  rows?: CachedConversation[] | undefined;
  /** The read itself (undefined if it failed). */
  reading?: Promise<CachedConversation[] | undefined>;
  /** What the rows' chips also show, read right behind them: the directory and the waiting-time colours' row. */
  directory?: Directory;
  waiting?: { value: unknown };
}

let early: EarlyRead | undefined;

/** Remembers the session on screen, for the next cold open. */
export function rememberSession(dbName: string, meId: number): void {
  try {
    localStorage.setItem(LAST_SESSION_KEY, JSON.stringify({ dbName, meId }));
  } catch {
    // Storage refused (private mode, full): the next open reads after the handshake, as before.
  }
}

/** The session remembered by `rememberSession`, if storage holds one that reads as one. */
function lastSession(): { dbName: string; meId: number } | undefined {
  try {
    const last = JSON.parse(localStorage.getItem(LAST_SESSION_KEY) ?? 'null') as { dbName?: unknown; meId?: unknown } | null;
    return typeof last?.dbName === 'string' && typeof last.meId === 'number' ? { dbName: last.dbName, meId: last.meId } : undefined;
  } catch {
    return undefined;
  }
}

/** A signed-out session's cache is gone: nothing to read early for it. */
export function forgetSession(dbName: string): void {
  if (lastSession()?.dbName !== dbName) return;
  try {
    localStorage.removeItem(LAST_SESSION_KEY);
  } catch {
    // As above.
  }
}

/**
 * Starts the read (main.tsx, before the first render). The remembered cache exists: a sign-out
 * forgets it when its cache is deleted (platform/cache-purge.ts).
 */
export function startEarlyRead(): void {
  const last = lastSession();
  if (!last) return releaseEarlyDatabase();
  const view = useUi.getState().view;
  const read: EarlyRead = { dbName: last.dbName, meId: last.meId, key: viewKey(view), db: new InboxDb(last.dbName) };
  early = read;
  read.reading = readFirstRows(read.db, view, read.meId, FIRST_ROWS).then(
    (rows) => (read.rows = rows),
    () => undefined,
  );
  // Dexie's connection is open once the rows are read (or failed): the head's early one has done its work.
  void read.reading.finally(releaseEarlyDatabase);
  // Asked after the rows, so IndexedDB answers them first; small tables.
  void readCachedDirectory(read.db).then(
    (directory) => (read.directory = directory),
    () => undefined,
  );
  void read.db.settings.get(WAITING_SETTINGS_KEY).then(
    (row) => (read.waiting = { value: row?.value ?? null }),
    () => undefined,
  );
}

/** The directory read early for this cache, if it is in (else the inbox reads it, as before). */
export function earlyDirectory(dbName: string): Directory | undefined {
  return early?.dbName === dbName ? early.directory : undefined;
}

/** The waiting-time colours' stored row read early for this cache (`{ value: null }`: none stored), if it is in. */
export function earlyWaitingSetting(dbName: string): { value: unknown } | undefined {
  return early?.dbName === dbName ? early.waiting : undefined;
}

/** The rows read early for this cache, agent and view, if they are in (else the list reads them, as before). */
export function earlyRows(dbName: string, meId: number, key: string): CachedConversation[] | undefined {
  const read = early;
  return read && read.dbName === dbName && read.meId === meId && read.key === key ? read.rows : undefined;
}

/**
 * The early read for this cache, agent and view while it is still on its way (the list rendered
 * first): the list shows its rows when they come, rather than only when its own read, asked later
 * and queued behind it, answers.
 */
export function earlyRowsComing(dbName: string, meId: number, key: string): Promise<CachedConversation[] | undefined> | undefined {
  const read = early;
  return read && read.rows === undefined && read.dbName === dbName && read.meId === meId && read.key === key ? read.reading : undefined;
}

/** The database opened early, for the session whose cache it is (another session's is closed). */
export function takeEarlyDb(dbName: string): InboxDb | undefined {
  const read = early;
  if (!read || read.taken) return undefined;
  read.taken = true;
  if (read.dbName === dbName) return read.db;
  read.db.close();
  return undefined;
}
