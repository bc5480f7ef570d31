// Request logging without credentials. Client API paths carry the inbox identifier and the
// contact's source_id (both bearer credentials); widget URLs carry website_token and, on the page,
// the session token (cw_conversation); GET contact carries identifier_hash. None reach the log.
const CLIENT_PATH = /^(\/public\/api\/v1\/inboxes\/)([^/?]+)(\/contacts\/)?([^/?]+)?/;
const SECRET_QUERY = /([?&](?:website_token|cw_conversation|identifier_hash|identifier|pubsub_token|EIO|sid)=)[^&]*/gi;

export function redactUrl(url: string): string {
  return url
    .replace(CLIENT_PATH, (_m, prefix: string, _inbox: string, contacts?: string, contact?: string) => `${prefix}[redacted]${contacts ?? ''}${contact ? '[redacted]' : ''}`)
    .replace(SECRET_QUERY, '$1[redacted]');
}

export const requestSerializer = (request: { method: string; url: string; ip?: string }) => ({ method: request.method, url: redactUrl(request.url), remoteAddress: request.ip });
