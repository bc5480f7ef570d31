// Redaction for anything main writes to a log, a crash report or an error message.
// The agent's token must never appear in any of them (issue: token never reaches a log).
// Two layers: known secret values are cut out wherever they appear (also URL-encoded), and
// anything shaped like a credential (a header, query or JSON field named like a token) is masked
// even when its value is not known, e.g. a mistyped token that never reached the vault.

const SENSITIVE_KEYS = /^(api[_-]?access[_-]?token|access[_-]?token|accessToken|token|pubsub[_-]?token|hmac[_-]?token|x-auth-token|authorization|cookie|set-cookie|password|secret)$/i;
const MASK = '[redacted]';
/** Short values would turn ordinary words into masks; real tokens are much longer. */
const MIN_SECRET_LENGTH = 4;

// name, separator (=, :, %3D, %3A, with optional quotes), value
const NAMED_CREDENTIAL =
  /(api[_-]?access[_-]?token|access[_-]?token|pubsub[_-]?token|hmac[_-]?token|x-auth-token|website[_-]?token)((?:["']?\s*(?:[:=]|%3[ADad])\s*["']?))([^"'&\s,;}]+)/gi;
const AUTHORIZATION = /(authorization(["']?\s*[:=]\s*["']?)((?:bearer|basic|token)\s+)?)([^"'&\s,;}]+)/gi;

const variantsOf = (secret: string) => {
  const encoded = encodeURIComponent(secret);
  return encoded === secret ? [secret] : [secret, encoded];
};

/** Replaces every occurrence of known secret values, and token-looking header/query pairs, in a string. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  // Longest first, so a secret that contains another is cut whole.
  const values = secrets.filter((s) => s && s.length >= MIN_SECRET_LENGTH).flatMap(variantsOf).sort((a, b) => b.length - a.length);
  for (const s of values) out = out.split(s).join(MASK);
  return out.replace(NAMED_CREDENTIAL, `$1$2${MASK}`).replace(AUTHORIZATION, `$1${MASK}`);
}

/** Deep copy with sensitive keys replaced and secret values scrubbed from every string. */
export function redactValue(value: unknown, secrets: readonly string[] = [], depth = 0, seen = new WeakSet<object>()): unknown {
  if (depth > 8) return '[truncated]';
  if (typeof value === 'string') return redactText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  const next = (v: unknown) => redactValue(v, secrets, depth + 1, seen);
  if (value instanceof URL) return redactText(value.toString(), secrets);
  if (value instanceof Error) {
    const out: Record<string, unknown> = { name: value.name, message: redactText(value.message, secrets) };
    if (value.stack) out.stack = redactText(value.stack, secrets);
    if (value.cause !== undefined) out.cause = next(value.cause);
    for (const [k, v] of Object.entries(value)) out[k] = SENSITIVE_KEYS.test(k) ? MASK : next(v);
    return out;
  }
  if (Array.isArray(value)) return value.map(next);
  // Headers, Map, URLSearchParams: iterable pairs whose keys may name credentials.
  if (value instanceof Map || (typeof Headers !== 'undefined' && value instanceof Headers) || value instanceof URLSearchParams) {
    const pairs = [...(value as Iterable<[unknown, unknown]>)];
    return Object.fromEntries(pairs.map(([k, v]) => [String(k), SENSITIVE_KEYS.test(String(k)) ? MASK : next(v)]));
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SENSITIVE_KEYS.test(k) ? MASK : next(v)]));
}

export interface Logger {
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
}

/** A logger that scrubs every message and detail before it reaches the sink. */
export function redactingLogger(sink: (level: string, line: string) => void, secrets: () => readonly string[]): Logger {
  const write = (level: string) => (message: string, detail?: unknown) => {
    const s = secrets();
    let extra = '';
    if (detail !== undefined) {
      try {
        extra = ` ${JSON.stringify(redactValue(detail, s))}`;
      } catch {
        extra = ' [detail not serialisable]';
      }
    }
    // Scrub the whole line once more: a secret split across message and detail is still one line.
    sink(level, redactText(`${message}${extra}`, s));
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}

/** The secret values main knows this launch (tokens typed into sign-in, stored or pending). */
export function createSecretRegistry() {
  const values = new Set<string>();
  return {
    add(secret: string) {
      if (secret.length >= MIN_SECRET_LENGTH) values.add(secret);
    },
    values: (): readonly string[] => [...values],
  };
}
export type SecretRegistry = ReturnType<typeof createSecretRegistry>;
