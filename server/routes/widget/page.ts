// GET /widget: a minimal widget page, so a person (or a demo) can chat as a visitor. Without a
// `cw_conversation` token it starts a fresh session (spec: Widget family; throttled elsewhere);
// with one it continues that visitor's session. Tokens are embedded as JSON, never as markup,
// and the inline script runs only under a per-response CSP nonce.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseParams } from '../../http/params';
import { inboxSettings } from '../../presenters/inbox';
import type { WidgetDeps } from './scope';
import { installWidgetScope } from './scope';

const pageQuery = z.object({ website_token: z.string().max(255).optional(), cw_conversation: z.string().max(4096).optional() });

/** JSON that is safe inside a <script> element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A malformed query is 400 before an unknown website_token's 404: read on request, before the scope's hook. */
const readQuery = async (request: FastifyRequest) => parseParams(pageQuery, request.query, 'query parameter');

/** A plugin of its own: the widget scope for the website_token's inbox alone (the page continues a visitor's session in the browser; its token is not checked here). */
export function widgetPageRoutes(app: FastifyInstance, deps: WidgetDeps) {
  installWidgetScope(app, deps, { visitor: false });
  app.get('/widget', { onRequest: readQuery }, async (request, reply) => {
    const query = await readQuery(request);
    const inbox = request.widgetInbox;
    const settings = inboxSettings(inbox);
    const nonce = randomBytes(16).toString('base64');
    const boot = { websiteToken: query.website_token, token: query.cw_conversation ?? null };
    reply
      .header('content-security-policy', `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; frame-ancestors *`)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8');
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(inbox.name)}</title>
<style>body{font:15px system-ui,sans-serif;margin:0;display:flex;flex-direction:column;height:100vh}
header{background:${/^#[0-9a-fA-F]{3,8}$/.test(settings.widget_color ?? '') ? settings.widget_color : '#1f93ff'};color:#fff;padding:16px}
#log{flex:1;overflow:auto;padding:12px;list-style:none;margin:0}#log li{margin:6px 0}.in{text-align:right}
form{display:flex;gap:8px;padding:12px;border-top:1px solid #ddd}input{flex:1;padding:8px}</style></head>
<body><header><strong>${escapeHtml(settings.welcome_title ?? inbox.name)}</strong><div>${escapeHtml(settings.welcome_tagline ?? '')}</div></header>
<ul id="log" aria-live="polite"></ul>
<form id="send"><label for="text" hidden>Message</label><input id="text" autocomplete="off" placeholder="Type your message"><button>Send</button></form>
<script nonce="${nonce}">
const boot = ${scriptJson(boot)};
const q = '?website_token=' + encodeURIComponent(boot.websiteToken);
let token = boot.token;
const api = (path, method, body) => fetch('/api/v1/widget/' + path + q, { method, headers: Object.assign({ 'content-type': 'application/json' }, token ? { 'X-Auth-Token': token } : {}), body: body ? JSON.stringify(body) : undefined }).then((r) => r.ok ? r.json() : Promise.reject(r.status));
const log = document.getElementById('log');
const show = (m) => { const li = document.createElement('li'); li.className = m.message_type === 0 ? 'in' : 'out'; li.textContent = m.content; log.append(li); log.scrollTop = log.scrollHeight; };
async function refresh() { const page = await api('messages', 'GET'); log.replaceChildren(); page.payload.forEach(show); }
api('config', 'POST').then((c) => { token = c.website_channel_config.auth_token; return refresh(); }).catch(() => {});
setInterval(() => { if (token) refresh().catch(() => {}); }, 3000);
document.getElementById('send').addEventListener('submit', (e) => { e.preventDefault(); const input = document.getElementById('text'); const content = input.value.trim(); if (!content) return; input.value = ''; api('messages', 'POST', { message: { content } }).then(show).catch(() => {}); });
</script></body></html>`;
  });
}
