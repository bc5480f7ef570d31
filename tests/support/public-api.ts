// Helpers for the contact-facing families in tests: identifier hashes, Client API paths, a widget
// visitor session, and a second tenant's inboxes (including a suspended account).
import { createHmac } from 'node:crypto';
import { addToAccount, createAccount, createInbox, createUser } from '../../server/store/provision';
import type { DemoService } from './demo-service';

export const hmacHex = (key: string, identifier: string) => createHmac('sha256', key).update(identifier).digest('hex');

export const clientPath = (inboxIdentifier: string, rest = '') => `/public/api/v1/inboxes/${inboxIdentifier}${rest}`;

export interface ClientContact {
  source_id: string;
  pubsub_token: string;
  id: number;
  name: string;
  email: string | null;
  phone_number: string | null;
}

export async function createClientContact(svc: DemoService, inboxIdentifier: string, body: Record<string, unknown> = {}) {
  const res = await svc.request({ method: 'POST', url: clientPath(inboxIdentifier, '/contacts'), payload: body });
  if (res.status !== 200) throw new Error(`contact create failed: ${res.status} ${res.text}`);
  return res.body as ClientContact;
}

export const widgetPath = (websiteToken: string, path: string) => `/api/v1/widget/${path}?website_token=${encodeURIComponent(websiteToken)}`;

export interface WidgetSession {
  website_channel_config: Record<string, unknown> & { auth_token: string };
  contact: { id: number; name: string; email: string | null; identifier: string | null; phone_number: string | null; pubsub_token: string };
  global_config: Record<string, string>;
}

export async function startWidget(svc: DemoService, websiteToken: string, authToken?: string) {
  const res = await svc.request({ method: 'POST', url: widgetPath(websiteToken, 'config'), headers: authToken ? { 'x-auth-token': authToken } : {} });
  if (res.status !== 200) throw new Error(`widget config failed: ${res.status} ${res.text}`);
  return res.body as WidgetSession;
}

/** A widget request as the visitor holding `token`. */
export function widgetRequest(svc: DemoService, websiteToken: string, token: string, method: string, path: string, payload?: unknown, query = '') {
  return svc.request({ method, url: widgetPath(websiteToken, path) + query, headers: { 'x-auth-token': token }, ...(payload === undefined ? {} : { payload }) });
}

/** A separate account with its own API and widget inboxes; optionally suspended. */
export function extraTenant(svc: DemoService, opts: { suspended?: boolean; hmacMandatory?: boolean } = {}) {
  const now = svc.clock();
  const accountId = createAccount(svc.db, `Tenant ${Math.random().toString(36).slice(2, 8)}`, now);
  const admin = createUser(svc.db, { name: 'Tenant Admin', email: `admin-${accountId}-${Date.now()}@tenant.example` }, now);
  addToAccount(svc.db, accountId, admin.id, 'administrator', now);
  const api = createInbox(svc.db, accountId, { name: 'Tenant API', kind: 'api', hmacMandatory: opts.hmacMandatory ?? false }, now);
  const widget = createInbox(svc.db, accountId, { name: 'Tenant widget', kind: 'web_widget', hmacMandatory: opts.hmacMandatory ?? false }, now);
  if (opts.suspended) svc.db.prepare("UPDATE accounts SET status = 'suspended' WHERE id = ?").run(accountId);
  return { accountId, admin, api, widget };
}

/** A new contact (Client API) opens a conversation and writes `content` in it; answers its display id. */
export async function contactWrites(svc: DemoService, content: string, name = 'Live Contact') {
  const c = await createClientContact(svc, svc.creds.apiInboxIdentifier, { name });
  const conv = (await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}/conversations`), payload: {} })).body as { id: number };
  await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}/conversations/${conv.id}/messages`), payload: { content } });
  return conv.id;
}
