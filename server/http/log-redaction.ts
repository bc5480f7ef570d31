// Request logging without credentials (`--log`). Headers are never logged (the request serializer
// keeps method, URL and address); in the URL every credential a client can put there is redacted:
//
// - query parameters named like a credential, whatever the spelling a parser would still read as
//   that name (case, `-` for `_`, `[]`/`[0]` suffixes, percent-encoded names): `api_access_token`,
//   `access_token`, `token`, `auth_token`, `x_auth_token` (the widget header, sent as a
//   parameter), `widget_auth_token`, `cw_conversation` (the widget page's session JWT),
//   `website_token`, `pubsub_token`, `hmac_token`, `identifier_hash`, `identifier` (a contact's
//   identity, personal data), `inbox_identifier`, `contact_identifier`, `source_id`, and
//   socket.io's `sid`; any other value shaped like a JWT too;
// - path segments: the Client API's inbox identifier and contact identifier (bearer credentials,
//   spec "Client API"), in any case or percent-encoding, wherever the path starts (absolute-form
//   request targets, doubled slashes, dot segments), and an upload's unguessable blob key.
//
// The same scrubbing runs over every string a log line carries (`redactLogText`), so a credential
// that reaches a message or an error some other way is cut too.
const MASK = '[redacted]';

const CREDENTIAL_PARAMS = new Set([
  'api_access_token',
  'access_token',
  'token',
  'auth_token',
  'x_auth_token',
  'widget_auth_token',
  'cw_conversation',
  'website_token',
  'pubsub_token',
  'hmac_token',
  'identifier_hash',
  'identifier',
  'inbox_identifier',
  'contact_identifier',
  'source_id',
  'sid',
  'authorization',
]);

const JWT = /eyJ[\w-]*\.[\w-]+\.[\w-]*/g;
const hasJwt = (text: string) => /eyJ[\w-]*\.[\w-]+\.[\w-]*/.test(text);

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The name a query parser reads: decoded, lower case, `-` as `_`, without `[...]` suffixes. */
const paramName = (raw: string) =>
  decode(raw)
    .trim()
    .toLowerCase()
    .replace(/-/g, '_')
    .replace(/(\[[^\]]*\])+$/, '');

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0) return hasJwt(decode(part)) ? MASK : part;
      const name = part.slice(0, eq);
      const value = part.slice(eq + 1);
      return CREDENTIAL_PARAMS.has(paramName(name)) || hasJwt(decode(value)) ? `${name}=${MASK}` : part;
    })
    .join('&');
}

const segmentName = (segment: string) => decode(segment).toLowerCase();
const isNumber = (segment: string) => /^\d+$/.test(decode(segment));

/**
 * Client API credentials in the path: the segment after `inboxes` and the one after `contacts`
 * below it. On `/public/...` paths always; elsewhere unless a number (Application API ids).
 */
function redactPath(path: string): string {
  const segments = path.split('/');
  const names = segments.map(segmentName);
  const clientApi = names.includes('public');
  let inboxSeen = false;
  return segments
    .map((segment, i) => {
      const previous = i > 0 ? names[i - 1] : '';
      if (segment === '') return segment;
      const keep = !clientApi && isNumber(segment);
      if (previous === 'inboxes' && !keep) {
        inboxSeen = true;
        return MASK;
      }
      if (previous === 'contacts' && inboxSeen && !keep) return MASK;
      // An upload's key is its only protection (an unguessable URL).
      if (previous === 'blobs') return MASK;
      return hasJwt(decode(segment)) ? MASK : segment;
    })
    .join('/');
}

export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const withoutHash = hash < 0 ? url : url.slice(0, hash);
  const q = withoutHash.indexOf('?');
  const path = q < 0 ? withoutHash : withoutHash.slice(0, q);
  return q < 0 ? redactPath(path) : `${redactPath(path)}?${redactQuery(withoutHash.slice(q + 1))}`;
}

const HEADER_LIKE = /\b(api[_-]?access[_-]?token|x[_-]?auth[_-]?token|authorization|cookie|pubsub[_-]?token|hmac[_-]?token|website[_-]?token|identifier[_-]?hash)(["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|token)\s+)?[^"'&\s,;}]+/gi;
const URL_LIKE = /(?:https?:\/\/[^\s"'<>]+|\/[^\s"'<>]*)/g;

/** Any text a log line carries: URLs in it as `redactUrl`, `name: value` / `name=value` pairs of credential names, JWTs. */
export function redactLogText(text: string): string {
  return text
    .replace(URL_LIKE, (u) => redactUrl(u))
    .replace(HEADER_LIKE, `$1$2${MASK}`)
    .replace(JWT, MASK);
}

/** A log call's arguments with every string scrubbed (plain objects and errors walked, a few levels deep). */
function redactLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactLogText(value);
  if (typeof value !== 'object' || value === null || depth > 4) return value;
  if (value instanceof Error) {
    const copy = new Error(redactLogText(value.message));
    copy.name = value.name;
    copy.stack = value.stack === undefined ? undefined : redactLogText(value.stack);
    return copy;
  }
  if (Array.isArray(value)) return value.map((v) => redactLogValue(v, depth + 1));
  const proto = Object.getPrototypeOf(value) as unknown;
  // Request, reply and socket objects are left to their serializers.
  if (proto !== Object.prototype && proto !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactLogValue(v, depth + 1)]));
}

/** A pino log call's arguments, scrubbed; an error first keeps pino's shape (`err`, its message as `msg`). */
export function redactLogArgs(args: unknown[]): unknown[] {
  const [first, ...rest] = args;
  if (first instanceof Error) {
    const err = redactLogValue(first) as Error;
    return [{ err }, ...(rest.length ? rest.map((a) => redactLogValue(a)) : [err.message])];
  }
  return args.map((a) => redactLogValue(a));
}

export const requestSerializer = (request: { method: string; url: string; ip?: string }) => ({ method: request.method, url: redactUrl(request.url), remoteAddress: request.ip });
