// The service's request log (`--log`) holds no credential (outside security review, finding 3: a
// token in the query string, `?api_access_token=<T>`, was written verbatim while header tokens were
// redacted). The real command line runs with --log; every credential kind the service issues is
// sent in every place a client can put it (headers, query names in every spelling, path segments,
// request targets in every form), and the whole log is searched for each value.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoCredentials } from '../../server/demo/seed';
import type { RunningService } from '../../scripts/lib/service-process';
import { startService } from '../../scripts/lib/service-process';
import { hmacHex } from '../support/public-api';

const dir = mkdtempSync(join(tmpdir(), 'request-log-'));
let service: RunningService;
let base: URL;
let creds: DemoCredentials;

beforeAll(async () => {
  service = await startService({ db: ':memory:', demo: true, credentialsOut: join(dir, 'credentials.json'), log: true, quiet: true });
  creds = service.credentials!;
  base = new URL(service.baseUrl);
}, 60_000);

afterAll(async () => {
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** One request exactly as written (request target, headers, body) over a new TCP connection. */
function raw(target: string, headers: Record<string, string> = {}, opts: { method?: string; body?: string } = {}): Promise<string> {
  return new Promise((done, fail) => {
    const socket = net.connect(Number(base.port), base.hostname);
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('error', fail);
    socket.on('close', () => done(answer));
    const body = opts.body ?? '';
    const lines = [
      `${opts.method ?? (body ? 'POST' : 'GET')} ${target} HTTP/1.1`,
      `Host: ${base.host}`,
      'Connection: close',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      ...(body ? ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`] : []),
    ];
    socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
  });
}

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

/** Every spelling of a query parameter's name a parser reads as that name. */
const spellings = (name: string) => [
  name,
  name.toUpperCase(),
  name.replace(/_/g, '-'),
  `${name}[]`,
  `${name}[0]`,
  [...name].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''),
  encodeURIComponent(name).replace(/_/g, '%5F'),
];
/** Every way a value is written in a query string. */
const encodings = (value: string) => [value, encodeURIComponent(value), [...value].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`).join('')];

describe('the service log (--log)', () => {
  it('holds no credential of any kind, wherever the request put it', { timeout: 120_000 }, async () => {
    const origin = base.origin;
    // Credentials the service issues, besides the seeded ones: a widget visitor's session token
    // (a JWT) and pubsub_token, a Client API contact's source_id and pubsub_token, the agent's pubsub_token.
    const widget = await json(await fetch(`${origin}/api/v1/widget/config?website_token=${creds.websiteToken}`, { method: 'POST' }));
    const jwt = (widget.website_channel_config as { auth_token: string }).auth_token;
    const visitorPubsub = (widget.contact as { pubsub_token: string }).pubsub_token;
    const contact = await json(await fetch(`${origin}/public/api/v1/inboxes/${creds.apiInboxIdentifier}/contacts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Log Test"}' }));
    const sourceId = contact.source_id as string;
    const contactPubsub = contact.pubsub_token as string;
    const profile = await json(await fetch(`${origin}/api/v1/profile`, { headers: { api_access_token: creds.adminToken } }));
    const agentPubsub = profile.pubsub_token as string;
    const identifierHash = hmacHex(creds.apiInboxHmacToken, 'customer-42');

    const secrets: Record<string, string> = {
      'administrator api_access_token': creds.adminToken,
      'agent api_access_token': creds.agentToken,
      'agent bot api_access_token': creds.botToken,
      'other account api_access_token': creds.otherAccountAdminToken,
      'agent pubsub_token': agentPubsub,
      website_token: creds.websiteToken,
      'widget session JWT (X-Auth-Token, cw_conversation)': jwt,
      'widget JWT signature': jwt.split('.')[2]!,
      'visitor pubsub_token': visitorPubsub,
      inbox_identifier: creds.apiInboxIdentifier,
      'HMAC-mandatory inbox_identifier': creds.hmacMandatoryInboxIdentifier,
      'contact_identifier (source_id)': sourceId,
      'contact pubsub_token': contactPubsub,
      'API inbox hmac_token': creds.apiInboxHmacToken,
      'widget inbox hmac_token': creds.widgetHmacToken,
      identifier_hash: identifierHash,
    };

    // Headers: every credential header, in both spellings, and the generic ones.
    const headerSets: Record<string, string>[] = [
      { api_access_token: creds.adminToken },
      { 'api-access-token': creds.agentToken },
      { Authorization: `Bearer ${creds.botToken}` },
      { Cookie: `session=${creds.otherAccountAdminToken}` },
      { 'X-Auth-Token': jwt },
      { 'X-Pubsub-Token': agentPubsub },
    ];
    for (const h of headerSets) {
      await raw('/api/v1/profile', h);
      await raw(`/api/v1/widget/messages?website_token=${creds.websiteToken}`, h);
    }

    // Query strings: each credential under the names it travels as, in every spelling and encoding,
    // on Application, Client, Widget and unknown routes, and on the socket.io handshake path.
    const queryCases: [string[], string][] = [
      [['api_access_token', 'access_token', 'token', 'auth_token'], creds.adminToken],
      [['api_access_token'], creds.agentToken],
      [['api_access_token'], creds.botToken],
      [['x_auth_token', 'X-Auth-Token', 'cw_conversation', 'widget_auth_token'], jwt],
      [['website_token'], creds.websiteToken],
      [['pubsub_token'], agentPubsub],
      [['pubsub_token'], visitorPubsub],
      [['pubsub_token'], contactPubsub],
      [['hmac_token'], creds.apiInboxHmacToken],
      [['hmac_token'], creds.widgetHmacToken],
      [['identifier_hash'], identifierHash],
      [['inbox_identifier'], creds.apiInboxIdentifier],
      [['source_id', 'contact_identifier'], sourceId],
    ];
    const routes = ['/api/v1/profile', `/api/v1/accounts/${creds.accountId}/conversations`, `/public/api/v1/inboxes/${creds.apiInboxIdentifier}`, '/api/v1/widget/config', '/no/such/route', '/socket.io/'];
    for (const [names, value] of queryCases) {
      for (const name of names) {
        for (const spelled of spellings(name)) {
          for (const written of encodings(value)) {
            const query = `page=1&${spelled}=${written}&q=x`;
            await raw(`${routes[(spelled.length + written.length) % routes.length]}?${query}`);
          }
        }
      }
      // Also as the only parameter, after an empty one, and twice.
      await raw(`/api/v1/profile?${names[0]}=${value}`);
      await raw(`/api/v1/profile?&&${names[0]}=${value}&${names[0]}=${value}`);
    }

    // Path segments: the Client API's bearer credentials, in every request-target form the server accepts or logs.
    const inbox = creds.apiInboxIdentifier;
    const clientPaths = [
      `/public/api/v1/inboxes/${inbox}`,
      `/public/api/v1/inboxes/${inbox}/contacts/${sourceId}`,
      `/public/api/v1/inboxes/${inbox}/contacts/${sourceId}/conversations`,
      `/public/api/v1/inboxes/${creds.hmacMandatoryInboxIdentifier}/contacts/${sourceId}?identifier=customer-42&identifier_hash=${identifierHash}`,
      `//public/api/v1/inboxes/${inbox}/contacts/${sourceId}`,
      `/public//api/v1/inboxes/${inbox}/contacts/${sourceId}/`,
      `/PUBLIC/API/V1/INBOXES/${inbox}/CONTACTS/${sourceId}`,
      `/public/api/v1/%69nboxes/${inbox}/%63ontacts/${sourceId}`,
      `/public/api/v1/inboxes/${encodeURIComponent(inbox)}/contacts/${[...sourceId].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`,
      `/x/../public/api/v1/inboxes/${inbox}/contacts/${sourceId}`,
      `${origin}/public/api/v1/inboxes/${inbox}/contacts/${sourceId}/conversations`,
      `http://other.example/public/api/v1/inboxes/${inbox}/contacts/${sourceId}`,
    ];
    for (const p of clientPaths) await raw(p);
    // Absolute-form with a query, and credentials in a body (bodies are not logged).
    await raw(`${origin}/api/v1/profile?api_access_token=${creds.adminToken}`);
    await raw(`/public/api/v1/inboxes/${inbox}/contacts`, {}, { body: JSON.stringify({ identifier: 'customer-42', identifier_hash: identifierHash, pubsub_token: contactPubsub }) });
    await raw('/api/v1/profile', { api_access_token: creds.adminToken }, { method: 'PATCH', body: JSON.stringify({ access_token: creds.adminToken }) });

    // Stop the service so the log is complete.
    await service.stop();
    const stdout = service.output();
    const lines = stdout.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(500);
    const decoded = lines.map((l) => {
      try {
        return decodeURIComponent(l);
      } catch {
        return l;
      }
    });
    const found: string[] = [];
    for (const [kind, value] of Object.entries(secrets)) {
      const hits = lines.filter((l, i) => l.includes(value) || l.includes(encodeURIComponent(value)) || decoded[i]!.includes(value));
      if (hits.length) found.push(`${kind}: ${hits.length} lines, e.g. ${hits[0]!.slice(0, 300)}`);
    }
    expect(found).toEqual([]);
    // Still a useful log: requests with their method, route and status.
    expect(stdout).toContain('"url":"/api/v1/profile"');
    expect(stdout).toContain('/public/api/v1/inboxes/[redacted]/contacts/[redacted]/conversations');
    expect(stdout).toContain('"statusCode":200');
  });
});
