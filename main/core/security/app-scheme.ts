// The renderer is served from app://inbox/ (a stable origin, so IndexedDB survives restarts).
// Resolving a request URL to a file must never leave the renderer folder.
import { isAbsolute, relative, resolve, sep } from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'inbox';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** The file an app:// URL names inside `root`, or undefined for anything outside it or malformed. */
export function resolveAppAsset(root: string, requestUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (path.includes('\0') || path.includes('\\')) return undefined;
  if (path === '/' || path === '') path = '/index.html';
  const base = resolve(root);
  const file = resolve(base, `.${path}`);
  const rel = relative(base, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..')) return undefined;
  return file;
}

/** IPC is answered only for frames showing our own app:// page. */
export function isTrustedSenderUrl(frameUrl: string | undefined | null): boolean {
  if (!frameUrl) return false;
  try {
    const url = new URL(frameUrl);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
  } catch {
    return false;
  }
}
