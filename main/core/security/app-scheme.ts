// The renderer is served from app://inbox/ (a stable origin, so IndexedDB survives restarts).
// Resolving a request URL to a file must never leave the renderer folder.
import nodePath from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'inbox';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

type PathApi = Pick<typeof nodePath, 'resolve' | 'relative' | 'isAbsolute' | 'sep'>;

/**
 * The file an app:// URL names inside `root`, or undefined for anything outside it or malformed.
 * `pathApi` is the platform's path module; tests pass `path.win32` to check Windows semantics.
 */
export function resolveAppAsset(root: string, requestUrl: string, pathApi: PathApi = nodePath): string | undefined {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || url.username || url.password) return undefined;
  let path: string;
  try {
    // Decoded once: `%2e%2e` becomes `..` and is caught below; `%252e` stays a literal `%2e` name.
    path = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  // Null bytes, backslashes (a separator on Windows) and colons (drive letters, NTFS streams)
  // have no place in the names of built assets.
  if (/[\0\\:]/.test(path)) return undefined;
  if (path === '/' || path === '') path = '/index.html';
  const base = pathApi.resolve(root);
  const file = pathApi.resolve(base, `.${path}`);
  const rel = pathApi.relative(base, file);
  if (rel === '' || rel.startsWith('..') || pathApi.isAbsolute(rel) || rel.split(pathApi.sep).includes('..')) return undefined;
  return file;
}

/** IPC is answered only for frames showing our own app:// page. */
export function isTrustedSenderUrl(frameUrl: string | undefined | null): boolean {
  if (!frameUrl) return false;
  try {
    const url = new URL(frameUrl);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST && !url.username && !url.password;
  } catch {
    return false;
  }
}

/**
 * The sender of an IPC message: our page, in the window's top frame (no iframe, even one of ours,
 * speaks for the app).
 */
export function isTrustedSender(frame: { url?: string | null; isMainFrame: boolean } | null | undefined): boolean {
  return !!frame && frame.isMainFrame && isTrustedSenderUrl(frame.url);
}
