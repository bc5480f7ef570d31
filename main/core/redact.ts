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

/**
 * Cuts every one of `secrets` (and its URL-encoded form) out of strings, longest first where two
 * overlap. Indexed by each secret's first few characters, so a string is scanned once however
 * many secrets there are (a service answer may name hundreds of contacts' credentials).
 */
export function secretCutter(secrets: Iterable<string>): (text: string) => string {
  const sets = new Map<string, Set<string>>();
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    for (const variant of variantsOf(secret)) {
      const key = variant.slice(0, MIN_SECRET_LENGTH);
      const set = sets.get(key) ?? new Set<string>();
      set.add(variant);
      sets.set(key, set);
    }
  }
  if (sets.size === 0) return (text) => text;
  const byPrefix = new Map([...sets].map(([key, set]) => [key, [...set].sort((a, b) => b.length - a.length)]));
  return (text) => {
    let out = '';
    let copied = 0;
    for (let i = 0; i + MIN_SECRET_LENGTH <= text.length; ) {
      const hit = byPrefix.get(text.slice(i, i + MIN_SECRET_LENGTH))?.find((s) => text.startsWith(s, i));
      if (!hit) {
        i++;
        continue;
      }
      out += text.slice(copied, i) + MASK;
      i += hit.length;
      copied = i;
    }
    return copied === 0 ? text : out + text.slice(copied);
  };
}

const MAX_SCRUB_DEPTH = 64;

/**
 * A deep copy of plain data (parsed JSON, zod output) with `scrub` applied to every string and
 * every object key, except the string values of keys matching `keep`. Cyclic or absurdly deep
 * values throw: they are bugs, not shapes to forward.
 */
export function scrubSecrets<T>(value: T, scrub: (text: string) => string, keep?: RegExp): T {
  const seen = new WeakSet<object>();
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return scrub(v);
    if (typeof v !== 'object' || v === null) return v;
    if (depth > MAX_SCRUB_DEPTH || seen.has(v)) throw new Error('A value is too deep or cyclic to scrub.');
    seen.add(v);
    const out = Array.isArray(v)
      ? v.map((x) => walk(x, depth + 1))
      : Object.fromEntries(Object.entries(v).map(([k, x]) => [scrub(k), keep?.test(k) && typeof x === 'string' ? x : walk(x, depth + 1)]));
    seen.delete(v);
    return out;
  };
  return walk(value, 0) as T;
}

/**
 * Field names under which a service answer carries a credential: the agent's own (`access_token`,
 * `pubsub_token` in the profile) and ones an administrator's answers include (an inbox's
 * `hmac_token`, `website_token`, `inbox_identifier`; a Chatwoot contact inbox's `pubsub_token`).
 * Not `source_id`: for email and phone inboxes it is the contact's address, which the agent reads.
 */
const CREDENTIAL_FIELD = /^(api[_-]?access[_-]?token|access[_-]?token|pubsub[_-]?token|hmac[_-]?token|website[_-]?token|inbox[_-]?identifier|identifier[_-]?hash|secret|[a-z_]*_secret)$/i;
/**
 * What a credential in an answer looks like: printable ASCII without spaces, 16 to 512 characters
 * (the service's are 24 or more). Anything else under such a name is not learnt, so no text a
 * person wrote becomes a "secret" that would then be cut out of every message.
 */
const TOKEN_SHAPE = /^[\x21-\x7e]{16,512}$/;
/**
 * Free-form objects anyone may fill (a contact's custom and additional attributes, a message's
 * content attributes, change sets): a credential's name there proves nothing, and learning from
 * them would let a contact make the agent's app hide any word of its choosing.
 */
const FREE_FORM = /^(custom_attributes|additional_attributes|content_attributes|previous_changes|changes|ui_settings)$/i;
/** Credentials learnt from answers are capped, so a hostile service cannot grow main's memory without end. */
const MAX_HARVESTED = 10_000;

/**
 * The secret values main holds this launch: tokens typed into sign-in (also refused ones), the
 * ones stored or pending, pubsub tokens, and credentials it read in service answers and live
 * events (`harvest`). `scrub` cuts all of them out of a string: the bridge's outgoing gate
 * (`outgoing.ts`) runs it on everything main sends the renderer; the redacting logger cuts the
 * same `values()`.
 */
export function createSecretRegistry() {
  const values = new Set<string>();
  let harvested = 0;
  let cut: ((text: string) => string) | undefined;
  const add = (secret: string) => {
    if (secret.length < MIN_SECRET_LENGTH || values.has(secret)) return;
    values.add(secret);
    cut = undefined;
  };
  const visit = (value: unknown, depth: number): void => {
    if (depth > 32 || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (const v of value) visit(v, depth + 1);
      return;
    }
    for (const [k, v] of Object.entries(value)) {
      if (FREE_FORM.test(k)) continue;
      if (typeof v === 'string' && CREDENTIAL_FIELD.test(k)) {
        if (TOKEN_SHAPE.test(v) && !values.has(v) && harvested < MAX_HARVESTED) {
          harvested++;
          add(v);
        }
      } else visit(v, depth + 1);
    }
  };
  const scrub = (text: string): string => {
    cut ??= secretCutter(values);
    return cut(text);
  };
  return {
    add,
    values: (): readonly string[] => [...values],
    /** Registers every credential-named field's value found anywhere in a parsed answer or event. */
    harvest: (body: unknown) => visit(body, 0),
    /** The string with every known secret cut out. */
    scrub,
    /**
     * A service answer or live push, learnt from and then scrubbed everywhere except in the fields
     * that name a credential: main reads its own credentials there (the profile's pubsub_token),
     * and no output or event schema forwards such a field (bridge-token-free.test.ts).
     */
    scrubAnswer<T>(body: T): T {
      visit(body, 0);
      return scrubSecrets(body, scrub, CREDENTIAL_FIELD);
    },
  };
}
export type SecretRegistry = ReturnType<typeof createSecretRegistry>;
