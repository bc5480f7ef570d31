// Sends every Client and Widget route a fixed set of requests against the demo service (in
// process, fastify.inject) and prints one JSON line per request: status, body and the headers a
// client reads. Run it before and after a change to how these families resolve their caller, and
// diff the two outputs: `npx tsx scripts/probe-contact-routes.ts > before.jsonl`.
// Values the service draws at random (identifiers, tokens, UUIDs, JWTs, CSP nonces, visitor names)
// are replaced by stable names, so two runs compare equal unless an answer changed.
import { extraTenant, hmacHex } from '../tests/support/public-api';
import { demoService } from '../tests/support/demo-service';

type Req = { method: string; url: string; headers?: Record<string, string>; payload?: string | Buffer };

const CLIENT = /^\/public\/api\/v1\/inboxes\//;
const WIDGET = /^\/(api\/v1\/widget\/|widget$)/;
const KEPT_HEADERS = ['content-type', 'cache-control', 'content-security-policy', 'access-control-allow-origin', 'access-control-allow-methods', 'vary', 'retry-after', 'location', 'x-content-type-options'];

const svc = await demoService();
await svc.app.ready();
const { creds } = svc;
const send = async (r: Req) => {
  const res = await svc.app.inject({ method: r.method as 'GET', url: r.url, headers: r.headers ?? {}, ...(r.payload === undefined ? {} : { payload: r.payload }) });
  return { status: res.statusCode, body: res.body, headers: res.headers };
};
const json = async (r: Req) => JSON.parse((await send({ ...r, headers: { 'content-type': 'application/json', ...r.headers }, payload: r.payload ?? '{}' })).body) as Record<string, unknown>;

// Fixtures: a contact with a conversation and a message in the API inbox, another contact, a
// contact of the hmac-mandatory inbox, a widget visitor, another tenant (suspended).
const inboxPath = (id: string) => `/public/api/v1/inboxes/${id}`;
const api = creds.apiInboxIdentifier;
const contact = await json({ method: 'POST', url: `${inboxPath(api)}/contacts`, payload: JSON.stringify({ name: 'Probe', identifier: 'probe-1' }) });
const other = await json({ method: 'POST', url: `${inboxPath(api)}/contacts`, payload: JSON.stringify({ name: 'Other' }) });
const strictContact = await json({ method: 'POST', url: `${inboxPath(creds.hmacMandatoryInboxIdentifier)}/contacts`, payload: JSON.stringify({ name: 'Strict' }) });
const conversation = await json({ method: 'POST', url: `${inboxPath(api)}/contacts/${String(contact.source_id)}/conversations` });
const otherConversation = await json({ method: 'POST', url: `${inboxPath(api)}/contacts/${String(other.source_id)}/conversations` });
const message = await json({ method: 'POST', url: `${inboxPath(api)}/contacts/${String(contact.source_id)}/conversations/${String(conversation.id)}/messages`, payload: JSON.stringify({ content: 'hi' }) });
const tenant = extraTenant(svc, { suspended: true });
const widgetQ = (token: string) => `?website_token=${encodeURIComponent(token)}`;
const visitor = await json({ method: 'POST', url: `/api/v1/widget/config${widgetQ(creds.websiteToken)}` });
const visitorToken = (visitor.website_channel_config as { auth_token: string }).auth_token;

const long = 'x'.repeat(256);
const inboxIds: Record<string, string> = { good: api, strict: creds.hmacMandatoryInboxIdentifier, unknown: 'no-such-inbox', tooLong: long, widgetInbox: String(creds.websiteToken), tenant: tenant.api.identifier ?? 'none' };
const contactIds: Record<string, string> = { good: String(contact.source_id), unknown: 'no-such-contact', tooLong: long, otherInbox: String(strictContact.source_id) };
const conversationIds: Record<string, string> = { good: String(conversation.id), unknown: '999999', others: String(otherConversation.id), malformed: 'abc', zero: '0' };
const messageIds: Record<string, string> = { good: String(message.id), unknown: '999999', malformed: 'abc' };
const websiteTokens: Record<string, string | undefined> = { good: creds.websiteToken, missing: undefined, unknown: 'no-such-token', suspended: tenant.widget.websiteToken ?? 'none', apiInbox: api, empty: '' };
const authTokens: Record<string, string | undefined> = { good: visitorToken, missing: undefined, malformed: 'not-a-jwt', otherSigned: visitorToken.slice(0, -4) + 'AAAA' };

const identifier = 'probe-1';
const bodies: Record<string, { type?: string; payload?: string | Buffer }> = {
  none: {},
  emptyJson: { type: 'application/json', payload: '{}' },
  malformed: { type: 'application/json', payload: '{"a":' },
  array: { type: 'application/json', payload: '[1]' },
  valid: { type: 'application/json', payload: JSON.stringify({ name: 'Renamed', content: 'hello', typing_status: 'on', submitted_values: { a: 1 }, message: { content: 'hello' } }) },
  invalid: { type: 'application/json', payload: JSON.stringify({ name: 5, content: 7, typing_status: 5, submitted_values: 5, message: 5, email: 'x' }) },
  hmacWrong: { type: 'application/json', payload: JSON.stringify({ identifier, identifier_hash: 'deadbeef' }) },
  hmacRight: { type: 'application/json', payload: JSON.stringify({ identifier, identifier_hash: hmacHex(creds.apiInboxHmacToken, identifier) }) },
  textEmpty: { type: 'text/plain', payload: '' },
  text: { type: 'text/plain', payload: 'hello' },
  form: { type: 'application/x-www-form-urlencoded', payload: 'name=Form&content=hi' },
  xml: { type: 'application/xml', payload: '<a/>' },
  multipart: { type: 'multipart/form-data; boundary=B', payload: '--B\r\nContent-Disposition: form-data; name="name"\r\n\r\nMulti\r\n--B--\r\n' },
  multipartBroken: { type: 'multipart/form-data; boundary=B', payload: '--B\r\nbroken' },
};

const fill = (pattern: string, ids: Record<string, string>) => pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(ids[name] ?? `:${name}`));

function* requestsFor(method: string, pattern: string): Generator<[string, Req]> {
  const bodyKinds = method === 'GET' ? ['none'] : Object.keys(bodies);
  const withBody = (label: string, url: string, headers: Record<string, string>) =>
    bodyKinds.map((kind): [string, Req] => {
      const b = bodies[kind]!;
      return [`${label} body=${kind}`, { method, url, headers: { ...headers, ...(b.type ? { 'content-type': b.type } : {}) }, ...(b.payload === undefined ? {} : { payload: b.payload }) }];
    });
  if (CLIENT.test(pattern)) {
    const good = { inbox_identifier: inboxIds.good!, contact_identifier: contactIds.good!, conversation_id: conversationIds.good!, message_id: messageIds.good! };
    const variants: [string, Record<string, string>][] = [['good', good]];
    for (const [k, v] of Object.entries(inboxIds)) if (k !== 'good') variants.push([`inbox=${k}`, { ...good, inbox_identifier: v }]);
    if (pattern.includes(':contact_identifier')) for (const [k, v] of Object.entries(contactIds)) if (k !== 'good') variants.push([`contact=${k}`, { ...good, contact_identifier: v }]);
    if (pattern.includes(':conversation_id')) for (const [k, v] of Object.entries(conversationIds)) if (k !== 'good') variants.push([`conversation=${k}`, { ...good, conversation_id: v }]);
    if (pattern.includes(':message_id')) for (const [k, v] of Object.entries(messageIds)) if (k !== 'good') variants.push([`message=${k}`, { ...good, message_id: v }]);
    variants.push(['inbox=unknown contact=unknown', { ...good, inbox_identifier: 'no-such-inbox', contact_identifier: 'no-such-contact' }]);
    for (const [label, ids] of variants) {
      const url = fill(pattern, ids);
      yield* withBody(label, url, { origin: 'https://site.example' });
      yield [`${label} trailing-slash`, { method, url: `${url}/` }];
      if (method === 'GET') yield [`${label} hmac query`, { method, url: `${url}?identifier=${identifier}&identifier_hash=deadbeef` }];
    }
    return;
  }
  for (const [tk, website] of Object.entries(websiteTokens)) {
    for (const [ak, auth] of Object.entries(authTokens)) {
      const query = website === undefined ? '' : widgetQ(website);
      const headers: Record<string, string> = { origin: 'https://site.example', ...(auth === undefined ? {} : { 'x-auth-token': auth }) };
      const label = `website=${tk} auth=${ak}`;
      // Bodies only with the good pair and the lone failures, to keep the count bounded.
      if ((tk === 'good' && ak === 'good') || tk === 'good' || ak === 'good') yield* withBody(label, `${pattern}${query}`, headers);
      else yield [`${label} body=none`, { method, url: `${pattern}${query}`, headers }];
      yield [`${label} trailing-slash`, { method, url: `${pattern}/${query}`, headers }];
    }
  }
  yield ['website=array', { method, url: `${pattern}?website_token[]=${creds.websiteToken}`, headers: { 'x-auth-token': visitorToken } }];
  yield ['bad query', { method, url: `${pattern}${widgetQ(creds.websiteToken)}&before=abc&cw_conversation=${'y'.repeat(5000)}`, headers: { 'x-auth-token': visitorToken } }];
  yield ['bad query bad token', { method, url: `${pattern}?website_token=nope&before=abc&cw_conversation=${'y'.repeat(5000)}` }];
}

// Random values the service draws: those stored are named by their row (read once all requests
// are done); JWTs and CSP nonces, stored nowhere, are numbered by first appearance.
function stableText(): (text: string) => string {
  const names = new Map<string, string>();
  const name = (table: string, columns: string[]) => {
    for (const row of svc.db.prepare(`SELECT id, ${columns.join(', ')} FROM ${table}`).all() as Record<string, unknown>[]) {
      for (const c of columns) if (typeof row[c] === 'string' && (row[c] as string).length >= 8) names.set(row[c] as string, `<${table}.${c}#${String(row.id)}>`);
    }
  };
  name('inboxes', ['identifier', 'website_token', 'hmac_token']);
  name('contact_inboxes', ['source_id', 'pubsub_token']);
  name('users', ['pubsub_token']);
  name('conversations', ['uuid']);
  name('messages', ['source_id']);
  name('uploads', ['blob_key']);
  const values = [...names.keys()].sort((a, b) => b.length - a.length).map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const stored = new RegExp(values.join('|'), 'g');
  const seen = new Map<string, string>();
  const drawn = /eyJ[\w-]+\.[\w-]+\.[\w-]+/g;
  return (text) =>
    text
      .replace(stored, (m) => names.get(m)!)
      .replace(/nonce(-|=\\"|=")[\w+/=]+/g, 'nonce$1<nonce>')
      // A new visitor's random name (presenters/widget-config.ts visitorName).
      .replace(/\b[a-z]+-[a-z]+-\d{3}\b/g, '<visitor-name>')
      .replace(drawn, (m) => {
      if (!seen.has(m)) seen.set(m, `<drawn${seen.size}>`);
      return seen.get(m)!;
    });
}

const routes = svc.routes.filter((r) => CLIENT.test(r.url) || WIDGET.test(r.url)).sort((a, b) => `${a.url} ${a.method}`.localeCompare(`${b.url} ${b.method}`));
const answers: { route: string; case: string; status: number; headers: Record<string, string>; body: string }[] = [];
for (const { method, url } of routes) {
  for (const [label, req] of requestsFor(method, url)) {
    const res = await send(req);
    const headers = Object.fromEntries(KEPT_HEADERS.filter((h) => res.headers[h] !== undefined).map((h) => [h, String(res.headers[h])]));
    answers.push({ route: `${method} ${url}`, case: label, status: res.status, headers, body: res.body });
  }
}
const stable = stableText();
for (const a of answers) console.log(stable(JSON.stringify({ ...a, body: a.body.slice(0, 4000) })));
console.error(`${answers.length} requests over ${routes.length} routes`);
await svc.close();
