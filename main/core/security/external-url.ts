// Links from messages are untrusted. Only web and mail links leave the app, and only through the
// OS opener passed in (shell.openExternal in Electron), so this stays a pure, testable function.
const ALLOWED = new Set(['http:', 'https:', 'mailto:']);
export const MAX_EXTERNAL_URL_LENGTH = 2048;

// Control characters and whitespace can smuggle schemes past naive parsers; bidi overrides and
// zero-width characters disguise where a link goes.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SUSPICIOUS_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\s\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

export function isSafeExternalUrl(raw: unknown): raw is string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_EXTERNAL_URL_LENGTH) return false;
  if (SUSPICIOUS_CHARACTERS.test(raw)) return false;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (!ALLOWED.has(url.protocol)) return false;
  if (url.protocol === 'mailto:') return url.pathname.length > 0;
  // Userinfo (`https://bank.example@evil.example`) only ever serves to mislead.
  return url.hostname.length > 0 && url.username === '' && url.password === '';
}

/**
 * The form handed to the OS: the parser's serialisation, so an IDN host goes out as punycode
 * (`xn--…`), which is what the browser's address bar will show, not a look-alike.
 */
export const normalisedExternalUrl = (raw: string) => new URL(raw).toString();

/** Opens the URL with `opener` when it is safe; answers whether it did. */
export async function openExternalSafely(raw: unknown, opener: (url: string) => Promise<void>): Promise<boolean> {
  if (!isSafeExternalUrl(raw)) return false;
  await opener(normalisedExternalUrl(raw));
  return true;
}
