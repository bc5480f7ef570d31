// Secrets never cross the bridge, on any path (outside security review, finding 1: a 422 whose
// `attributes` echoed the token reached the renderer, because only `message` was scrubbed).
//
// Every secret main holds this launch is planted in every field of what the service answers, one
// field at a time, for every bridge call, and in every field of every live event kind; then in
// every field of error bodies of every shape; then in every input field. Whatever main forwards
// (call answers and every event, the two things both transports send) must contain none of them.
// Secrets held: the access token signed in with, its pubsub_token (from the profile), an HMAC
// token and an inbox identifier main saw in an inbox listing, and a token typed into a sign-in
// the service refused.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { createMainCore } from '../../main/core/core';
import { createSecretRegistry, redactingLogger } from '../../main/core/redact';
import { memoryVault } from '../../main/core/vault';
import type { DomainEvent } from '../../server/events/bus';
import { liveDelivery } from '../../server/live/payloads';
import type { BridgeCallName, BridgeInput } from '../../shared/bridge/contract';
import { bridgeCalls } from '../../shared/bridge/contract';
import { bridgeEvents } from '../../shared/bridge/events';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { fetchVia } from '../support/fake-service';
import { multiAccountUser } from '../support/session-fixtures';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

const BASE = 'http://service.test';
const TYPO = 'typed-but-refused-token-Zq81x';

let svc: DemoService;
beforeAll(async () => {
  svc = await demoService();
});
afterAll(() => svc.close());

// ---------------------------------------------------------------- planting

/** Arrays cut to two items: every field shape is still there, at a fraction of the runs. */
const trim = (v: Json): Json =>
  Array.isArray(v) ? v.slice(0, 2).map(trim) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trim(x)])) : v;

function leaves(v: Json, keep: (x: Json) => boolean, path: Path = []): Path[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => leaves(x, keep, [...path, i]));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => leaves(x, keep, [...path, k]));
  return keep(v) ? [path] : [];
}

function setAt(v: Json, path: Path, to: (old: Json) => Json): Json {
  if (path.length === 0) return to(v);
  const [head, ...rest] = path;
  if (Array.isArray(v)) return v.map((x, i) => (i === head ? setAt(x, rest, to) : x));
  const o = v as Record<string, Json>;
  return { ...o, [head as string]: setAt(o[head as string]!, rest, to) };
}

/** Every object gains a key named after the secret (free-form records keep such keys). */
const withSecretKeys = (v: Json, secret: string): Json =>
  Array.isArray(v)
    ? v.map((x) => withSecretKeys(x, secret))
    : v && typeof v === 'object'
      ? { ...Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withSecretKeys(x, secret)])), [secret]: secret, [`${secret}-nested`]: { note: [secret] } }
      : v;

/** Every leaf, numbers and booleans too, replaced by the secret: the answer fails its schema. */
const everyLeaf = (v: Json, secret: string): Json =>
  Array.isArray(v) ? v.map((x) => everyLeaf(x, secret)) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, everyLeaf(x, secret)])) : secret;

/** Answers in every variant: one string field at a time carrying a secret, then the whole-body ones. */
function* plantings(body: Json, secrets: readonly string[]): Generator<{ where: string; body: Json }> {
  const strings = leaves(body, (x) => typeof x === 'string');
  for (const [i, path] of strings.entries()) {
    const secret = secrets[i % secrets.length]!;
    yield { where: `${path.join('.')} (+secret ${i % secrets.length})`, body: setAt(body, path, (old) => `${String(old)}${secret}`) };
    yield { where: `${path.join('.')} (=secret ${i % secrets.length})`, body: setAt(body, path, () => secret) };
  }
  for (const [i, secret] of secrets.entries()) {
    yield { where: `keys (secret ${i})`, body: withSecretKeys(body, secret) };
    yield { where: `every leaf (secret ${i})`, body: everyLeaf(body, secret) };
  }
}

/** Error answers of every shape the spec (or a proxy) has, and some it does not, the secret everywhere. */
function errorAnswers(secret: string): { where: string; status: number; type: string; text: string }[] {
  const bodies: [string, string, string][] = [
    ['{error}', 'application/json', JSON.stringify({ error: `Invalid token ${secret}` })],
    ['{message, attributes}', 'application/json', JSON.stringify({ message: `Invalid token ${secret}`, attributes: [secret, 'name'] })],
    ['{errors}', 'application/json', JSON.stringify({ errors: [secret, `bad ${secret}`] })],
    [
      'extra fields',
      'application/json',
      JSON.stringify({ message: 'x', attributes: ['a', { nested: secret }], error_details: { token: secret, list: [[secret]] }, [secret]: secret, status: secret }),
    ],
    ['an array', 'application/json', JSON.stringify([secret, { error: secret }])],
    ['text', 'text/plain', `Retry later ${secret}`],
    ['html', 'text/html', `<html><body><h1>Bad gateway</h1><p>${secret}</p></body></html>`],
  ];
  return [400, 401, 403, 404, 409, 413, 422, 429, 500, 502].flatMap((status) => bodies.map(([where, type, text]) => ({ where: `${status} ${where}`, status, type, text })));
}

// ---------------------------------------------------------------- the core under test

interface Planted {
  method: string;
  path: string;
  status: number;
  type: string;
  text: string;
}

interface FakeSocket {
  handlers: Map<string, (...args: unknown[]) => void>;
  any?: (name: string, data: unknown) => void;
}

function harness() {
  const inner = fetchVia(svc);
  /** Answers for requests of this method and path; everything else reaches the real service. */
  let planted: Planted[] = [];
  /** The requests of the last real run, with the service's answers. */
  let recording: { method: string; path: string; status: number; body: Json }[] | undefined;
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const plant = planted.find((p) => p.method === method && p.path === url.pathname);
    if (plant) return new Response(plant.text, { status: plant.status, headers: { 'content-type': plant.type } });
    const res = await inner(input, init);
    if (recording) {
      const text = await res.clone().text();
      recording.push({ method, path: url.pathname, status: res.status, body: text ? (JSON.parse(text) as Json) : null });
    }
    return res;
  };
  const sockets: FakeSocket[] = [];
  const connect = () => {
    const fake: FakeSocket = { handlers: new Map() };
    sockets.push(fake);
    const socket = {
      connected: false,
      active: true,
      recovered: false,
      on: (name: string, fn: (...args: unknown[]) => void) => void fake.handlers.set(name, fn),
      onAny: (fn: (name: string, data: unknown) => void) => void (fake.any = fn),
      offAny: () => undefined,
      removeAllListeners: () => undefined,
      disconnect: () => undefined,
      connect: () => undefined,
    };
    setTimeout(() => fake.handlers.get('connect')?.());
    return socket as unknown as Socket;
  };
  const lines: string[] = [];
  const secrets = createSecretRegistry();
  const notifications: (() => void)[] = [];
  const notificationActions: ((action: 'markRead') => void)[] = [];
  const core = createMainCore({
    vault: memoryVault(),
    logger: redactingLogger((level, line) => lines.push(`${level} ${line}`), () => secrets.values()),
    secrets,
    fetch: fetchImpl,
    clientOptions: { retry: { attempts: 1, baseMs: 1, maxMs: 1 }, rateLimitRetry: { attempts: 1, baseMs: 1, maxMs: 1 } },
    desktop: {
      openExternal: async () => undefined,
      setUnreadCount: () => true,
      notify: (_n, onClick, onAction) => {
        notifications.push(onClick);
        if (onAction) notificationActions.push(onAction);
        return true;
      },
    },
    // The fake socket is socket.io's shape; the service answers through inject, where engine.io is not, so the probe is skipped.
    liveUpdates: { connect, detect: async () => 'socket.io' as const, timer: () => () => undefined },
  });
  const out: { name: string; value: unknown }[] = [];
  core.onEvent((name, payload) => out.push({ name: `event ${name}`, value: payload }));
  const call = async (name: string, input: unknown) => {
    const r = await core.call(name, input);
    out.push({ name, value: r });
    return r as { ok: boolean; value?: Record<string, unknown>; error?: { kind: string } };
  };
  return {
    core,
    call,
    out,
    lines,
    sockets,
    notifications,
    notificationActions,
    plant: (p: Planted[]) => void (planted = p),
    record: async <T>(run: () => Promise<T>) => {
      recording = [];
      const value = await run();
      const requests = recording;
      recording = undefined;
      return { value, requests };
    },
  };
}
type Harness = ReturnType<typeof harness>;

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

// ---------------------------------------------------------------- the walk

// Thousands of planted answers through the whole core: seconds on a quiet machine, more on a busy one.
describe('secrets never cross the bridge', { timeout: 60_000 }, () => {
  let h: Harness;
  let SECRETS: string[];
  const leaksIn = (text: string) => SECRETS.flatMap((s, i) => (text.includes(s) || text.includes(encodeURIComponent(s)) ? [`secret ${i}`] : []));
  /** Runs `step`; every answer and event it produced must be free of every secret. */
  const failures: string[] = [];
  const calledNames = new Set<string>();
  const eventNames = new Set<string>();
  let runs = 0;
  let pickedAccounts = 0;
  async function check(label: string, step: () => Promise<unknown>) {
    runs++;
    const from = h.out.length;
    await step();
    for (const o of h.out.slice(from)) {
      if (o.name.startsWith('event ')) eventNames.add(o.name.slice(6));
      else calledNames.add(o.name);
      const leaked = leaksIn(JSON.stringify(o.value));
      if (leaked.length) failures.push(`${label} → ${o.name}: ${leaked.join(', ')} in ${JSON.stringify(o.value).slice(0, 300)}`);
    }
  }
  beforeEach(() => {
    failures.length = 0;
  });
  let ids: { conversation: number; contact: number; message: number; agent: number; team: number; notification: number; notifiedUser: number };

  beforeAll(async () => {
    h = harness();
    const profile = (await svc.request({ url: '/api/v1/profile', token: svc.creds.adminToken })).body as { pubsub_token: string };
    SECRETS = [svc.creds.adminToken, profile.pubsub_token, svc.creds.apiInboxHmacToken, svc.creds.apiInboxIdentifier, TYPO];
    // Main comes to hold every one: a refused sign-in, the real one, and an inbox listing an administrator sees.
    expect(await h.call('session.signIn', { baseUrl: BASE, accessToken: TYPO })).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    expect(await h.call('session.signIn', { baseUrl: BASE, accessToken: svc.creds.adminToken })).toMatchObject({ ok: true });
    const inboxes = await h.call('inboxes.list', {});
    expect(inboxes.ok).toBe(true);
    await until(() => h.sockets.length === 1 && h.sockets[0]!.any !== undefined);
    const row = (sql: string, ...args: unknown[]) => svc.db.prepare(sql).get(...args) as Record<string, number>;
    const conversation = row('SELECT id, display_id, contact_id FROM conversations WHERE account_id = ? ORDER BY id LIMIT 1', svc.creds.accountId);
    const notification = row('SELECT id, user_id FROM notifications WHERE account_id = ? ORDER BY id LIMIT 1', svc.creds.accountId);
    ids = {
      conversation: conversation.display_id!,
      contact: conversation.contact_id!,
      message: row('SELECT id FROM messages WHERE conversation_id = ? ORDER BY id DESC LIMIT 1', conversation.id).id!,
      agent: row("SELECT user_id FROM account_users WHERE account_id = ? AND role = 'agent' LIMIT 1", svc.creds.accountId).user_id!,
      team: row('SELECT id FROM teams WHERE account_id = ? LIMIT 1', svc.creds.accountId).id!,
      notification: notification.id!,
      notifiedUser: notification.user_id!,
    };
  });

  // The reviewer's exact case first.
  it('a refused sign-in whose error echoes the token in `attributes` carries no token back', async () => {
    const token = 'reviewer-planted-token-4f1c9a';
    h.plant([{ method: 'GET', path: '/api/v1/profile', status: 422, type: 'application/json', text: JSON.stringify({ message: `Invalid token ${token}`, attributes: [token] }) }]);
    const reply = await h.core.call('session.signIn', { baseUrl: BASE, accessToken: token });
    h.plant([]);
    expect(reply).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(JSON.stringify(reply)).not.toContain(token);
  });

  /** A valid input for every call; a call added to the contract without one here does not compile. */
  const samples = (): { [C in BridgeCallName]: BridgeInput<C> } => ({
    'session.get': {},
    'session.signIn': { baseUrl: BASE, accessToken: svc.creds.adminToken },
    'session.chooseAccount': { pendingId: 'set-in-the-run', accountId: svc.creds.accountId },
    'session.list': {},
    'session.features': {},
    'session.switch': { sessionId: 'set-in-the-run' },
    'session.signOut': {},
    'session.obsoleteCaches': {},
    'session.cacheDeleted': { sessionId: 'set-in-the-run' },
    'session.tokenStorage': {},
    'session.setTokenStorage': { choice: 'each_launch' },
    'app.getSettings': {},
    'app.updateSettings': {},
    'app.setUnreadCount': { count: 3 },
    'app.liveStatus': {},
    'app.setViewing': { conversationId: ids.conversation },
    'app.notify': { title: 'New message', body: 'Hello', conversationId: ids.conversation },
    'app.closeNotification': { tag: 'conversation-1' },
    'shell.openExternal': { url: 'https://example.com/page' },
    'conversations.list': { status: 'all' },
    'conversations.get': { conversationId: ids.conversation },
    'conversations.read': { conversationId: ids.conversation },
    'changes.list': {},
    'messages.list': { conversationId: ids.conversation },
    'inboxes.list': {},
    'agents.list': {},
    'teams.list': {},
    'labels.list': {},
    'cannedResponses.list': { search: '' },
    'contacts.get': { contactId: ids.contact },
    'contacts.conversations': { contactId: ids.contact },
    'contacts.labels': { contactId: ids.contact },
    'contacts.notes': { contactId: ids.contact },
    'contacts.update': { contactId: ids.contact, name: 'Dana Q.', email: 'dana@example.com', phoneNumber: '+15550100', customAttributes: { plan: 'pro' } },
    'contacts.removeAttributes': { contactId: ids.contact, keys: ['plan'] },
    'contacts.setLabels': { contactId: ids.contact, labels: ['vip'] },
    'contacts.createNote': { contactId: ids.contact, content: 'Prefers email.', clientId: '3c8d0b61-3f5f-4a8f-8b66-1d9e7f2f2b22' },
    'contacts.deleteNote': { contactId: ids.contact, noteId: 1 },
    'search.all': { q: 'refund' },
    'conversations.toggleStatus': { conversationId: ids.conversation, status: 'open' },
    'conversations.togglePriority': { conversationId: ids.conversation, priority: 'high' },
    'conversations.assign': { conversationId: ids.conversation, assigneeId: ids.agent },
    'conversations.assignTeam': { conversationId: ids.conversation, teamId: ids.team },
    'conversations.setLabels': { conversationId: ids.conversation, labels: ['vip'] },
    'conversations.updateLastSeen': { conversationId: ids.conversation },
    'conversations.markUnread': { conversationId: ids.conversation },
    'conversations.typing': { conversationId: ids.conversation, on: true, private: false },
    'messages.create': { conversationId: ids.conversation, content: 'Thanks!', private: false, clientId: '2b7c9a50-2f4e-4f7e-9a55-0c8d6f1e1a11' },
    'files.attachment': { conversationId: ids.conversation, messageId: ids.message, attachmentId: 1 },
    'files.avatar': { contactId: ids.contact },
  });

  it('in every field of every answer to every call that reads or writes the service', async () => {
    const all = samples();
    const apiCalls = (Object.keys(all) as BridgeCallName[]).filter((n) => !/^(session|app|shell)\./.test(n));
    for (const name of apiCalls) {
      const { requests } = await h.record(() => h.call(name, all[name]));
      expect(requests.length, name).toBeGreaterThan(0);
      const [first] = requests;
      const body = trim(first!.body);
      for (const p of plantings(body, SECRETS)) {
        h.plant([{ method: first!.method, path: first!.path, status: first!.status, type: 'application/json', text: JSON.stringify(p.body) }]);
        await check(`${name} answer, ${p.where}`, () => h.call(name, all[name]));
      }
      for (const [i, secret] of SECRETS.entries()) {
        for (const e of errorAnswers(secret)) {
          h.plant([{ method: first!.method, path: first!.path, ...e }]);
          await check(`${name} error ${e.where} (secret ${i})`, () => h.call(name, all[name]));
        }
      }
      h.plant([]);
    }
    expect(failures.slice(0, 25), `${failures.length} leaks`).toEqual([]);
  }, 60_000); // every call through the real main core: over 5 s on the shared 2-core machine under load

  it('in every field of the profile, through sign-in, the account picker, the saved sessions and their events', async () => {
    const multi = multiAccountUser(svc);
    const profileOf = async (token: string) => trim((await svc.request({ url: '/api/v1/profile', token })).body as Json);
    const admin = await profileOf(svc.creds.adminToken);
    const picker = await profileOf(multi.token);
    const answer = (body: Json, status = 200, type = 'application/json') => h.plant([{ method: 'GET', path: '/api/v1/profile', status, type, text: typeof body === 'string' ? body : JSON.stringify(body) }]);

    // One account: signed in at once, then every session call that reads what was saved.
    const sessionRun = async () => {
      const signedIn = await h.call('session.signIn', { baseUrl: BASE, accessToken: svc.creds.adminToken });
      h.plant([]);
      const sessionId = (signedIn.value as { session?: { id: string } } | undefined)?.session?.id;
      await h.call('session.get', {});
      await h.call('session.list', {});
      if (sessionId) await h.call('session.switch', { sessionId });
    };
    for (const p of plantings(admin, SECRETS)) {
      answer(p.body);
      await check(`profile (one account), ${p.where}`, sessionRun);
    }
    for (const [i, secret] of SECRETS.entries()) {
      for (const e of errorAnswers(secret)) {
        answer(e.text, e.status, e.type);
        await check(`profile error ${e.where} (secret ${i})`, sessionRun);
      }
    }

    // Several accounts: the picker's answer, choosing, switching back, signing the picked one out.
    const pickerRun = async () => {
      const chosen = await h.call('session.signIn', { baseUrl: BASE, accessToken: multi.token });
      h.plant([]);
      const pendingId = (chosen.value as { pendingId?: string } | undefined)?.pendingId;
      if (!pendingId) return;
      const state = await h.call('session.chooseAccount', { pendingId, accountId: svc.creds.accountId });
      if (state.ok) pickedAccounts++;
      const picked = (state.value as { session?: { id: string } } | undefined)?.session?.id;
      const list = await h.call('session.list', {});
      const other = (list.value as { sessions: { id: string }[] }).sessions.find((s) => s.id !== picked);
      if (other) await h.call('session.switch', { sessionId: other.id });
      if (picked) {
        await h.call('session.signOut', { sessionId: picked });
        await h.call('session.obsoleteCaches', {});
        await h.call('session.cacheDeleted', { sessionId: picked });
      }
    };
    for (const p of plantings(picker, SECRETS)) {
      answer(p.body);
      await check(`profile (two accounts), ${p.where}`, pickerRun);
    }
    h.plant([]);
    // Back to a clean session for the tests after this one.
    await h.call('session.signIn', { baseUrl: BASE, accessToken: svc.creds.adminToken });
    expect(failures.slice(0, 25), `${failures.length} leaks`).toEqual([]);
  });

  it('in every field of every live event kind', async () => {
    await until(() => h.sockets.length > 0 && h.sockets.at(-1)!.any !== undefined);
    const socket = h.sockets.at(-1)!;
    const accountId = svc.creds.accountId;
    const conversationDbId = (svc.db.prepare('SELECT id FROM conversations WHERE account_id = ? AND display_id = ?').get(accountId, ids.conversation) as { id: number }).id;
    const performer = { type: 'user' as const, id: ids.agent };
    const domain: DomainEvent[] = [
      { name: 'message.created', accountId, conversationId: conversationDbId, messageId: ids.message, performer, echoId: 'echo-1' },
      { name: 'message.updated', accountId, conversationId: conversationDbId, messageId: ids.message, changes: { content: ['a', 'b'] } },
      ...(['conversation.created', 'conversation.updated', 'conversation.status_changed', 'conversation.read', 'conversation.contact_changed', 'assignee.changed', 'team.changed'] as const).map(
        (name) => ({ name, accountId, conversationId: conversationDbId, performer }) as DomainEvent,
      ),
      { name: 'conversation.mentioned', accountId, conversationId: conversationDbId, userId: ids.agent, performer },
      { name: 'conversation.typing_on', accountId, conversationId: conversationDbId, typer: { type: 'contact', id: ids.contact }, isPrivate: false },
      { name: 'conversation.typing_off', accountId, conversationId: conversationDbId, typer: performer, isPrivate: true },
      { name: 'contact.created', accountId, contactId: ids.contact },
      { name: 'contact.updated', accountId, contactId: ids.contact },
      { name: 'notification.created', accountId, userId: ids.notifiedUser, notificationId: ids.notification },
      { name: 'account.cache_invalidated', accountId, changed: 'team', at: 1 },
    ];
    const forwardedKinds = new Set<string>();
    for (const e of domain) {
      const delivery = liveDelivery(svc.db, e)!;
      expect(delivery, e.name).toBeDefined();
      const payload = trim(delivery.data as Json);
      const before = h.out.length;
      socket.any!(delivery.name, payload);
      const forwarded = h.out.slice(before).find((o) => o.name === 'event live.event');
      expect(forwarded, `${e.name} is forwarded unplanted`).toBeDefined();
      forwardedKinds.add((forwarded!.value as { type: string }).type);
      for (const p of plantings(payload, SECRETS)) await check(`live ${e.name}, ${p.where}`, async () => socket.any!(delivery.name, p.body));
    }
    expect(forwardedKinds.size).toBe(domain.length);
    // The socket's own events: connected (status, catch-up), dropped, and a notification's click and action.
    await check('live status', async () => {
      socket.handlers.get('disconnect')?.('transport close');
      socket.handlers.get('connect')?.();
    });
    await check('notification click', async () => {
      await h.call('app.notify', { title: `New message ${SECRETS[0]}`, body: SECRETS[1]!, conversationId: ids.conversation });
      h.notifications.at(-1)!();
    });
    await check('notification action', async () => {
      await h.call('app.notify', { title: `New message ${SECRETS[0]}`, body: SECRETS[1]!, conversationId: ids.conversation, tag: 'conversation-1' });
      h.notificationActions.at(-1)!('markRead');
    });
    expect(failures.slice(0, 25), `${failures.length} leaks`).toEqual([]);
  });

  it('in every field of every call\'s input (validation messages echo nothing)', async () => {
    const all = samples();
    for (const name of Object.keys(all) as BridgeCallName[]) {
      const sample = all[name] as Record<string, unknown>;
      for (const [i, secret] of SECRETS.entries()) {
        const every = Object.fromEntries(Object.keys(sample).map((k) => [k, secret]));
        await check(`${name} input, every field (secret ${i})`, () => h.call(name, every));
        await check(`${name} input, extra field (secret ${i})`, () => h.call(name, { ...sample, [secret]: secret, extra: secret }));
        await check(`${name} input, wrong shape (secret ${i})`, () => h.call(name, [secret]));
      }
      await check(`${name} local answer`, () => h.call(name, sample));
    }
    await check('unknown call', () => h.call(`conversations.${SECRETS[0]}`, {}));
    expect(failures.slice(0, 25), `${failures.length} leaks`).toEqual([]);
  });

  it('a secret straddling a length limit leaves no part of itself behind (cut before shortened)', async () => {
    const secret = SECRETS[0]!;
    const head = secret.slice(0, 8);
    // (The input walk above signed out.)
    expect(await h.call('session.signIn', { baseUrl: BASE, accessToken: svc.creds.adminToken })).toMatchObject({ ok: true });
    await until(() => h.sockets.at(-1)?.any !== undefined);
    // Error messages are cut at 300 characters, attributes at 100.
    h.plant([{ method: 'GET', path: `/api/v1/accounts/${svc.creds.accountId}/labels`, status: 422, type: 'application/json', text: JSON.stringify({ message: `${'m'.repeat(290)}${secret}`, attributes: [`${'a'.repeat(92)}${secret}`] }) }]);
    const refused = await h.call('labels.list', {});
    h.plant([]);
    expect(refused).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(JSON.stringify(refused)).not.toContain(head);
    // Notification texts from the live socket are cut at 500 characters.
    const socket = h.sockets.at(-1)!;
    const before = h.out.length;
    socket.any!('notification.created', {
      account_id: svc.creds.accountId,
      notification: { id: 99, notification_type: 'conversation_mention', primary_actor: { id: ids.conversation }, push_message_title: `${'t'.repeat(490)}${secret}`, push_message_body: 'b' },
    });
    const forwarded = h.out.slice(before).find((o) => o.name === 'event live.event');
    expect(forwarded).toBeDefined();
    expect(JSON.stringify(forwarded!.value)).not.toContain(head);
  });

  it('in a message with files: its answer and its upload progress events', async () => {
    const withFile = { conversationId: ids.conversation, content: '', private: false, clientId: '7d1e3c52-8a4b-4c6d-9e0f-1a2b3c4d5e6f', attachments: [{ name: 'note.txt', type: 'text/plain', data: Buffer.from('hello').toString('base64') }] };
    const { requests } = await h.record(() => h.call('messages.create', withFile));
    expect(requests[0]!.method).toBe('POST');
    const body = trim(requests[0]!.body);
    for (const p of plantings(body, SECRETS)) {
      h.plant([{ method: 'POST', path: requests[0]!.path, status: 200, type: 'application/json', text: JSON.stringify(p.body) }]);
      await check(`messages.create with a file, ${p.where}`, () => h.call('messages.create', withFile));
    }
    h.plant([]);
    expect(eventNames).toContain('messages.uploadProgress');
    expect(failures.slice(0, 25), `${failures.length} leaks`).toEqual([]);
  });

  it('walked every call and every event kind, and the log holds no secret either', () => {
    expect([...calledNames].sort()).toEqual(expect.arrayContaining(Object.keys(bridgeCalls).sort()));
    expect([...eventNames].sort()).toEqual(Object.keys(bridgeEvents).sort());
    // Thousands of answers, each with one field (or every one) carrying a secret; the picker's path taken for most.
    expect(runs).toBeGreaterThan(5_000);
    expect(pickedAccounts).toBeGreaterThan(20);
    const log = h.lines.join('\n');
    expect(leaksIn(log)).toEqual([]);
  });
});
