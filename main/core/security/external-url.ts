// Links from messages are untrusted. Only web and mail links leave the app, and only through the
// OS opener passed in (shell.openExternal in Electron), so this stays a pure, testable function.
const ALLOWED = new Set(['http:', 'https:', 'mailto:']);

export function isSafeExternalUrl(raw: unknown): raw is string {
  if (typeof raw !== 'string' || raw.length > 2048) return false;
  // Control characters and whitespace can smuggle schemes past naive parsers.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u001f\u007f\s]/.test(raw)) return false;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (!ALLOWED.has(url.protocol)) return false;
  if (url.protocol !== 'mailto:' && (!url.hostname || url.username || url.password)) return false;
  return true;
}

/** Opens the URL with `opener` when it is safe; answers whether it did. */
export async function openExternalSafely(raw: unknown, opener: (url: string) => Promise<void>): Promise<boolean> {
  if (!isSafeExternalUrl(raw)) return false;
  await opener(new URL(raw).toString());
  return true;
}
