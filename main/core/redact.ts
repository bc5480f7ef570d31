// Redaction for anything main writes to a log, a crash report or an error message.
// The agent's token must never appear in any of them (issue: token never reaches a log).

const SENSITIVE_KEYS = /^(api[_-]?access[_-]?token|access[_-]?token|accessToken|token|pubsub[_-]?token|hmac[_-]?token|x-auth-token|authorization|password|secret)$/i;

/** Replaces every occurrence of known secret values, and token-looking header/query pairs, in a string. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  return out
    .replace(/(api[_-]?access[_-]?token|access[_-]?token|pubsub[_-]?token|x-auth-token)(["']?\s*[:=]\s*["']?)([^"'&\s,}]+)/gi, '$1$2[redacted]')
    .replace(/(authorization(["']?\s*[:=]\s*["']?)(bearer\s+)?)([^"'&\s,}]+)/gi, '$1[redacted]');
}

/** Deep copy with sensitive keys replaced and secret values scrubbed from every string. */
export function redactValue(value: unknown, secrets: readonly string[] = [], depth = 0): unknown {
  if (depth > 8) return '[truncated]';
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets, depth + 1));
  if (value instanceof Error) return { name: value.name, message: redactText(value.message, secrets) };
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SENSITIVE_KEYS.test(k) ? '[redacted]' : redactValue(v, secrets, depth + 1)]),
    );
  }
  return value;
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
    const extra = detail === undefined ? '' : ` ${JSON.stringify(redactValue(detail, s))}`;
    sink(level, `${redactText(message, s)}${extra}`);
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}
